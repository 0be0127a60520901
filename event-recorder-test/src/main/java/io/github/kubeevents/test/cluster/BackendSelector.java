package io.github.kubeevents.test.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;

/**
 * Picks the backend for a test class, without starting anything. Stateless; the {@link Environment} answers the
 * questions about the machine.
 *
 * <p>Rules:
 * <ol>
 *   <li>The backend the test names ({@link WithTestCluster#backend()}), else the system property
 *       {@value TestClusterBackend#SYSTEM_PROPERTY}, else {@link TestClusterBackend#AUTO}.</li>
 *   <li>A named backend that lacks a capability the test requires: not applicable (skipped, also on CI).</li>
 *   <li>{@link TestClusterBackend#LOCAL}: available when {@link EnvtestAssets} found the binaries.
 *       {@link TestClusterBackend#K3S}: available when Testcontainers K3s is on the classpath and a Docker engine
 *       answers (asked only then).</li>
 *   <li>{@link TestClusterBackend#AUTO}: the first available of LOCAL, K3S that has every required capability.</li>
 *   <li>Nothing available: missing (skipped with instructions, failed under {@code CI=true}).</li>
 * </ol>
 */
final class BackendSelector {

	/** What the selection needs to know about the machine; each method is asked at most once per selection. */
	interface Environment {

		/**
		 * The value of {@value TestClusterBackend#SYSTEM_PROPERTY}.
		 * @return the value or {@code null}
		 */
		String systemProperty();

		/**
		 * Where the local binaries are.
		 * @return the lookup result
		 */
		EnvtestAssets.Result localAssets();

		/**
		 * Whether {@code org.testcontainers.k3s.K3sContainer} can be loaded.
		 * @return {@code true} if present
		 */
		boolean testcontainersPresent();

		/**
		 * Whether a Docker engine answers (only asked when Testcontainers is present).
		 * @return {@code true} if available
		 */
		boolean dockerAvailable();

	}

	/** The outcome. */
	enum Outcome {

		/** A backend was picked. */
		AVAILABLE,

		/** No backend can run here: skip with instructions, fail under {@code CI=true}. */
		MISSING,

		/** The test does not apply to the chosen backend (a required capability): skip, also on CI. */
		NOT_APPLICABLE

	}

	/**
	 * A selection.
	 * @param outcome what happened
	 * @param wanted the backend asked for, after the system property ({@link TestClusterBackend#AUTO}: any)
	 * @param backend the backend when available, else {@code null}
	 * @param assets the binaries directory for {@link TestClusterBackend#LOCAL}, else {@code null}
	 * @param reason why not, when not available
	 */
	record Selection(Outcome outcome, TestClusterBackend wanted, TestClusterBackend backend, Path assets,
			String reason) {

		static Selection of(TestClusterBackend wanted, TestClusterBackend backend, Path assets) {
			return new Selection(Outcome.AVAILABLE, wanted, backend, assets, null);
		}

		static Selection missing(TestClusterBackend wanted, String reason) {
			return new Selection(Outcome.MISSING, wanted, null, null, reason);
		}

		static Selection notApplicable(TestClusterBackend wanted, String reason) {
			return new Selection(Outcome.NOT_APPLICABLE, wanted, null, null, reason);
		}

		boolean available() {
			return this.outcome == Outcome.AVAILABLE;
		}

	}

	private BackendSelector() {
	}

	/**
	 * Selects a backend.
	 * @param requested what the test names ({@link TestClusterBackend#AUTO} if nothing)
	 * @param required capabilities the test class requires
	 * @param env the machine
	 * @return the selection
	 * @throws IllegalArgumentException when the system property has an invalid value
	 */
	static Selection select(TestClusterBackend requested, Set<Capability> required, Environment env) {
		TestClusterBackend effective = requested;
		String chosenBy = "the test";
		if (requested == TestClusterBackend.AUTO) {
			String property = env.systemProperty();
			effective = TestClusterBackend.parse(property);
			chosenBy = "-D" + TestClusterBackend.SYSTEM_PROPERTY + "=" + property;
		}
		if (effective != TestClusterBackend.AUTO) {
			Set<Capability> missing = missing(effective, required);
			if (!missing.isEmpty()) {
				return Selection.notApplicable(effective, "the test requires " + missing + ", which the " + effective
						+ " backend (chosen by " + chosenBy + ") cannot do");
			}
			return (effective == TestClusterBackend.LOCAL) ? local(env, effective) : k3s(env, effective);
		}
		List<String> reasons = new ArrayList<>();
		for (TestClusterBackend candidate : List.of(TestClusterBackend.LOCAL, TestClusterBackend.K3S)) {
			Set<Capability> missing = missing(candidate, required);
			if (!missing.isEmpty()) {
				reasons.add(candidate + ": cannot do " + missing);
				continue;
			}
			Selection s = (candidate == TestClusterBackend.LOCAL) ? local(env, TestClusterBackend.AUTO)
					: k3s(env, TestClusterBackend.AUTO);
			if (s.available()) {
				return s;
			}
			reasons.add(candidate + ": " + s.reason());
		}
		return Selection.missing(TestClusterBackend.AUTO, String.join("; ", reasons));
	}

	private static Set<Capability> missing(TestClusterBackend backend, Set<Capability> required) {
		Set<Capability> missing = required.isEmpty() ? EnumSet.noneOf(Capability.class) : EnumSet.copyOf(required);
		missing.removeAll(backend.capabilities());
		return missing;
	}

	private static Selection local(Environment env, TestClusterBackend wanted) {
		EnvtestAssets.Result assets = env.localAssets();
		return assets.directory()
			.map((dir) -> Selection.of(wanted, TestClusterBackend.LOCAL, dir))
			.orElseGet(() -> Selection.missing(wanted, assets.reason()));
	}

	private static Selection k3s(Environment env, TestClusterBackend wanted) {
		if (!env.testcontainersPresent()) {
			return Selection.missing(wanted, "org.testcontainers:testcontainers-k3s is not on the test classpath");
		}
		if (!env.dockerAvailable()) {
			return Selection.missing(wanted, "no Docker engine is reachable (Testcontainers found none)");
		}
		return Selection.of(wanted, TestClusterBackend.K3S, null);
	}

}
