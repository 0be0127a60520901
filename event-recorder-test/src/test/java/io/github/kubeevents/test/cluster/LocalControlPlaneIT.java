package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.Reader;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.CoreV1EventList;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The local backend against real binaries: identities, admission, kubeconfigs, outage/restart, freeze/thaw, event
 * TTL, clean-up, and the ServiceAccount identities of the K3s backend (created here for real).
 */
@WithTestCluster(backend = TestClusterBackend.LOCAL)
class LocalControlPlaneIT {

	private static final Duration AWAIT = Duration.ofSeconds(60);

	@Test
	void adminCreatesNamespaceAndEvent(KubernetesTestCluster cluster) throws ApiException {
		CoreV1Api api = new CoreV1Api(cluster.adminClient());
		String ns = createNamespace(api);

		CoreV1Event created = api.createNamespacedEvent(ns, event(ns, "probe")).execute();

		assertThat(created.getMetadata().getName()).isEqualTo("probe");
		assertThat(created.getMetadata().getNamespace()).isEqualTo(ns);
		assertThat(created.getMetadata().getUid()).isNotBlank();
		assertThat(created.getReason()).isEqualTo("Probe");
		assertThat(created.getCount()).isEqualTo(1);
		CoreV1Event read = api.readNamespacedEvent("probe", ns).execute();
		assertThat(read.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
		assertThat(cluster.backend()).isEqualTo(TestClusterBackend.LOCAL);
		assertThat(cluster.supports(Capability.STOP_API_SERVER)).isTrue();
		System.out.println("[local-cp-it] shared control plane started in " + cluster.startupTime().toMillis() + " ms");
	}

	@Test
	void restrictedUserCanListButNotCreateEvents(KubernetesTestCluster cluster) throws ApiException {
		CoreV1Api admin = new CoreV1Api(cluster.adminClient());
		String ns = createNamespace(admin);
		admin.createNamespacedEvent(ns, event(ns, "by-admin")).execute();
		CoreV1Api restricted = new CoreV1Api(cluster.restrictedClient());

		ApiException denied = catchThrowableOfType(ApiException.class,
				() -> restricted.createNamespacedEvent(ns, event(ns, "by-restricted")).execute());

		assertThat(denied.getCode()).isEqualTo(403);
		V1Status status = JSON.deserialize(denied.getResponseBody(), V1Status.class);
		assertThat(status.getReason()).isEqualTo("Forbidden");
		assertThat(status.getMessage()).isEqualTo("events is forbidden: User \"" + cluster.restrictedUserName()
				+ "\" cannot create resource \"events\" in API group \"\" in the namespace \"" + ns + "\"");
		assertThat(cluster.restrictedUserName()).isEqualTo("restricted");

		CoreV1EventList list = restricted.listNamespacedEvent(ns).execute();
		assertThat(list.getItems()).extracting((e) -> e.getMetadata().getName()).containsExactly("by-admin");
		assertThat(restricted.listNode().execute().getItems()).isEmpty();
		ApiException noConfigMaps = catchThrowableOfType(ApiException.class,
				() -> restricted.listNamespacedConfigMap(ns).execute());
		assertThat(noConfigMaps.getCode()).isEqualTo(403);
	}

	@Test
	void unknownTokenIsUnauthorized(KubernetesTestCluster cluster) {
		CoreV1Api api = new CoreV1Api(cluster.client("not-a-valid-token"));

		ApiException e = catchThrowableOfType(ApiException.class, () -> api.listNamespace().execute());

		assertThat(e.getCode()).isEqualTo(401);
	}

	@Test
	void eventInMissingNamespaceIsNotFound(KubernetesTestCluster cluster) {
		CoreV1Api api = new CoreV1Api(cluster.adminClient());
		String ns = "missing-" + UUID.randomUUID().toString().substring(0, 8);

		ApiException e = catchThrowableOfType(ApiException.class,
				() -> api.createNamespacedEvent(ns, event(ns, "orphan")).execute());

		assertThat(e.getCode()).isEqualTo(404);
		V1Status status = JSON.deserialize(e.getResponseBody(), V1Status.class);
		assertThat(status.getReason()).isEqualTo("NotFound");
		assertThat(status.getMessage()).isEqualTo("namespaces \"" + ns + "\" not found");
	}

	@Test
	void deletedNamespaceStaysTerminating(KubernetesTestCluster cluster) throws ApiException {
		CoreV1Api api = new CoreV1Api(cluster.adminClient());
		String ns = createNamespace(api);

		api.deleteNamespace(ns).execute();

		assertThat(cluster.supports(Capability.NAMESPACES_STAY_TERMINATING)).isTrue();
		await().atMost(AWAIT).until(() -> {
			try {
				api.createNamespacedConfigMap(ns,
						new V1ConfigMap().metadata(new V1ObjectMeta().generateName("probe-").namespace(ns)))
					.execute();
				return false;
			}
			catch (ApiException ex) {
				return ex.getCode() == 403 && ex.getResponseBody().contains("NamespaceTerminating");
			}
		});
		assertThat(api.readNamespace(ns).execute().getStatus().getPhase()).isEqualTo("Terminating");
	}

	@Test
	void kubeconfigFilesWork(KubernetesTestCluster cluster, @TempDir Path dir) throws IOException, ApiException {
		Path adminConfig = cluster.writeKubeconfig(dir.resolve("admin.yaml"), Identity.ADMIN);
		Path restrictedConfig = cluster.writeKubeconfig(dir.resolve("nested/restricted.yaml"), Identity.RESTRICTED);

		CoreV1Api admin = new CoreV1Api(fromKubeconfig(adminConfig));
		CoreV1Api restricted = new CoreV1Api(fromKubeconfig(restrictedConfig));

		assertThat(admin.readNamespace("default").execute().getMetadata().getName()).isEqualTo("default");
		String ns = createNamespace(admin);
		assertThat(restricted.listNamespacedEvent(ns).execute().getItems()).isEmpty();
		ApiException e = catchThrowableOfType(ApiException.class,
				() -> restricted.createNamespacedEvent(ns, event(ns, "x")).execute());
		assertThat(e.getCode()).isEqualTo(403);
		assertThat(Files.readString(adminConfig)).isEqualTo(cluster.kubeconfig(Identity.ADMIN))
			.contains("server: " + cluster.baseUrl())
			.contains("token: \"" + cluster.adminToken() + "\"");
	}

	/**
	 * The K3s backend's identities (ServiceAccounts, RBAC, TokenRequests), created by the same code against this
	 * real API server: the only way to run that code without Docker.
	 */
	@Test
	void serviceAccountIdentitiesOfTheK3sBackendWork(KubernetesTestCluster cluster) throws ApiException {
		ApiClient admin = cluster.adminClient();
		String adminToken = ServiceAccountTokens.provisionAdmin(admin);
		String restrictedToken = ServiceAccountTokens.provisionRestricted(admin);
		RestrictedAccess.awaitEffective(cluster.client(restrictedToken), Waits.deadline(AWAIT));
		CoreV1Api asAdmin = new CoreV1Api(cluster.client(adminToken));
		CoreV1Api asRestricted = new CoreV1Api(cluster.client(restrictedToken));

		String ns = createNamespace(asAdmin);
		asAdmin.createNamespacedEvent(ns, event(ns, "by-sa-admin")).execute();
		ApiException denied = catchThrowableOfType(ApiException.class,
				() -> asRestricted.createNamespacedEvent(ns, event(ns, "by-sa-restricted")).execute());

		assertThat(asRestricted.listNamespacedEvent(ns).execute().getItems())
			.extracting((e) -> e.getMetadata().getName())
			.containsExactly("by-sa-admin");
		assertThat(denied.getCode()).isEqualTo(403);
		V1Status status = JSON.deserialize(denied.getResponseBody(), V1Status.class);
		assertThat(status.getMessage())
			.isEqualTo("events is forbidden: User \"system:serviceaccount:kube-system:kube-events-test-restricted\""
					+ " cannot create resource \"events\" in API group \"\" in the namespace \"" + ns + "\"");
		// provisioning again (a second K3s start against a reused container) is harmless and gives a new token
		assertThat(ServiceAccountTokens.provisionRestricted(admin)).isNotBlank().isNotEqualTo(restrictedToken);
	}

	@Test
	void separateInstanceHonoursEventTtlSurvivesRestartAndFreezeAndCleansUp() throws Exception {
		LocalControlPlane cp = LocalControlPlane.builder().eventTtl(Duration.ofSeconds(5)).start();
		List<ProcessHandle> processes;
		Path directory = cp.directory();
		List<Path> pidFiles;
		try {
			System.out.println("[local-cp-it] separate control plane started in " + cp.startupTime().toMillis() + " ms");
			assertThat(cp.eventTtl()).isEqualTo(Duration.ofSeconds(5));
			processes = cp.processes();
			assertThat(processes).hasSize(2).allMatch(ProcessHandle::isAlive);
			pidFiles = pidFiles(cp);
			assertThat(pidFiles).allSatisfy((f) -> assertThat(f).isRegularFile());
			CoreV1Api api = new CoreV1Api(cp.adminClient());
			String ns = createNamespace(api);

			// --event-ttl=5s: the event disappears on its own
			api.createNamespacedEvent(ns, event(ns, "short-lived")).execute();
			await().atMost(AWAIT).pollInterval(Duration.ofMillis(250)).until(() -> isGone(api, ns, "short-lived"));

			// freeze: connections are accepted, nothing answers; thaw: the same client works again
			ApiClient impatient = cp.adminClient();
			impatient.setHttpClient(impatient.getHttpClient().newBuilder().readTimeout(1, TimeUnit.SECONDS).build());
			CoreV1Api impatientApi = new CoreV1Api(impatient);
			cp.freezeApiServer();
			assertThat(cp.isApiServerFrozen()).isTrue();
			assertThat(cp.isApiServerRunning()).isTrue();
			ApiException frozen = catchThrowableOfType(ApiException.class,
					() -> impatientApi.readNamespace(ns).execute());
			assertThat(frozen.getCause()).isInstanceOf(SocketTimeoutException.class);
			cp.thawApiServer();
			assertThat(cp.isApiServerFrozen()).isFalse();
			assertThat(impatientApi.readNamespace(ns).execute().getMetadata().getName()).isEqualTo(ns);

			// stop: transport failure (code 0) on the same client
			String baseUrl = cp.baseUrl();
			cp.stopApiServer();
			assertThat(cp.isApiServerRunning()).isFalse();
			assertThat(processes.get(1).isAlive()).isFalse();
			assertThat(processes.get(0).isAlive()).isTrue();
			assertThat(pidFiles.get(1)).doesNotExist();
			ApiException down = catchThrowableOfType(ApiException.class, () -> api.readNamespace(ns).execute());
			assertThat(down.getCode()).isZero();
			assertThat(down.getCause()).isInstanceOf(IOException.class);

			// restart: same URL, data kept in etcd, the old client works again
			cp.startApiServer();
			System.out.println(
					"[local-cp-it] apiserver restarted in " + cp.lastApiServerStartupTime().toMillis() + " ms");
			assertThat(cp.baseUrl()).isEqualTo(baseUrl);
			assertThat(api.readNamespace(ns).execute().getMetadata().getName()).isEqualTo(ns);
			assertThat(api.createNamespacedEvent(ns, event(ns, "after-restart")).execute().getMetadata().getName())
				.isEqualTo("after-restart");
			ApiException stillDenied = catchThrowableOfType(ApiException.class,
					() -> new CoreV1Api(cp.restrictedClient()).createNamespacedEvent(ns, event(ns, "r")).execute());
			assertThat(stillDenied.getCode()).isEqualTo(403);
			processes = cp.processes();
			assertThat(processes).hasSize(2).allMatch(ProcessHandle::isAlive);
			pidFiles = pidFiles(cp);
			assertThat(pidFiles).allSatisfy((f) -> assertThat(f).isRegularFile());

			// a frozen control plane still closes
			cp.freezeApiServer();
		}
		finally {
			cp.close();
		}

		assertThat(processes).allSatisfy((p) -> {
			assertThat(p.isAlive()).as("pid %d alive", p.pid()).isFalse();
			assertThat(ProcessHandle.of(p.pid()).filter(ProcessHandle::isAlive)).isEmpty();
		});
		assertThat(Files.exists(directory)).as("%s exists", directory).isFalse();
		assertThat(pidFiles).allSatisfy((f) -> assertThat(f).doesNotExist());
		assertThat(cp.processes()).isEmpty();
		cp.close(); // idempotent
	}

	/**
	 * A frozen kube-apiserver that dies (SIGKILL from outside, as the OOM killer does) cannot be thawed: close() fails
	 * to stop it. It must still stop etcd and delete the directory and the pid files, then say what failed.
	 */
	@Test
	void closeStopsEtcdAndDeletesTheDirectoryWhenStoppingKubeApiserverFails() {
		LocalControlPlane cp = LocalControlPlane.builder().start();
		List<ProcessHandle> processes = cp.processes();
		Path directory = cp.directory();
		List<Path> pidFiles = pidFiles(cp);
		try {
			cp.freezeApiServer();
			ProcessHandle apiServer = processes.get(1);
			assertThat(apiServer.destroyForcibly()).isTrue();
			await().atMost(AWAIT).until(() -> !cp.isApiServerRunning());
			assertThat(cp.isApiServerFrozen()).as("still marked frozen").isTrue();

			Throwable failure = catchThrowable(cp::close);

			assertThat(failure).isInstanceOf(IllegalStateException.class)
				.hasMessage("closed the local control plane, but could not stop kube-apiserver (pid " + apiServer.pid()
						+ ", which had exited with code 137): kill -CONT " + apiServer.pid() + " failed: kill: ("
						+ apiServer.pid() + "): No such process");
			assertThat(processes.get(0).isAlive()).as("etcd pid %d alive", processes.get(0).pid()).isFalse();
			assertThat(directory).doesNotExist();
			assertThat(pidFiles).allSatisfy((f) -> assertThat(f).doesNotExist());
			assertThat(cp.processes()).isEmpty();
			assertThatNoException().as("closed once").isThrownBy(cp::close);
		}
		finally {
			processes.forEach(ProcessHandle::destroyForcibly);
		}
	}

	/**
	 * close() on an interrupted thread (a JUnit {@code @Timeout} or {@code assertTimeoutPreemptively} interrupts it)
	 * still waits for both processes to exit and deletes the directory; the interrupt stays set for the caller.
	 */
	@Test
	void closeOnAnInterruptedThreadStillStopsBothProcessesAndDeletesTheDirectory() {
		LocalControlPlane cp = LocalControlPlane.builder().start();
		List<ProcessHandle> processes = cp.processes();
		Path directory = cp.directory();
		try {
			Thread.currentThread().interrupt();
			Throwable failure = catchThrowable(cp::close);
			boolean stillInterrupted = Thread.interrupted();

			assertThat(failure).isNull();
			assertThat(stillInterrupted).as("interrupt kept").isTrue();
			assertThat(processes).allSatisfy((p) -> assertThat(p.isAlive()).as("pid %d alive", p.pid()).isFalse());
			assertThat(directory).doesNotExist();
		}
		finally {
			Thread.interrupted();
			processes.forEach(ProcessHandle::destroyForcibly);
		}
	}

	/** {@link KubernetesTestCluster#start} gives the caller a cluster of its own, apart from the shared one. */
	@Test
	void startGivesTheCallerANewCluster(KubernetesTestCluster shared) throws ApiException {
		List<ProcessHandle> processes;
		try (KubernetesTestCluster own = KubernetesTestCluster.start(TestClusterBackend.LOCAL)) {
			assertThat(own).isInstanceOf(LocalControlPlane.class).isNotSameAs(shared);
			assertThat(own.baseUrl()).isNotEqualTo(shared.baseUrl());
			assertThat(own.eventTtl()).isEqualTo(LocalControlPlane.DEFAULT_EVENT_TTL);
			assertThat(new CoreV1Api(own.adminClient()).readNamespace("default").execute().getMetadata().getName())
				.isEqualTo("default");
			processes = ((LocalControlPlane) own).processes();
		}
		assertThat(processes).hasSize(2).noneMatch(ProcessHandle::isAlive);
		assertThat(shared.isApiServerRunning()).isTrue();
	}

	/** Constructor and non-static {@code @BeforeAll} injection get the one shared instance. */
	@Nested
	@TestInstance(TestInstance.Lifecycle.PER_CLASS)
	class PerClassLifecycle {

		private final KubernetesTestCluster fromConstructor;

		private LocalControlPlane fromBeforeAll;

		PerClassLifecycle(KubernetesTestCluster cluster) {
			this.fromConstructor = cluster;
		}

		@BeforeAll
		void beforeAll(LocalControlPlane cp) {
			this.fromBeforeAll = cp;
		}

		@Test
		void sameSharedInstanceEverywhere(KubernetesTestCluster cluster) throws ApiException {
			assertThat(this.fromConstructor).isSameAs(cluster)
				.isSameAs(this.fromBeforeAll)
				.isSameAs(TestClusterExtension.sharedCluster());
			assertThat(cluster.eventTtl()).isEqualTo(LocalControlPlane.DEFAULT_EVENT_TTL);
			assertThat(new CoreV1Api(cluster.adminClient()).readNamespace("default").execute().getMetadata().getName())
				.isEqualTo("default");
		}

	}

	// ------------------------------------------------------------------------------------------------ helpers

	/** The pid files a running control plane should have: etcd's, then kube-apiserver's. */
	private static List<Path> pidFiles(LocalControlPlane cp) {
		List<ProcessHandle> processes = cp.processes();
		assertThat(processes).hasSize(2);
		return List.of(cp.stateDirectory().resolve("etcd-" + processes.get(0).pid() + ".pid"),
				cp.stateDirectory().resolve("kube-apiserver-" + processes.get(1).pid() + ".pid"));
	}

	private static boolean isGone(CoreV1Api api, String ns, String name) throws ApiException {
		try {
			api.readNamespacedEvent(name, ns).execute();
			return false;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return true;
			}
			throw ex;
		}
	}

	private static ApiClient fromKubeconfig(Path file) throws IOException {
		try (Reader reader = Files.newBufferedReader(file)) {
			return ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(reader)).build();
		}
	}

	static String createNamespace(CoreV1Api api) throws ApiException {
		String name = "it-" + UUID.randomUUID().toString().substring(0, 8);
		api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
		return name;
	}

	static CoreV1Event event(String ns, String name) {
		OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
		return new CoreV1Event().metadata(new V1ObjectMeta().name(name).namespace(ns))
			.involvedObject(new V1ObjectReference().apiVersion("v1").kind("ConfigMap").namespace(ns).name("cm-1"))
			.reason("Probe")
			.message("test cluster smoke test")
			.type("Normal")
			.count(1)
			.firstTimestamp(now)
			.lastTimestamp(now)
			.source(new V1EventSource().component("test-cluster-it"));
	}

}
