package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.SeriesPatch;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ClusterResolver}: the modes, the precedence of the application's beans over detection, and the
 * off-cluster rule of {@code auto} (a developer's kubeconfig is used only when asked).
 */
class ClusterResolverTests {

	private static final String NOT_IN_KUBERNETES = "not running in Kubernetes; a kubeconfig is used only with"
			+ " kubeevents.kubeconfig.enabled=true or kubeevents.sink.mode=kubernetes";

	@TempDir
	Path tmp;

	private final List<ApiClient> clients = new ArrayList<>();

	/** The resolver, with the clients it chose recorded in {@link #clients}. */
	private Resolver resolver(KubernetesConfigDetector detector) {
		ClusterResolver resolver = new ClusterResolver(detector);
		return (mode, logEvents, kubeconfig, sink, details, client) -> {
			KubeEventsStatus status = resolver.resolve(mode, logEvents, kubeconfig,
					(sink != null) ? new ClusterResolver.UserSinks(sink, null, EventsApi.AUTO)
							: ClusterResolver.UserSinks.NONE,
					details, client);
			if (status.target() instanceof SinkTarget.Client target) {
				this.clients.add(target.client());
			}
			return status;
		};
	}

	@FunctionalInterface
	private interface Resolver {

		KubeEventsStatus resolve(String mode, boolean logEvents, boolean kubeconfigEnabled, EventSink sink,
				KubeEventsConnectionDetails details, ApiClient client);

	}

	private SinkTarget chosenClient() {
		return new SinkTarget.Client(this.clients.get(0));
	}

	private static ApiClient client(String basePath) {
		return new ClientBuilder().setBasePath(basePath).build();
	}

	private static KubeEventsConnectionDetails connectionDetails(String basePath) {
		ApiClient client = client(basePath);
		return new KubeEventsConnectionDetails() {

			@Override
			public ApiClient apiClient() {
				return client;
			}

			@Override
			public String description() {
				return "K3sContainer rancher/k3s:test";
			}

		};
	}

	@Test
	void noneNeitherWritesNorLogsWhateverTheApplicationProvides() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, true)).resolve("none", true, true,
				new InMemoryEventSink(), connectionDetails("http://details:1"), client("http://client:1"));
		assertThat(status)
			.isEqualTo(new KubeEventsStatus("none", EffectiveSink.NONE, "kubeevents.sink.mode=none", null, false, null));
		assertThat(this.clients).isEmpty();
	}

	@Test
	void logOnlyLogsWhateverTheApplicationProvides() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, true)).resolve("log", false, true,
				new InMemoryEventSink(), connectionDetails("http://details:1"), client("http://client:1"));
		assertThat(status)
			.isEqualTo(new KubeEventsStatus("log", EffectiveSink.LOG, "kubeevents.sink.mode=log", null, true, null));
		assertThat(this.clients).isEmpty();
	}

	// The off-cluster rule of sink=auto

	@Test
	void autoOnADeveloperMachineOnlyLogsAndSaysWhy() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.developerMachine(this.tmp)).resolve("auto", false, false, null,
				null, null);
		assertThat(status)
			.isEqualTo(new KubeEventsStatus("auto", EffectiveSink.LOG, NOT_IN_KUBERNETES, null, true, null));
		assertThat(this.clients).isEmpty();
	}

	@Test
	void autoOnADeveloperMachineWritesToTheKubeconfigEnvWhenKubeconfigIsEnabled() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.developerMachine(this.tmp)).resolve("auto", false, true, null,
				null, null);
		assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
		assertThat(status.reason())
			.isEqualTo("kubeconfig " + this.tmp.resolve("env/kubeconfig") + " (from $KUBECONFIG)");
		assertThat(status.apiServer()).isEqualTo("http://env.example:6443");
		assertThat(status.logEvents()).isFalse();
		assertThat(status.target()).isEqualTo(chosenClient());
	}

	@Test
	void autoWithKubeconfigEnabledFallsBackToTheHomeKubeconfig() throws IOException {
		Path home = this.tmp.resolve("home");
		Path config = TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home.example:6443");
		KubeEventsStatus status = resolver(new KubernetesConfigDetector(Map.of(), home, this.tmp.resolve("sa")))
			.resolve("auto", true, true, null, null, null);
		assertThat(status).isEqualTo(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES, "kubeconfig " + config,
				"http://home.example:6443", true, chosenClient()));
	}

	@Test
	void autoInAPodWritesWithTheServiceAccount() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, false)).resolve("auto", true, false, null,
				null, null);
		assertThat(status).isEqualTo(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES,
				"in-cluster service account " + this.tmp.resolve("sa"), "https://10.0.0.1:443", true,
				chosenClient()));
	}

	@Test
	void autoInAPodIgnoresKubeconfigsUnlessEnabled() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, true)).resolve("auto", true, false, null, null,
				null);
		assertThat(status.reason()).isEqualTo("in-cluster service account " + this.tmp.resolve("sa"));
		assertThat(status.apiServer()).isEqualTo("https://10.0.0.1:443");
	}

	@Test
	void autoInAPodPrefersTheKubeconfigEnvWhenEnabledAsControllerRuntimeDoes() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, true)).resolve("auto", true, true, null, null,
				null);
		assertThat(status.apiServer()).isEqualTo("http://env.example:6443");
	}

	@Test
	void autoInAPodWithoutServiceAccountCredentialsOnlyLogsAndSaysWhy() throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		Files.delete(serviceAccount.resolve("token"));
		KubeEventsStatus status = resolver(
				new KubernetesConfigDetector(TestClusters.IN_CLUSTER_ENV, null, serviceAccount))
			.resolve("auto", true, false, null, null, null);
		assertThat(status).isEqualTo(new KubeEventsStatus("auto", EffectiveSink.LOG,
				"no service account credentials in in-cluster service account (" + serviceAccount + ")", null, true,
				null));
	}

	@Test
	void autoWithAnUnreadableKubeconfigOnlyLogsAndSaysWhy() throws IOException {
		Path home = this.tmp.resolve("home");
		Files.createDirectories(home.resolve(".kube"));
		Path config = Files.writeString(home.resolve(".kube/config"), "apiVersion: v1\nkind: Config\n");
		KubeEventsStatus status = resolver(new KubernetesConfigDetector(Map.of(), home, this.tmp.resolve("sa")))
			.resolve("auto", false, true, null, null, null);
		assertThat(status).isEqualTo(new KubeEventsStatus("auto", EffectiveSink.LOG,
				"kubeconfig " + config + " could not be loaded: No server in kubeconfig", null, true, null));
	}

	// sink=kubernetes

	@Test
	void kubernetesUsesADevelopersKubeconfigWithoutBeingAsked() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.developerMachine(this.tmp)).resolve("kubernetes", true, false,
				null, null, null);
		assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
		assertThat(status.configured()).isEqualTo("kubernetes");
		assertThat(status.apiServer()).isEqualTo("http://env.example:6443");
	}

	@Test
	void kubernetesWithoutClusterFailsNamingWhereItLooked() {
		KubernetesConfigDetector detector = TestClusters.noCluster(this.tmp);
		assertThatExceptionOfType(NoKubernetesClusterException.class)
			.isThrownBy(() -> resolver(detector).resolve("kubernetes", true, false, null, null, null))
			.withMessage("no Kubernetes configuration was found")
			.satisfies((ex) -> assertThat(ex.searched()).isEqualTo(detector.describeSearch(true)));
	}

	@Test
	void kubernetesWithAnUnreadableKubeconfigFails() throws IOException {
		Path home = this.tmp.resolve("home");
		Files.createDirectories(home.resolve(".kube"));
		Path config = Files.writeString(home.resolve(".kube/config"), "apiVersion: v1\nkind: Config\n");
		assertThatExceptionOfType(NoKubernetesClusterException.class)
			.isThrownBy(() -> resolver(new KubernetesConfigDetector(Map.of(), home, this.tmp.resolve("sa")))
				.resolve("kubernetes", true, false, null, null, null))
			.withMessage("the configuration kubeconfig " + config + " could not be loaded: No server in kubeconfig")
			.withCauseInstanceOf(IOException.class);
	}

	// Precedence: EventSink bean > KubeEventsConnectionDetails bean > ApiClient bean > detection

	@Test
	void eventSinkBeanWinsOverEverything() throws IOException {
		InMemoryEventSink sink = new InMemoryEventSink();
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, true)).resolve("auto", true, true, sink,
				connectionDetails("http://details:1"), client("http://client:1"));
		assertThat(status)
			.isEqualTo(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES, "EventSink bean", null, true, new SinkTarget.CoreV1(sink)));
		assertThat(this.clients).isEmpty();
	}

	@Test
	void eventsV1SinkBeanWinsUnlessCoreV1IsConfigured() {
		InMemoryEventSink coreV1 = new InMemoryEventSink();
		EventsV1Sink eventsV1 = new EventsV1Sink() {

			@Override
			public EventsV1Event create(EventsV1Event event) {
				return event;
			}

			@Override
			public EventsV1Event patch(EventsV1Event event, SeriesPatch patch) {
				return event;
			}

		};
		ClusterResolver resolver = new ClusterResolver(TestClusters.noCluster(this.tmp));
		for (EventsApi api : List.of(EventsApi.AUTO, EventsApi.EVENTS_V1)) {
			assertThat(resolver.resolve("kubernetes", true, false, new ClusterResolver.UserSinks(coreV1, eventsV1, api),
					null, null))
				.isEqualTo(new KubeEventsStatus("kubernetes", EffectiveSink.KUBERNETES, "EventsV1Sink bean", null, true,
						new SinkTarget.EventsV1(eventsV1)));
		}
		assertThat(resolver.resolve("kubernetes", true, false,
				new ClusterResolver.UserSinks(coreV1, eventsV1, EventsApi.CORE_V1), null, null).target())
			.isEqualTo(new SinkTarget.CoreV1(coreV1));
		assertThat(resolver.resolve("kubernetes", true, false,
				new ClusterResolver.UserSinks(null, eventsV1, EventsApi.CORE_V1), null, null).target())
			.isEqualTo(new SinkTarget.EventsV1(eventsV1));
	}

	@Test
	void connectionDetailsWinOverTheApiClientAndDetection() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, true)).resolve("auto", true, true, null,
				connectionDetails("http://details:1"), client("http://client:1"));
		assertThat(status).isEqualTo(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES,
				"connection details: K3sContainer rancher/k3s:test", "http://details:1", true, chosenClient()));
		assertThat(this.clients).extracting(ApiClient::getBasePath).containsExactly("http://details:1");
	}

	@Test
	void connectionDetailsDescribeThemselvesByClassNameByDefault() {
		ApiClient client = client("http://details:1");
		KubeEventsConnectionDetails details = () -> client;
		KubeEventsStatus status = resolver(TestClusters.noCluster(this.tmp)).resolve("kubernetes", true, false, null,
				details, null);
		assertThat(status.reason()).isEqualTo("connection details: " + details.getClass().getSimpleName());
	}

	@Test
	void apiClientBeanWinsOverDetection() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, true)).resolve("auto", true, true, null, null,
				client("http://client:1"));
		assertThat(status).isEqualTo(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES, "ApiClient bean",
				"http://client:1", true, chosenClient()));
		assertThat(this.clients).extracting(ApiClient::getBasePath).containsExactly("http://client:1");
	}

	@Test
	void apiClientBeanIsUsedOffClusterWithoutKubeconfigEnabled() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.developerMachine(this.tmp)).resolve("auto", true, false, null,
				null, client("http://client:1"));
		assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
		assertThat(status.apiServer()).isEqualTo("http://client:1");
	}

	@Test
	void kubernetesNeedsNoClusterConfigurationWithAnApiClientBean() {
		KubeEventsStatus status = resolver(TestClusters.noCluster(this.tmp)).resolve("kubernetes", false, false, null,
				null, client("http://client:1"));
		assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
		assertThat(status.logEvents()).isFalse();
	}

}
