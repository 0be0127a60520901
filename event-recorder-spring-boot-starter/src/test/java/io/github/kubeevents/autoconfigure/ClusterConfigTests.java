package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.github.kubeevents.testsupport.TestClusters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ClusterConfig}.
 */
class ClusterConfigTests {

	@TempDir
	Path tmp;

	@Test
	void kubeconfigClientUsesTheCurrentContextsServerAndAReadTimeout() throws IOException {
		Path config = TestClusters.writeKubeconfig(this.tmp.resolve("config"), "https://10.1.2.3:6443");
		ClusterConfig cluster = ClusterConfig.kubeconfig(ClusterConfig.Source.HOME_KUBECONFIG, config);
		assertThat(cluster.createApiClient().getBasePath()).isEqualTo("https://10.1.2.3:6443");
		assertThat(cluster.createApiClient().getReadTimeout()).isEqualTo(30_000);
		assertThat(cluster.description()).isEqualTo("kubeconfig " + config);
	}

	@Test
	void kubeconfigFromTheEnvironmentSaysSo() throws IOException {
		Path config = TestClusters.writeKubeconfig(this.tmp.resolve("config"), "https://10.1.2.3:6443");
		assertThat(ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, config).description())
			.isEqualTo("kubeconfig " + config + " (from $KUBECONFIG)");
	}

	@Test
	void inClusterClientUsesTheServiceAddressAndAReadTimeout() throws IOException {
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

	@Test
	void inClusterConfigurationNeedsHostAndPort() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ClusterConfig(ClusterConfig.Source.IN_CLUSTER, this.tmp, null, "443"))
			.withMessage("an in-cluster configuration needs the service host and port");
	}

}
