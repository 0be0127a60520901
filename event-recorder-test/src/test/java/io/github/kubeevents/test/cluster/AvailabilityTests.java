package io.github.kubeevents.test.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AvailabilityTests {

	@Test
	void instructionsFitTheBackendThatWasAskedFor() {
		assertThat(Availability.message(TestClusterBackend.LOCAL, "KUBEBUILDER_ASSETS=/x lacks an executable etcd."))
			.isEqualTo("No local control plane: KUBEBUILDER_ASSETS=/x lacks an executable etcd. To run these tests, set"
					+ " KUBEBUILDER_ASSETS to a directory holding kube-apiserver and etcd (any envtest binaries), or build"
					+ " them once with 'scripts/envtest-assets.sh' (needs Go; or set KUBEEVENTS_BUILD_ASSETS=true to build"
					+ " from the tests).");
		assertThat(Availability.message(TestClusterBackend.K3S, "no Docker engine is reachable"))
			.isEqualTo("No K3s cluster: no Docker engine is reachable. These tests run on K3s only; to run them, put"
					+ " org.testcontainers:testcontainers-k3s on the test classpath and start a Docker engine that can"
					+ " run privileged containers.");
		assertThat(Availability.message(TestClusterBackend.AUTO, "local: x; k3s: y"))
			.startsWith("No Kubernetes test cluster: local: x; k3s: y. To run these tests, set KUBEBUILDER_ASSETS")
			.contains("; or put org.testcontainers:testcontainers-k3s on the test classpath")
			.endsWith(" -Dkubeevents.test.cluster=local|k3s|auto picks the backend.");
	}

}
