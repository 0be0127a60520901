package io.github.kubeevents.test.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import io.github.kubeevents.test.cluster.BackendSelector.Outcome;
import io.github.kubeevents.test.cluster.BackendSelector.Selection;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import org.junit.jupiter.api.Test;

import static io.github.kubeevents.test.cluster.TestClusterBackend.AUTO;
import static io.github.kubeevents.test.cluster.TestClusterBackend.K3S;
import static io.github.kubeevents.test.cluster.TestClusterBackend.LOCAL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BackendSelectorTests {

	private static final Path ASSETS = Path.of("/opt/envtest/1.35.4");

	private static final Set<Capability> NONE = EnumSet.noneOf(Capability.class);

	@Test
	void autoPrefersLocalBinariesAndDoesNotAskForDocker() {
		FakeEnvironment env = new FakeEnvironment(null, true, true, true);

		Selection s = BackendSelector.select(AUTO, NONE, env);

		assertThat(s).isEqualTo(new Selection(Outcome.AVAILABLE, AUTO, LOCAL, ASSETS, null));
		assertThat(env.asked).containsExactly("systemProperty", "localAssets");
	}

	@Test
	void autoFallsBackToK3sWhenDockerAnswers() {
		FakeEnvironment env = new FakeEnvironment(null, false, true, true);

		Selection s = BackendSelector.select(AUTO, NONE, env);

		assertThat(s).isEqualTo(new Selection(Outcome.AVAILABLE, AUTO, K3S, null, null));
		assertThat(env.asked).containsExactly("systemProperty", "localAssets", "testcontainersPresent",
				"dockerAvailable");
	}

	@Test
	void autoWithoutTestcontainersNeverProbesDockerAndIsMissing() {
		FakeEnvironment env = new FakeEnvironment(null, false, false, true);

		Selection s = BackendSelector.select(AUTO, NONE, env);

		assertThat(s.outcome()).isEqualTo(Outcome.MISSING);
		assertThat(s.reason()).isEqualTo("local: no binaries here; "
				+ "k3s: org.testcontainers:testcontainers-k3s is not on the test classpath");
		assertThat(env.asked).doesNotContain("dockerAvailable");
	}

	@Test
	void autoWithoutDockerIsMissing() {
		Selection s = BackendSelector.select(AUTO, NONE, new FakeEnvironment(null, false, true, false));

		assertThat(s.outcome()).isEqualTo(Outcome.MISSING);
		assertThat(s.reason())
			.isEqualTo("local: no binaries here; k3s: no Docker engine is reachable (Testcontainers found none)");
	}

	@Test
	void autoOnlyConsidersBackendsWithTheRequiredCapabilities() {
		FakeEnvironment env = new FakeEnvironment(null, false, true, true);

		Selection s = BackendSelector.select(AUTO, EnumSet.of(Capability.STOP_API_SERVER), env);

		assertThat(s.outcome()).isEqualTo(Outcome.MISSING);
		assertThat(s.reason()).isEqualTo("local: no binaries here; k3s: cannot do [STOP_API_SERVER]");
		assertThat(env.asked).doesNotContain("testcontainersPresent", "dockerAvailable");
	}

	@Test
	void freezingIsFineOnK3s() {
		Selection s = BackendSelector.select(AUTO, EnumSet.of(Capability.FREEZE_API_SERVER),
				new FakeEnvironment(null, false, true, true));

		assertThat(s.backend()).isEqualTo(K3S);
	}

	@Test
	void systemPropertyChoosesForAutoClasses() {
		FakeEnvironment env = new FakeEnvironment(" K3s ", true, true, true);

		Selection s = BackendSelector.select(AUTO, NONE, env);

		assertThat(s.backend()).isEqualTo(K3S);
		assertThat(s.wanted()).isEqualTo(K3S);
		assertThat(env.asked).doesNotContain("localAssets");
	}

	@Test
	void systemPropertyAutoBehavesLikeNoProperty() {
		assertThat(BackendSelector.select(AUTO, NONE, new FakeEnvironment("auto", true, true, true)).backend())
			.isEqualTo(LOCAL);
	}

	@Test
	void namedBackendWinsOverTheSystemProperty() {
		FakeEnvironment env = new FakeEnvironment("k3s", true, true, true);

		Selection s = BackendSelector.select(LOCAL, NONE, env);

		assertThat(s.backend()).isEqualTo(LOCAL);
		assertThat(env.asked).doesNotContain("systemProperty");
	}

	@Test
	void namedBackendThatIsMissingIsNotReplacedByAnother() {
		Selection s = BackendSelector.select(K3S, NONE, new FakeEnvironment(null, true, true, false));

		assertThat(s.outcome()).isEqualTo(Outcome.MISSING);
		assertThat(s.wanted()).isEqualTo(K3S);
		assertThat(s.reason()).isEqualTo("no Docker engine is reachable (Testcontainers found none)");
	}

	@Test
	void namedLocalWithoutBinariesIsMissingWithTheLookupReason() {
		Selection s = BackendSelector.select(LOCAL, NONE, new FakeEnvironment(null, false, true, true));

		assertThat(s).isEqualTo(new Selection(Outcome.MISSING, LOCAL, null, null, "no binaries here"));
	}

	@Test
	void backendLackingARequiredCapabilityIsNotApplicableWithoutLookingAtTheMachine() {
		FakeEnvironment env = new FakeEnvironment("k3s", true, true, true);

		Selection s = BackendSelector.select(AUTO, EnumSet.of(Capability.STOP_API_SERVER), env);

		assertThat(s.outcome()).isEqualTo(Outcome.NOT_APPLICABLE);
		assertThat(s.reason()).isEqualTo("the test requires [STOP_API_SERVER], which the k3s backend (chosen by"
				+ " -Dkubeevents.test.cluster=k3s) cannot do");
		assertThat(env.asked).containsExactly("systemProperty");
	}

	@Test
	void annotationNamingK3sForAStopTestIsNotApplicable() {
		Selection s = BackendSelector.select(K3S,
				EnumSet.of(Capability.STOP_API_SERVER, Capability.NAMESPACES_STAY_TERMINATING),
				new FakeEnvironment(null, true, true, true));

		assertThat(s.outcome()).isEqualTo(Outcome.NOT_APPLICABLE);
		assertThat(s.reason()).isEqualTo("the test requires [STOP_API_SERVER, NAMESPACES_STAY_TERMINATING], which the"
				+ " k3s backend (chosen by the test) cannot do");
	}

	@Test
	void invalidSystemPropertyFails() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BackendSelector.select(AUTO, NONE, new FakeEnvironment("kind", true, true, true)))
			.withMessage("kubeevents.test.cluster must be one of local, k3s, auto; was 'kind'");
	}

	/** Answers from fields and records which questions were asked, in order. */
	private static final class FakeEnvironment implements BackendSelector.Environment {

		private final String property;

		private final boolean binaries;

		private final boolean testcontainers;

		private final boolean docker;

		private final List<String> asked = new ArrayList<>();

		FakeEnvironment(String property, boolean binaries, boolean testcontainers, boolean docker) {
			this.property = property;
			this.binaries = binaries;
			this.testcontainers = testcontainers;
			this.docker = docker;
		}

		@Override
		public String systemProperty() {
			this.asked.add("systemProperty");
			return this.property;
		}

		@Override
		public EnvtestAssets.Result localAssets() {
			this.asked.add("localAssets");
			return this.binaries ? new EnvtestAssets.Result(Optional.of(ASSETS), "found")
					: new EnvtestAssets.Result(Optional.empty(), "no binaries here");
		}

		@Override
		public boolean testcontainersPresent() {
			this.asked.add("testcontainersPresent");
			return this.testcontainers;
		}

		@Override
		public boolean dockerAvailable() {
			this.asked.add("dockerAvailable");
			return this.docker;
		}

	}

}
