package io.github.kubeevents.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.github.kubeevents.testsupport.TestClusters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.mock.env.MockEnvironment;

import static io.github.kubeevents.testsupport.TestClusters.IN_CLUSTER_ENV;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubernetesConfigDetector}.
 */
class KubernetesConfigDetectorTests {

	@TempDir
	Path tmp;

	@Test
	void findsNothingAndSaysWhereItLooked() {
		KubernetesConfigDetector detector = Machines.noCluster(this.tmp);
		assertThat(detector.detect(true)).isEmpty();
		assertThat(detector.detect(false)).isEmpty();
		assertThat(detector.describeSearch(true)).isEqualTo("$KUBECONFIG (unset), in-cluster service account ("
				+ this.tmp.resolve("no-service-account") + "; not running in Kubernetes), "
				+ this.tmp.resolve("empty-home/.kube/config"));
	}

	@Test
	void searchWithoutKubeconfigsDescribesOnlyTheServiceAccount() {
		KubernetesConfigDetector detector = new KubernetesConfigDetector(IN_CLUSTER_ENV, this.tmp,
				this.tmp.resolve("sa"));
		assertThat(detector.describeSearch(false)).isEqualTo("in-cluster service account (" + this.tmp.resolve("sa") + ")");
	}

	@Test
	void searchWithoutHomeSaysSo() {
		KubernetesConfigDetector detector = new KubernetesConfigDetector(Map.of("KUBECONFIG", "/nonexistent"), null,
				this.tmp.resolve("sa"));
		assertThat(detector.detect(true)).isEmpty();
		assertThat(detector.describeSearch(true)).isEqualTo("$KUBECONFIG (/nonexistent), in-cluster service account ("
				+ this.tmp.resolve("sa") + "; not running in Kubernetes), ~/.kube/config (no home)");
	}

	@Test
	void kubeconfigEnvWinsOverClusterAndHome() throws IOException {
		Path home = this.tmp.resolve("home");
		TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home:1");
		Path env = TestClusters.writeKubeconfig(this.tmp.resolve("env-config"), "http://env:1");
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		Map<String, String> vars = new HashMap<>(IN_CLUSTER_ENV);
		vars.put("KUBECONFIG", env.toString());
		assertThat(new KubernetesConfigDetector(vars, home, serviceAccount).detect(true))
			.contains(ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, env));
	}

	@Test
	void clusterWinsOverHomeKubeconfig() throws IOException {
		Path home = this.tmp.resolve("home");
		TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home:1");
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		assertThat(new KubernetesConfigDetector(IN_CLUSTER_ENV, home, serviceAccount).detect(true))
			.contains(ClusterConfig.inCluster(serviceAccount, "10.0.0.1", "443"));
	}

	@Test
	void kubeconfigsAreIgnoredWhenNotAllowed() throws IOException {
		Path home = this.tmp.resolve("home");
		TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home:1");
		Path env = TestClusters.writeKubeconfig(this.tmp.resolve("env-config"), "http://env:1");
		KubernetesConfigDetector detector = new KubernetesConfigDetector(Map.of("KUBECONFIG", env.toString()), home,
				this.tmp.resolve("sa"));
		assertThat(detector.detect(false)).isEmpty();
		assertThat(detector.detect(true)).contains(ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, env));
	}

	@Test
	void clusterIsFoundWhenKubeconfigsAreNotAllowed() throws IOException {
		KubernetesConfigDetector detector = Machines.inPod(this.tmp, true);
		assertThat(detector.detect(false))
			.contains(ClusterConfig.inCluster(this.tmp.resolve("sa"), "10.0.0.1", "443"));
	}

	@Test
	void kubeconfigEnvSkipsMissingAndEmptyEntries() throws IOException {
		Path second = TestClusters.writeKubeconfig(this.tmp.resolve("second"), "http://second:1");
		Path third = TestClusters.writeKubeconfig(this.tmp.resolve("third"), "http://third:1");
		String env = String.join(File.pathSeparator, this.tmp.resolve("first").toString(), "", second.toString(),
				third.toString());
		assertThat(new KubernetesConfigDetector(Map.of("KUBECONFIG", env), null, this.tmp).detect(true))
			.contains(ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, second));
	}

	@Test
	void kubeconfigEnvPointingNowhereFallsBackToHome() throws IOException {
		Path home = this.tmp.resolve("home");
		Path config = TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home:1");
		assertThat(new KubernetesConfigDetector(Map.of("KUBECONFIG", "/nonexistent"), home, this.tmp).detect(true))
			.contains(ClusterConfig.kubeconfig(ClusterConfig.Source.HOME_KUBECONFIG, config));
	}

	@Test
	void homeKubeconfigDirectoryIsNotAConfig() throws IOException {
		Path home = this.tmp.resolve("home");
		Files.createDirectories(home.resolve(".kube/config"));
		assertThat(new KubernetesConfigDetector(Map.of(), home, this.tmp).detect(true)).isEmpty();
	}

	@Test
	void inClusterNeedsHostPortTokenAndCa() throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		KubernetesConfigDetector detector = new KubernetesConfigDetector(IN_CLUSTER_ENV, null, serviceAccount);
		assertThat(detector.isRunningInKubernetes()).isTrue();
		assertThat(detector.detect(false)).contains(ClusterConfig.inCluster(serviceAccount, "10.0.0.1", "443"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT" })
	void inClusterWithoutServiceVariableIsNotDetected(String missing) throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		Map<String, String> env = new HashMap<>(IN_CLUSTER_ENV);
		env.remove(missing);
		KubernetesConfigDetector detector = new KubernetesConfigDetector(env, null, serviceAccount);
		assertThat(detector.isRunningInKubernetes()).isFalse();
		assertThat(detector.detect(true)).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT" })
	void blankServiceVariableIsNotRunningInKubernetes(String blank) {
		Map<String, String> env = new HashMap<>(IN_CLUSTER_ENV);
		env.put(blank, " ");
		assertThat(new KubernetesConfigDetector(env, null, this.tmp).isRunningInKubernetes()).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "token", "ca.crt" })
	void inClusterWithoutServiceAccountFileIsNotDetected(String missing) throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		Files.delete(serviceAccount.resolve(missing));
		KubernetesConfigDetector detector = new KubernetesConfigDetector(IN_CLUSTER_ENV, null, serviceAccount);
		assertThat(detector.isRunningInKubernetes()).isTrue();
		assertThat(detector.detect(true)).isEmpty();
	}

	@Test
	void applicationDetectorReadsTheVariablesFromTheEnvironment() throws IOException {
		Path kubeconfig = TestClusters.writeKubeconfig(this.tmp.resolve("env/kubeconfig"), "http://env.example:6443");
		MockEnvironment environment = new MockEnvironment().withProperty("KUBECONFIG", kubeconfig.toString())
			.withProperty("KUBERNETES_SERVICE_HOST", "10.0.0.1")
			.withProperty("KUBERNETES_SERVICE_PORT", "443")
			.withProperty("HOME", this.tmp.resolve("home").toString());
		KubernetesConfigDetector detector = KubernetesConfigDetector.of(environment);
		assertThat(detector.isRunningInKubernetes()).isTrue();
		assertThat(detector.detect(true)).contains(ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV,
				kubeconfig));
		assertThat(detector.describeSearch(true)).isEqualTo("$KUBECONFIG (" + kubeconfig + "), in-cluster service"
				+ " account (/var/run/secrets/kubernetes.io/serviceaccount), " + this.tmp.resolve("home/.kube/config"));
	}

	@Test
	void applicationDetectorFallsBackToTheUserHomeSystemProperty() {
		KubernetesConfigDetector detector = KubernetesConfigDetector
			.of(new MockEnvironment().withProperty("user.home", this.tmp.toString()));
		assertThat(detector.isRunningInKubernetes()).isFalse();
		assertThat(detector.describeSearch(true)).isEqualTo("$KUBECONFIG (unset), in-cluster service account"
				+ " (/var/run/secrets/kubernetes.io/serviceaccount; not running in Kubernetes), "
				+ this.tmp.resolve(".kube/config"));
	}

	@Test
	void emptyVariablesSetAsPropertiesHideTheMachinesConfiguration() {
		KubernetesConfigDetector detector = KubernetesConfigDetector.of(new MockEnvironment().withProperty("KUBECONFIG", "")
			.withProperty("KUBERNETES_SERVICE_HOST", "")
			.withProperty("HOME", this.tmp.resolve("empty-home").toString()));
		assertThat(detector.isRunningInKubernetes()).isFalse();
		assertThat(detector.detect(true)).isEmpty();
	}

}
