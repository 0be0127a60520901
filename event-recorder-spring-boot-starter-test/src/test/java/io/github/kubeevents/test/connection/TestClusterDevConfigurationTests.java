package io.github.kubeevents.test.connection;

import io.github.kubeevents.test.cluster.TestClusterBackend;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Tests for {@link TestClusterDevConfiguration}'s choice of backend when the wanted one is missing (the IT of the
 * sample's {@code TestSampleApplication} covers a successful start).
 */
class TestClusterDevConfigurationTests {

	@Test
	void k3sWithoutDockerFailsWithWhatToInstall() {
		assumeFalse(DockerClientFactory.instance().isDockerAvailable(), "a Docker engine answers here");
		assertThatIllegalStateException().isThrownBy(() -> TestClusterDevConfiguration.start(TestClusterBackend.K3S))
			.withMessage("No K3s test cluster: no Docker engine answers. Add org.testcontainers:testcontainers-k3s to"
					+ " the test classpath and run a Docker engine that can start privileged containers.");
	}

}
