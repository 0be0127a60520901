package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.testsupport.TestClusters;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link DetectedKubeEventsConnectionDetails}: the precedence of the application's client over detection,
 * the off-cluster rule (a developer's kubeconfig is used only when allowed), and what it says when it finds nothing.
 */
class DetectedKubeEventsConnectionDetailsTests {

	private static final String NOT_IN_KUBERNETES = "not running in Kubernetes; a kubeconfig is used only with"
			+ " kubeevents.kubeconfig.enabled=true or kubeevents.sink.mode=kubernetes";

	@TempDir
	Path tmp;

	private static DetectedKubeEventsConnectionDetails details(KubernetesConfigDetector detector,
			boolean kubeconfigAllowed) {
		return new DetectedKubeEventsConnectionDetails(() -> null, detector, kubeconfigAllowed);
	}

	private static ApiClient client(String basePath) {
		return new ClientBuilder().setBasePath(basePath).build();
	}

	@Test
	void applicationClientWinsOverDetection() throws IOException {
		ApiClient mine = client("http://client:1");
		DetectedKubeEventsConnectionDetails details = new DetectedKubeEventsConnectionDetails(() -> mine,
				Machines.inPod(this.tmp, true), true);
		assertThat(details.apiClient()).isSameAs(mine);
		assertThat(details.description()).isEqualTo("ApiClient bean");
	}

	@Test
	void applicationClientIsUsedOffClusterWithoutKubeconfigsAllowed() throws IOException {
		ApiClient mine = client("http://client:1");
		assertThat(new DetectedKubeEventsConnectionDetails(() -> mine, Machines.developerMachine(this.tmp), false)
			.apiClient()).isSameAs(mine);
	}

	@Test
	void inAPodTheServiceAccountIsUsed() throws IOException {
		DetectedKubeEventsConnectionDetails details = details(Machines.inPod(this.tmp, false), false);
		assertThat(details.apiClient().getBasePath()).isEqualTo("https://10.0.0.1:443");
		assertThat(details.description()).isEqualTo("in-cluster service account " + this.tmp.resolve("sa"));
	}

	@Test
	void inAPodKubeconfigsAreIgnoredUnlessAllowed() throws IOException {
		DetectedKubeEventsConnectionDetails details = details(Machines.inPod(this.tmp, true), false);
		assertThat(details.apiClient().getBasePath()).isEqualTo("https://10.0.0.1:443");
	}

	@Test
	void inAPodTheKubeconfigEnvWinsWhenAllowedAsInControllerRuntime() throws IOException {
		assertThat(details(Machines.inPod(this.tmp, true), true).apiClient().getBasePath())
			.isEqualTo("http://env.example:6443");
	}

	@Test
	void onADeveloperMachineTheKubeconfigEnvIsUsedWhenAllowed() throws IOException {
		DetectedKubeEventsConnectionDetails details = details(Machines.developerMachine(this.tmp), true);
		assertThat(details.apiClient().getBasePath()).isEqualTo("http://env.example:6443");
		assertThat(details.description())
			.isEqualTo("kubeconfig " + this.tmp.resolve("env/kubeconfig") + " (from $KUBECONFIG)");
	}

	@Test
	void theHomeKubeconfigIsTheLastResortWhenAllowed() throws IOException {
		Path home = this.tmp.resolve("home");
		Path config = TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home.example:6443");
		DetectedKubeEventsConnectionDetails details = details(
				new KubernetesConfigDetector(Map.of(), home, this.tmp.resolve("sa")), true);
		assertThat(details.apiClient().getBasePath()).isEqualTo("http://home.example:6443");
		assertThat(details.description()).isEqualTo("kubeconfig " + config);
	}

	@Test
	void onADeveloperMachineNothingIsUsedUnlessKubeconfigsAreAllowed() throws IOException {
		KubernetesConfigDetector detector = Machines.developerMachine(this.tmp);
		DetectedKubeEventsConnectionDetails details = details(detector, false);
		assertThatExceptionOfType(NoKubernetesClusterException.class).isThrownBy(details::apiClient)
			.withMessage("no Kubernetes configuration was found")
			.satisfies((ex) -> {
				assertThat(ex.searched()).isEqualTo(detector.describeSearch(false));
				assertThat(ex.logOnlyReason()).isEqualTo(NOT_IN_KUBERNETES);
			});
		assertThat(details.description()).isEqualTo(NOT_IN_KUBERNETES);
	}

	@Test
	void withoutAnyConfigurationItSaysWhereItLooked() {
		KubernetesConfigDetector detector = Machines.noCluster(this.tmp);
		assertThatExceptionOfType(NoKubernetesClusterException.class)
			.isThrownBy(() -> details(detector, true).apiClient())
			.withMessage("no Kubernetes configuration was found")
			.satisfies((ex) -> assertThat(ex.searched()).isEqualTo(detector.describeSearch(true)));
	}

	@Test
	void inAPodWithoutServiceAccountCredentialsItSaysSo() throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		Files.delete(serviceAccount.resolve("token"));
		assertThatExceptionOfType(NoKubernetesClusterException.class)
			.isThrownBy(() -> details(new KubernetesConfigDetector(TestClusters.IN_CLUSTER_ENV, null, serviceAccount),
					false)
				.apiClient())
			.satisfies((ex) -> assertThat(ex.logOnlyReason())
				.isEqualTo("no service account credentials in in-cluster service account (" + serviceAccount + ")"));
	}

	@Test
	void anUnreadableKubeconfigFailsNamingTheFile() throws IOException {
		Path home = this.tmp.resolve("home");
		Files.createDirectories(home.resolve(".kube"));
		Path config = Files.writeString(home.resolve(".kube/config"), "apiVersion: v1\nkind: Config\n");
		assertThatExceptionOfType(NoKubernetesClusterException.class)
			.isThrownBy(() -> details(new KubernetesConfigDetector(Map.of(), home, this.tmp.resolve("sa")), true)
				.apiClient())
			.withMessage("the configuration kubeconfig " + config + " could not be loaded: No server in kubeconfig")
			.withCauseInstanceOf(IOException.class)
			.satisfies((ex) -> assertThat(ex.logOnlyReason())
				.isEqualTo("kubeconfig " + config + " could not be loaded: No server in kubeconfig"));
	}

	@Test
	void detectsOnceAndKeepsTheClient() throws IOException {
		AtomicInteger asked = new AtomicInteger();
		DetectedKubeEventsConnectionDetails details = new DetectedKubeEventsConnectionDetails(() -> {
			asked.incrementAndGet();
			return null;
		}, Machines.inPod(this.tmp, false), false);
		assertThat(asked).hasValue(0);
		ApiClient first = details.apiClient();
		assertThat(details.apiClient()).isSameAs(first);
		assertThat(details.description()).isEqualTo("in-cluster service account " + this.tmp.resolve("sa"));
		assertThat(asked).hasValue(1);
	}

}
