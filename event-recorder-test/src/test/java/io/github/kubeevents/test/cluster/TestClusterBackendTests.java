package io.github.kubeevents.test.cluster;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class TestClusterBackendTests {

	@Test
	void parsesTheSystemPropertyValues() {
		assertThat(TestClusterBackend.parse(null)).isEqualTo(TestClusterBackend.AUTO);
		assertThat(TestClusterBackend.parse(" ")).isEqualTo(TestClusterBackend.AUTO);
		assertThat(TestClusterBackend.parse("auto")).isEqualTo(TestClusterBackend.AUTO);
		assertThat(TestClusterBackend.parse("LOCAL")).isEqualTo(TestClusterBackend.LOCAL);
		assertThat(TestClusterBackend.parse(" k3s\n")).isEqualTo(TestClusterBackend.K3S);
		assertThatIllegalArgumentException().isThrownBy(() -> TestClusterBackend.parse("envtest"))
			.withMessage("kubeevents.test.cluster must be one of local, k3s, auto; was 'envtest'");
	}

	@Test
	void capabilities() {
		assertThat(TestClusterBackend.LOCAL.capabilities()).containsExactlyInAnyOrder(Capability.values());
		assertThat(TestClusterBackend.K3S.capabilities()).containsExactly(Capability.FREEZE_API_SERVER);
		assertThat(TestClusterBackend.AUTO.capabilities()).isEmpty();
	}

	@Test
	void printsAsTheSystemPropertyValue() {
		assertThat(TestClusterBackend.K3S).hasToString("k3s");
	}

}
