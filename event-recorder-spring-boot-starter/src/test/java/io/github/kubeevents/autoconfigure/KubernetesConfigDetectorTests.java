package io.github.kubeevents.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Tests for {@link KubernetesConfigDetector} and {@link ClusterConfig}.
 */
class KubernetesConfigDetectorTests {

	private static final Map<String, String> IN_CLUSTER_ENV = Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1",
			"KUBERNETES_SERVICE_PORT", "443");

	@TempDir
	Path tmp;

	@Test
	void findsNothingAndSaysWhereItLooked() {
		KubernetesConfigDetector detector = TestClusters.noCluster(this.tmp);
		assertThat(detector.detect()).isEmpty();
		assertThat(detector.describeSearch()).isEqualTo("$KUBECONFIG (unset), " + this.tmp.resolve("empty-home/.kube/config")
				+ ", in-cluster service account (" + this.tmp.resolve("no-service-account") + ")");
	}

	@Test
	void withoutHomeDescribesTheSearch() {
		KubernetesConfigDetector detector = new KubernetesConfigDetector(Map.of("KUBECONFIG", "/nonexistent"), null,
				this.tmp.resolve("sa"));
		assertThat(detector.detect()).isEmpty();
		assertThat(detector.describeSearch()).isEqualTo("$KUBECONFIG (/nonexistent), ~/.kube/config (no home), "
				+ "in-cluster service account (" + this.tmp.resolve("sa") + ")");
	}

	@Test
	void kubeconfigEnvWinsOverHomeAndCluster() throws IOException {
		Path home = this.tmp.resolve("home");
		TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home:1");
		Path env = TestClusters.writeKubeconfig(this.tmp.resolve("env-config"), "http://env:1");
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		Map<String, String> vars = new HashMap<>(IN_CLUSTER_ENV);
		vars.put("KUBECONFIG", env.toString());
		assertThat(new KubernetesConfigDetector(vars, home, serviceAccount).detect())
			.contains(ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, env));
	}

	@Test
	void kubeconfigEnvSkipsMissingAndEmptyEntries() throws IOException {
		Path second = TestClusters.writeKubeconfig(this.tmp.resolve("second"), "http://second:1");
		Path third = TestClusters.writeKubeconfig(this.tmp.resolve("third"), "http://third:1");
		String env = String.join(File.pathSeparator, this.tmp.resolve("first").toString(), "", second.toString(),
				third.toString());
		assertThat(new KubernetesConfigDetector(Map.of("KUBECONFIG", env), null, this.tmp).detect())
			.contains(ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, second));
	}

	@Test
	void kubeconfigEnvPointingNowhereFallsBackToHome() throws IOException {
		Path home = this.tmp.resolve("home");
		Path config = TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home:1");
		assertThat(new KubernetesConfigDetector(Map.of("KUBECONFIG", "/nonexistent"), home, this.tmp).detect())
			.contains(ClusterConfig.kubeconfig(ClusterConfig.Source.HOME_KUBECONFIG, config));
	}

	@Test
	void homeKubeconfigWinsOverCluster() throws IOException {
		Path home = this.tmp.resolve("home");
		Path config = TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://home:1");
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		assertThat(new KubernetesConfigDetector(IN_CLUSTER_ENV, home, serviceAccount).detect())
			.contains(ClusterConfig.kubeconfig(ClusterConfig.Source.HOME_KUBECONFIG, config));
	}

	@Test
	void homeKubeconfigDirectoryIsNotAConfig() throws IOException {
		Path home = this.tmp.resolve("home");
		Files.createDirectories(home.resolve(".kube/config"));
		assertThat(new KubernetesConfigDetector(Map.of(), home, this.tmp).detect()).isEmpty();
	}

	@Test
	void inClusterNeedsHostPortTokenAndCa() throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		assertThat(new KubernetesConfigDetector(IN_CLUSTER_ENV, null, serviceAccount).detect())
			.contains(ClusterConfig.inCluster(serviceAccount, "10.0.0.1", "443"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT" })
	void inClusterWithoutServiceVariableIsNotDetected(String missing) throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		Map<String, String> env = new HashMap<>(IN_CLUSTER_ENV);
		env.remove(missing);
		assertThat(new KubernetesConfigDetector(env, null, serviceAccount).detect()).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "token", "ca.crt" })
	void inClusterWithoutServiceAccountFileIsNotDetected(String missing) throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		Files.delete(serviceAccount.resolve(missing));
		assertThat(new KubernetesConfigDetector(IN_CLUSTER_ENV, null, serviceAccount).detect()).isEmpty();
	}

	@Test
	void kubeconfigClientUsesTheCurrentContextsServer() throws IOException {
		Path config = TestClusters.writeKubeconfig(this.tmp.resolve("config"), "https://10.1.2.3:6443");
		ClusterConfig cluster = ClusterConfig.kubeconfig(ClusterConfig.Source.HOME_KUBECONFIG, config);
		assertThat(cluster.createApiClient().getBasePath()).isEqualTo("https://10.1.2.3:6443");
		assertThat(cluster.createApiClient().getReadTimeout()).isEqualTo(30_000);
		assertThat(cluster.description()).isEqualTo("kubeconfig " + config);
	}

	@Test
	void inClusterClientUsesTheServiceAddress() throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		ClusterConfig cluster = ClusterConfig.inCluster(serviceAccount, "10.0.0.1", "443");
		assertThat(cluster.createApiClient().getBasePath()).isEqualTo("https://10.0.0.1:443");
		assertThat(cluster.createApiClient().getReadTimeout()).isEqualTo(30_000);
		assertThat(cluster.description()).isEqualTo("in-cluster service account " + serviceAccount);
	}

	@Test
	void inClusterClientBracketsIpv6Hosts() throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		assertThat(ClusterConfig.inCluster(serviceAccount, "fd00::1", "6443").createApiClient().getBasePath())
			.isEqualTo("https://[fd00::1]:6443");
	}

	@Test
	void inClusterClientWithBadPortFails() throws IOException {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		assertThatIOException()
			.isThrownBy(() -> ClusterConfig.inCluster(serviceAccount, "10.0.0.1", "https").createApiClient())
			.withMessage("invalid $KUBERNETES_SERVICE_HOST/PORT 10.0.0.1:https");
	}

	@Test
	void kubeconfigWithoutServerFails() throws IOException {
		Path config = Files.writeString(this.tmp.resolve("config"), "apiVersion: v1\nkind: Config\n");
		assertThatIOException()
			.isThrownBy(() -> ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, config).createApiClient())
			.withMessage("No server in kubeconfig");
	}

}
