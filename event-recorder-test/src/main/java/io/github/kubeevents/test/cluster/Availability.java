package io.github.kubeevents.test.cluster;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Assumptions;

/**
 * What happens when no cluster can be had: outside CI the test is skipped (aborted) with instructions, under
 * {@code CI=true} it fails. Thread-safe.
 */
final class Availability {

	private static final String LOCAL_HOW = "set KUBEBUILDER_ASSETS to a directory holding kube-apiserver and etcd (any"
			+ " envtest binaries), or build them once with '" + EnvtestAssets.SCRIPT + "' (needs Go; or set"
			+ " KUBEEVENTS_BUILD_ASSETS=true to build from the tests)";

	private static final String K3S_HOW = "put org.testcontainers:testcontainers-k3s on the test classpath and start a"
			+ " Docker engine that can run privileged containers";

	private static final Set<String> announced = ConcurrentHashMap.newKeySet();

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
	 * @param wanted the backend that was asked for (after the system property), {@link TestClusterBackend#AUTO} if any
	 * @param reason why there is none
	 * @return reason plus instructions for that backend
	 */
	static String message(TestClusterBackend wanted, String reason) {
		String why = reason.strip();
		why = why.endsWith(".") ? why.substring(0, why.length() - 1) : why;
		return switch (wanted) {
			case LOCAL -> "No local control plane: " + why + ". To run these tests, " + LOCAL_HOW + ".";
			case K3S -> "No K3s cluster: " + why + ". These tests run on K3s only; to run them, " + K3S_HOW + ".";
			case AUTO -> "No Kubernetes test cluster: " + why + ". To run these tests, " + LOCAL_HOW + "; or " + K3S_HOW
					+ ". -D" + TestClusterBackend.SYSTEM_PROPERTY + "=local|k3s|auto picks the backend.";
		};
	}

	/**
	 * Fails (CI) or skips (elsewhere) the calling test.
	 * @param <T> whatever the caller returns
	 * @param wanted the backend that was asked for
	 * @param reason why there is no cluster
	 * @return never
	 * @throws IllegalStateException under {@code CI=true}
	 */
	static <T> T unavailable(TestClusterBackend wanted, String reason) {
		String message = message(wanted, reason);
		if (isCi()) {
			throw new IllegalStateException(message + " [CI=true, so this is a failure, not a skip]");
		}
		announceSkip(message);
		return Assumptions.abort(message);
	}

	/**
	 * Prints a skip message on {@code System.err}, each distinct message once per JVM: the console summary of Surefire
	 * and Failsafe does not show why a class was skipped, and a run without a cluster should say so loudly.
	 * @param message the message
	 */
	static void announceSkip(String message) {
		if (announced.add(message)) {
			System.err.println("[kube-events-test-cluster] SKIPPING: " + message);
		}
	}

}
