package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.LogCapture;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1BoundObjectReference;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1TokenRequestSpec;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Credential rotation against a real API server (issue #26 item 6): the starter's detected clients read their bearer
 * token again after a 401 and send the refused request once more, so no event is lost when the token is rotated.
 *
 * <p>The rotation is a real one: the recorder authenticates as a ServiceAccount with a bound token
 * (TokenRequest bound to a Secret); rotating means a new token bound to a new Secret written where the client reads
 * it, then the old Secret deleted, which invalidates the old token on the server (the test waits until the server
 * refuses it: kube-apiserver caches a successful token review for up to 10 s). kube-apiserver never reads its
 * {@code --token-auth-file} again, so the static tokens of the test cluster cannot be rotated without a restart.
 *
 * <p>Each scenario records events, rotates, records more with the old token refused, and checks that every event
 * after the rotation was written (none dropped) and that the token was read again once, whatever the number of
 * writer threads refused at once (four).
 */
@WithTestCluster
class CredentialRotationIT {

	private static final int BEFORE = 10;

	private static final int AFTER = 100;

	private static final String ACCOUNT = "rotating-recorder";

	@TempDir
	Path tmp;

	private KubernetesTestCluster cluster;

	private CoreV1Api admin;

	private String ns;

	private LogCapture log;

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
		this.log = LogCapture.of(RefreshingBearerToken.class, Level.INFO);
	}

	@AfterEach
	void tearDown() throws ApiException {
		this.log.close();
		this.admin.deleteNamespace(this.ns).execute();
	}

	/** The brief's scenario: a kubeconfig whose user has a {@code tokenFile}, found through {@code $KUBECONFIG}. */
	@Test
	void kubeconfigTokenFile() throws Exception {
		Path tokenFile = this.tmp.resolve("token");
		Path kubeconfig = kubeconfig("tokenFile: " + tokenFile);
		rotate(tokenFile, kubeconfigStarter(kubeconfig));
	}

	/** A kubeconfig whose user has an {@code exec} credential plugin (here one that prints the token file). */
	@Test
	void kubeconfigExecPlugin() throws Exception {
		Path tokenFile = this.tmp.resolve("token");
		Path plugin = Files.writeString(this.tmp.resolve("credential-plugin.sh"), """
				#!/bin/sh
				printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%%s"}}' "$(cat '%s')"
				""".formatted(tokenFile));
		Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwx------"));
		Path kubeconfig = kubeconfig("""
				exec:
				      apiVersion: client.authentication.k8s.io/v1
				      command: %s
				      interactiveMode: Never""".formatted(plugin));
		rotate(tokenFile, kubeconfigStarter(kubeconfig));
	}

	/**
	 * The in-cluster service account: {@code token} and {@code ca.crt} in the service account directory, the
	 * server at {@code $KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT}, found by the starter's detector.
	 */
	@Test
	void inClusterServiceAccountToken() throws Exception {
		Path serviceAccount = Files.createDirectories(this.tmp.resolve("serviceaccount"));
		Files.write(serviceAccount.resolve("ca.crt"), this.cluster.caCertificate());
		Path tokenFile = serviceAccount.resolve("token");
		URI server = URI.create(this.cluster.baseUrl());
		KubernetesConfigDetector detector = new KubernetesConfigDetector(Map.of("KUBERNETES_SERVICE_HOST",
				server.getHost(), "KUBERNETES_SERVICE_PORT", String.valueOf(server.getPort())), null, serviceAccount);
		ApplicationContextRunner starter = starter().withBean(KubeEventsConnectionDetails.class,
				() -> new DetectedKubeEventsConnectionDetails(() -> null, detector, false));
		rotate(tokenFile, starter);
	}

	/**
	 * A token revoked and not replaced: each refused write reads the file once, finds the same token, and is
	 * dropped as {@code rejected_by_server}, as every 401 was before; one WARN says why.
	 */
	@Test
	void revokedTokenNotReplacedIsARefusalAsBefore() throws Exception {
		Path tokenFile = this.tmp.resolve("token");
		Issued only = issue("only");
		writeAtomically(tokenFile, only.token());
		kubeconfigStarter(kubeconfig("tokenFile: " + tokenFile)).run((context) -> {
			assertThat(context).hasNotFailed();
			EventRecorder recorder = context.getBean(EventRecorder.class);
			recorder.event(pod("before"), EventType.NORMAL, "Started", "Recorded before the revocation");
			awaiting().until(() -> settled(context) == 1);

			this.admin.deleteNamespacedSecret(only.secret(), this.ns).execute();
			awaiting().until(() -> refused(only.token()));
			for (int i = 0; i < 3; i++) {
				recorder.event(pod("after-" + i), EventType.WARNING, "Revoked", "Recorded after the revocation #" + i);
			}
			awaiting().until(() -> settled(context) == 4);

			assertThat(stats(context)).isEqualTo(new RecorderStats.Writes(1, 0, 0, 3));
			assertThat(context.getBean(EventBroadcaster.class).snapshot(100).dropped())
				.containsEntry("rejected_by_server", 3L);
			assertThat(this.log.messages(Level.INFO)).isEmpty();
			assertThat(this.log.warnings()).singleElement()
				.asString()
				.endsWith(" still gives the same token; requests keep failing until it changes");
		});
	}

	/**
	 * Records {@link #BEFORE} events with the first token, rotates, records {@link #AFTER} events once the server
	 * refuses the first token, and checks that every one was written.
	 */
	private void rotate(Path tokenFile, ApplicationContextRunner starter) throws Exception {
		Issued first = issue("first");
		writeAtomically(tokenFile, first.token());
		starter.run((context) -> {
			assertThat(context).hasNotFailed();
			EventRecorder recorder = context.getBean(EventRecorder.class);
			for (int i = 0; i < BEFORE; i++) {
				recorder.event(pod("before-" + i), EventType.NORMAL, "Started", "Recorded before the rotation #" + i);
			}
			awaiting().until(() -> settled(context) == BEFORE);
			assertThat(stats(context).created()).isEqualTo(BEFORE);

			Issued second = issue("second");
			writeAtomically(tokenFile, second.token());
			this.admin.deleteNamespacedSecret(first.secret(), this.ns).execute();
			long rotated = System.nanoTime();
			awaiting().until(() -> refused(first.token()));
			long refused = System.nanoTime();

			for (int i = 0; i < AFTER; i++) {
				recorder.event(pod("after-" + i), EventType.WARNING, "Rotated", "Recorded after the rotation #" + i);
			}
			awaiting().until(() -> settled(context) == BEFORE + AFTER);
			long written = System.nanoTime();

			RecorderSnapshot snapshot = context.getBean(EventBroadcaster.class).snapshot(100);
			long dropped = snapshot.dropped().values().stream().mapToLong(Long::longValue).sum();
			System.err.println("[rotation-it] " + context.getBean(KubeEventsConnectionDetails.class).description()
					+ ": old token refused " + (refused - rotated) / 1_000_000 + " ms after its Secret was deleted; "
					+ AFTER + " events after the rotation: " + (stats(context).created() - BEFORE) + " written, "
					+ dropped + " dropped, in " + (written - refused) / 1_000_000 + " ms; stats " + stats(context)
					+ ", drops " + snapshot.dropped() + ", log " + this.log.lines().size() + " lines");

			assertThat(snapshot.dropped()).allSatisfy((reason, count) -> assertThat(count).as(reason).isZero());
			assertThat(stats(context)).isEqualTo(new RecorderStats.Writes(BEFORE + AFTER, 0, 0, 0));
			List<String> stored = new ArrayList<>();
			for (CoreV1Event event : this.admin.listNamespacedEvent(this.ns).execute().getItems()) {
				stored.add(event.getInvolvedObject().getName());
			}
			assertThat(stored).hasSize(BEFORE + AFTER).contains("before-0", "after-0", "after-" + (AFTER - 1));
			// the four writers refused at once read the token once, and said so once
			assertThat(this.log.messages(Level.INFO)).singleElement()
				.asString()
				.startsWith("The Kubernetes API server refused the bearer token (HTTP 401): read a new token from ");
			assertThat(this.log.warnings()).isEmpty();
		});
	}

	private ApplicationContextRunner kubeconfigStarter(Path kubeconfig) {
		return starter().withPropertyValues("KUBECONFIG=" + kubeconfig, "kubeevents.kubeconfig.enabled=true");
	}

	private ApplicationContextRunner starter() {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withPropertyValues("KUBECONFIG=", "KUBERNETES_SERVICE_HOST=", "KUBERNETES_SERVICE_PORT=",
					"HOME=" + this.tmp.resolve("empty-home"), "POD_NAMESPACE=" + this.ns, "kubeevents.sink.mode=kubernetes",
					"kubeevents.sink.api=core/v1", "kubeevents.component=rotation-it", "kubeevents.host=it-host-1",
					"kubeevents.log-events=false");
	}

	private Path kubeconfig(String user) throws IOException {
		return Files.writeString(this.tmp.resolve("kubeconfig"), """
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
				    %s
				""".formatted(this.cluster.baseUrl(), Base64.getEncoder().encodeToString(this.cluster.caCertificate()),
				this.ns, user));
	}

	/** A token of the ServiceAccount, bound to a new Secret: deleting the Secret invalidates the token. */
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

	/** Whether the server refuses {@code token} (401). */
	private boolean refused(String token) {
		ApiClient client = this.cluster.client(token);
		try {
			new CoreV1Api(client).listNamespacedEvent(this.ns).limit(1).execute();
			return false;
		}
		catch (ApiException ex) {
			if (ex.getCode() == 401) {
				return true;
			}
			throw new AssertionError("unexpected answer " + ex.getCode() + ": " + ex.getResponseBody(), ex);
		}
	}

	/** Replaces the file's content at once, as the kubelet does (a reader never sees it half written). */
	private static void writeAtomically(Path file, String content) throws IOException {
		Path next = file.resolveSibling(file.getFileName() + ".next");
		Files.writeString(next, content);
		Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
	}

	private InvolvedObject pod(String name) {
		return InvolvedObject.of("Pod", "v1", this.ns, name).withUid("uid-" + name);
	}

	private static RecorderStats.Writes stats(ApplicationContext context) {
		List<RecorderSnapshot.SinkSnapshot> sinks = context.getBean(EventBroadcaster.class).snapshot(100).sinks();
		assertThat(sinks).hasSize(1);
		return sinks.get(0).stats();
	}

	/** Events written or dropped so far. */
	private static long settled(ApplicationContext context) {
		RecorderSnapshot snapshot = context.getBean(EventBroadcaster.class).snapshot(100);
		long dropped = snapshot.dropped().values().stream().mapToLong(Long::longValue).sum();
		return stats(context).created() + dropped;
	}

	private static ConditionFactory awaiting() {
		return await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100));
	}

	private record Issued(String secret, String token) {
	}

}
