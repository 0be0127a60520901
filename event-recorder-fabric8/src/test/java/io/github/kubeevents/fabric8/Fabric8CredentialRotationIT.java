package io.github.kubeevents.fabric8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1BoundObjectReference;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1TokenRequestSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Credential rotation through a fabric8 client (issue #26 item 6). The recorder leaves the credentials to fabric8:
 * its {@code TokenRefreshInterceptor} answers a 401 by loading the kubeconfig again ({@code Config.refresh()},
 * which runs an {@code exec} plugin again, once per refused request) and repeating the request once, also on the
 * client the recorder derives without fabric8's retries; and it loads the kubeconfig again before a request a
 * minute after the last load. fabric8 8.0 ignores a kubeconfig's {@code tokenFile}, so the token comes from an exec
 * plugin that prints a token file. The rotation is the one of the starter's {@code CredentialRotationIT}: a
 * ServiceAccount token bound to a Secret, a new one written, the old Secret deleted, the old token refused.
 *
 * <p>Over HTTP/2 (fabric8's default with the JDK client) kube-apiserver 1.29+ ends the connection of an
 * unauthenticated request with a GOAWAY, which the JDK 17 HttpClient reports as an I/O failure ("GOAWAY
 * received") instead of the 401: fabric8 never refreshes on it, the recorder retries the writes as transport
 * failures, and they get through once fabric8's minute has passed. Within the default retry budget (12 attempts, 10
 * s apart) nothing is lost, but the writes wait up to a minute.
 */
@WithTestCluster
class Fabric8CredentialRotationIT {

	private static final int BEFORE = 10;

	private static final int AFTER = 100;

	private static final String ACCOUNT = "rotating-recorder";

	@TempDir
	Path tmp;

	private KubernetesTestCluster cluster;

	private CoreV1Api admin;

	private String ns;

	private EventBroadcaster broadcaster;

	private KubernetesClient client;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws ApiException {
		this.cluster = cluster;
		this.admin = new CoreV1Api(cluster.adminClient());
		this.ns = "it-rot-" + UUID.randomUUID().toString().substring(0, 8);
		this.admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(this.ns))).execute();
		this.admin.createNamespacedServiceAccount(this.ns,
				new V1ServiceAccount().metadata(new V1ObjectMeta().name(ACCOUNT))).execute();
		new RbacAuthorizationV1Api(cluster.adminClient()).createNamespacedRoleBinding(this.ns, new V1RoleBinding()
			.metadata(new V1ObjectMeta().name(ACCOUNT))
			.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("ClusterRole").name("cluster-admin"))
			.addSubjectsItem(new RbacV1Subject().kind("ServiceAccount").name(ACCOUNT).namespace(this.ns)))
			.execute();
	}

	@AfterEach
	void tearDown() throws ApiException {
		if (this.broadcaster != null) {
			this.broadcaster.shutdown(Duration.ofSeconds(5));
		}
		if (this.client != null) {
			this.client.close();
		}
		this.admin.deleteNamespace(this.ns).execute();
	}

	/** HTTP/1.1: fabric8 sees the 401, runs the plugin again and repeats the request; no write is retried. */
	@Test
	void http11A401RunsThePluginAgainAndRepeatsTheRequest() throws Exception {
		Rotation rotation = rotate(true);
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
		assertThat(writes()).isEqualTo(new RecorderStats.Writes(BEFORE + AFTER, 0, 0, 0));
		// fabric8 has no single flight: each writer refused at once runs the plugin (4 writers)
		assertThat(rotation.pluginRunsAfter()).isBetween(1L, 4L);
	}

	/**
	 * HTTP/2, the default: the 401 arrives as a GOAWAY transport failure, retried by the recorder until fabric8
	 * loads the kubeconfig again (a minute after the last load). Nothing is lost within the default retry budget.
	 */
	@Test
	void http2NothingIsLostWithinTheDefaultRetryBudget() throws Exception {
		rotate(false);
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
		assertThat(writes().created()).isEqualTo(BEFORE + AFTER);
		assertThat(writes().failed()).isZero();
	}

	private Rotation rotate(boolean http2Disable) throws Exception {
		Path tokenFile = this.tmp.resolve("token");
		Path runs = this.tmp.resolve("runs");
		Path plugin = Files.writeString(this.tmp.resolve("credential-plugin.sh"), """
				#!/bin/sh
				echo run >> '%s'
				printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%%s"}}' "$(cat '%s')"
				""".formatted(runs, tokenFile));
		Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwx------"));
		Path kubeconfig = Files.writeString(this.tmp.resolve("kubeconfig"), """
				apiVersion: v1
				kind: Config
				clusters:
				- name: test
				  cluster:
				    server: %s
				    certificate-authority-data: %s
				contexts:
				- name: test
				  context:
				    cluster: test
				    user: test
				    namespace: %s
				current-context: test
				users:
				- name: test
				  user:
				    exec:
				      apiVersion: client.authentication.k8s.io/v1
				      command: %s
				      interactiveMode: Never
				""".formatted(this.cluster.baseUrl(), Base64.getEncoder().encodeToString(this.cluster.caCertificate()),
				this.ns, plugin));
		Issued first = issue("first");
		writeAtomically(tokenFile, first.token());
		Config config = Config.fromKubeconfig(kubeconfig.toFile());
		config.setHttp2Disable(http2Disable);
		this.client = Fabric8TestClients.builder().withConfig(config).build();
		this.broadcaster = EventBroadcaster.builder().eventsApi(EventsApi.CORE_V1).accessCheckNamespace(this.ns).build();
		this.broadcaster.startRecordingTo(Fabric8EventsClient.of(this.client));
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(new EventSource("it-recorder", "it-host-1"));
		for (int i = 0; i < BEFORE; i++) {
			recorder.about(pod("before-" + i)).normal("Started", "Recorded before the rotation #" + i);
		}
		awaiting().until(() -> settled() == BEFORE);
		long runsBefore = Files.readAllLines(runs).size();

		Issued second = issue("second");
		writeAtomically(tokenFile, second.token());
		this.admin.deleteNamespacedSecret(first.secret(), this.ns).execute();
		awaiting().until(() -> refused(first.token()));
		long refused = System.nanoTime();
		for (int i = 0; i < AFTER; i++) {
			recorder.about(pod("after-" + i)).warning("Rotated", "Recorded after the rotation #" + i);
		}
		awaiting().atMost(Duration.ofSeconds(120)).until(() -> settled() == BEFORE + AFTER);
		long written = System.nanoTime();

		long runsAfter = Files.readAllLines(runs).size() - runsBefore;
		System.err.println("[fabric8-rotation-it] " + (http2Disable ? "HTTP/1.1" : "HTTP/2") + ": " + AFTER
				+ " events after the rotation: " + (writes().created() - BEFORE) + " written, "
				+ this.broadcaster.stats().totalDropped() + " dropped, in " + (written - refused) / 1_000_000
				+ " ms; stats " + writes() + "; exec plugin runs: " + runsBefore + " before the rotation, " + runsAfter
				+ " after");
		assertThat(this.admin.listNamespacedEvent(this.ns).execute().getItems()).hasSize(BEFORE + AFTER);
		return new Rotation(runsAfter);
	}

	private InvolvedObject pod(String name) {
		return new InvolvedObject("Pod", "v1", this.ns, name, "uid-" + name, null, null);
	}

	private RecorderStats.Writes writes() {
		return this.broadcaster.snapshot(10).sinks().get(0).stats();
	}

	private long settled() {
		return writes().created() + this.broadcaster.stats().totalDropped();
	}

	private Issued issue(String name) throws ApiException {
		V1Secret secret = this.admin
			.createNamespacedSecret(this.ns, new V1Secret().metadata(new V1ObjectMeta().name(name)))
			.execute();
		AuthenticationV1TokenRequest answer = this.admin
			.createNamespacedServiceAccountToken(ACCOUNT, this.ns,
					new AuthenticationV1TokenRequest().spec(new V1TokenRequestSpec().expirationSeconds(3600L)
						.boundObjectRef(new V1BoundObjectReference().apiVersion("v1")
							.kind("Secret")
							.name(name)
							.uid(secret.getMetadata().getUid()))))
			.execute();
		return new Issued(name, answer.getStatus().getToken());
	}

	private boolean refused(String token) {
		try {
			new CoreV1Api(this.cluster.client(token)).listNamespacedEvent(this.ns).limit(1).execute();
			return false;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 401) {
				return true;
			}
			throw new AssertionError("unexpected answer " + ex.getCode() + ": " + ex.getResponseBody(), ex);
		}
	}

	private static void writeAtomically(Path file, String content) throws IOException {
		Path next = file.resolveSibling(file.getFileName() + ".next");
		Files.writeString(next, content);
		Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
	}

	private static org.awaitility.core.ConditionFactory awaiting() {
		return await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100));
	}

	private record Issued(String secret, String token) {
	}

	private record Rotation(long pluginRunsAfter) {
	}

}
