package io.github.kubeevents.autoconfigure.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.spring.EffectiveSink;
import io.github.kubeevents.spring.KubeEventsStatus;
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
			+ " kubeevents.kubeconfig.enabled=true or kubeevents.sink=kubernetes";

	@TempDir
	Path tmp;

	private final List<ApiClient> clients = new ArrayList<>();

	private final List<EventSink> builtSinks = new ArrayList<>();

	private ClusterResolver resolver(KubernetesConfigDetector detector) {
		return new ClusterResolver(detector, (client) -> {
			this.clients.add(client);
			EventSink sink = new InMemoryEventSink();
			this.builtSinks.add(sink);
			return sink;
		});
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
			.isEqualTo(new KubeEventsStatus("none", EffectiveSink.NONE, "kubeevents.sink=none", null, false, null));
		assertThat(this.clients).isEmpty();
	}

	@Test
	void logOnlyLogsWhateverTheApplicationProvides() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, true)).resolve("log", false, true,
				new InMemoryEventSink(), connectionDetails("http://details:1"), client("http://client:1"));
		assertThat(status)
			.isEqualTo(new KubeEventsStatus("log", EffectiveSink.LOG, "kubeevents.sink=log", null, true, null));
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
		assertThat(status.eventSink()).isSameAs(this.builtSinks.get(0));
	}

	@Test
	void autoWithKubeconfigEnabledFallsBackToTheHomeKubeconfig() throws IOException {
		Path home = this.tmp.resolve("home");
		Path config = TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home.example:6443");
		KubeEventsStatus status = resolver(new KubernetesConfigDetector(Map.of(), home, this.tmp.resolve("sa")))
			.resolve("auto", true, true, null, null, null);
		assertThat(status).isEqualTo(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES, "kubeconfig " + config,
				"http://home.example:6443", true, this.builtSinks.get(0)));
	}

	@Test
	void autoInAPodWritesWithTheServiceAccount() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, false)).resolve("auto", true, false, null,
				null, null);
		assertThat(status).isEqualTo(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES,
				"in-cluster service account " + this.tmp.resolve("sa"), "https://10.0.0.1:443", true,
				this.builtSinks.get(0)));
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
			.isEqualTo(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES, "EventSink bean", null, true, sink));
		assertThat(this.clients).isEmpty();
	}

	@Test
	void connectionDetailsWinOverTheApiClientAndDetection() throws IOException {
		KubeEventsStatus status = resolver(TestClusters.inPod(this.tmp, true)).resolve("auto", true, true, null,
				connectionDetails("http://details:1"), client("http://client:1"));
		assertThat(status).isEqualTo(new KubeEventsStatus("auto", EffectiveSink.KUBERNETES,
				"connection details: K3sContainer rancher/k3s:test", "http://details:1", true, this.builtSinks.get(0)));
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
				"http://client:1", true, this.builtSinks.get(0)));
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
