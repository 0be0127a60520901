package io.github.kubeevents.test.cluster;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link Availability}: the report for a missing cluster, which skips a test or, under CI, fails it.
 */
class AvailabilityTests {

	private static final String NL = System.lineSeparator();

	@Test
	void theReportFitsTheBackendThatWasAskedFor() {
		String recipe = EnvtestAssets.recipeCommand();
		String localActions = "Do one of these:" + NL
				+ "\t- build kube-apiserver and etcd once on this machine (with Go from the PATH, else a fetched Go; 10-30"
				+ " minutes), then run again:" + NL + "\t      " + recipe + NL
				+ "\t- set KUBEBUILDER_ASSETS to a directory holding kube-apiserver and etcd (any envtest binaries, e.g."
				+ " from setup-envtest)" + NL + "\t- set KUBEEVENTS_BUILD_ASSETS=true to build them on first use";

		TestClusterUnavailableException local = Availability.exception(TestClusterBackend.LOCAL,
				"KUBEBUILDER_ASSETS=/x lacks an executable etcd.");
		assertThat(local.description())
			.isEqualTo("No local control plane (kube-apiserver and etcd): KUBEBUILDER_ASSETS=/x lacks an executable etcd.");
		assertThat(local.action()).isEqualTo(localActions);
		assertThat(local).hasMessage(local.description() + NL + "Action: " + local.action());

		TestClusterUnavailableException k3s = Availability.exception(TestClusterBackend.K3S,
				"no Docker engine is reachable");
		assertThat(k3s.description()).isEqualTo("No K3s cluster: no Docker engine is reachable.");
		assertThat(k3s.action()).isEqualTo("Put org.testcontainers:testcontainers-k3s on the classpath and start a"
				+ " Docker engine that can run privileged containers.");

		TestClusterUnavailableException any = Availability.exception(TestClusterBackend.AUTO, "local: x; k3s: y");
		assertThat(any.description()).isEqualTo("No Kubernetes test cluster: local: x; k3s: y.");
		assertThat(any.action()).isEqualTo(localActions + NL + "\t- put org.testcontainers:testcontainers-k3s on the"
				+ " classpath and start a Docker engine that can run privileged containers" + NL
				+ "-Dkubeevents.test.cluster=local|k3s|auto picks the backend.");
	}

	@Test
	void theRecipeCommandIsTheRepositoryScriptHere() {
		assertThat(EnvtestAssets.recipeCommand()).isEqualTo(EnvtestAssets.findScript().orElseThrow().toString())
			.endsWith(EnvtestAssets.SCRIPT);
	}

	@Test
	void underCiTheReportFailsTheTestWithoutAStackTrace() {
		assertThatExceptionOfType(TestClusterUnavailableException.class)
			.isThrownBy(() -> Availability.unavailable(TestClusterBackend.K3S, "no Docker engine is reachable", true))
			.satisfies((ex) -> {
				assertThat(ex.description())
					.isEqualTo("No K3s cluster: no Docker engine is reachable. [CI=true, so this is a failure, not a skip]");
				assertThat(ex.getStackTrace()).isEmpty();
				assertThat(ex.getCause()).isNull();
			});
	}

	@Test
	void elsewhereTheReportSkipsTheTest() {
		assertThatExceptionOfType(TestAbortedException.class)
			.isThrownBy(() -> Availability.unavailable(TestClusterBackend.K3S, "no Docker engine is reachable", false))
			.withMessage("No K3s cluster: no Docker engine is reachable." + NL + "Action: Put"
					+ " org.testcontainers:testcontainers-k3s on the classpath and start a Docker engine that can run"
					+ " privileged containers.");
	}

}
