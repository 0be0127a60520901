package io.github.kubeevents.test.cluster;

import org.junit.jupiter.api.Assumptions;

/**
 * What happens when no cluster can be had: outside CI the test is skipped (aborted) with instructions, under
 * {@code CI=true} it fails. Thread-safe.
 */
final class Availability {

	/** How to get a cluster; appended to every "unavailable" message. */
	static final String INSTRUCTIONS = "To run these tests, set KUBEBUILDER_ASSETS to a directory holding kube-apiserver"
			+ " and etcd (any envtest binaries), or build them once with '" + EnvtestAssets.SCRIPT + "' (needs Go; or set"
			+ " KUBEEVENTS_BUILD_ASSETS=true to build from the tests); or put org.testcontainers:testcontainers-k3s on"
			+ " the test classpath and start a Docker engine. -D" + TestClusterBackend.SYSTEM_PROPERTY
			+ "=local|k3s|auto picks the backend.";

	private static volatile boolean skipAnnounced;

	private Availability() {
	}

	/**
	 * Whether this is a CI run.
	 * @return {@code true} when the environment variable {@code CI} is {@code true} (any case)
	 */
	static boolean isCi() {
		return "true".equalsIgnoreCase(System.getenv("CI"));
	}

	/**
	 * The full message for a missing cluster.
	 * @param reason why there is none
	 * @return reason plus instructions
	 */
	static String message(String reason) {
		String why = reason.strip();
		why = why.endsWith(".") ? why.substring(0, why.length() - 1) : why;
		return "No Kubernetes test cluster: " + why + ". " + INSTRUCTIONS;
	}

	/**
	 * Fails (CI) or skips (elsewhere) the calling test.
	 * @param <T> whatever the caller returns
	 * @param reason why there is no cluster
	 * @return never
	 * @throws IllegalStateException under {@code CI=true}
	 */
	static <T> T unavailable(String reason) {
		String message = message(reason);
		if (isCi()) {
			throw new IllegalStateException(message + " [CI=true, so this is a failure, not a skip]");
		}
		announceSkip(message);
		return Assumptions.abort(message);
	}

	/**
	 * Prints the skip message once per JVM on {@code System.err}: Surefire and Failsafe do not show why a class was
	 * skipped, and a run with no cluster should say so loudly.
	 * @param message the message
	 */
	static void announceSkip(String message) {
		if (!skipAnnounced) {
			skipAnnounced = true;
			System.err.println("[kube-events-test-cluster] SKIPPING tests that need a Kubernetes API server. " + message);
		}
	}

}
