package io.github.kubeevents.test.cluster;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Assumptions;

/**
 * What happens when no cluster can be had: outside CI the test is skipped (aborted) with the report, under
 * {@code CI=true} it fails with a {@link TestClusterUnavailableException}; both say what is missing and what to do
 * (the description and action of that exception). Thread-safe.
 */
final class Availability {

	private static final String K3S_HOW = "put org.testcontainers:testcontainers-k3s on the classpath and start a"
			+ " Docker engine that can run privileged containers";

	private static final String NL = System.lineSeparator();

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
	 * The report for a missing cluster.
	 * @param wanted the backend that was asked for (after the system property), {@link TestClusterBackend#AUTO} if any
	 * @param reason why there is none
	 * @return the exception holding the description (the reason) and the action for that backend
	 */
	static TestClusterUnavailableException exception(TestClusterBackend wanted, String reason) {
		String why = reason.strip();
		why = why.endsWith(".") ? why.substring(0, why.length() - 1) : why;
		return switch (wanted) {
			case LOCAL -> new TestClusterUnavailableException("No local control plane (kube-apiserver and etcd): " + why
					+ ".", "Do one of these:" + localActions());
			case K3S -> new TestClusterUnavailableException("No K3s cluster: " + why + ".",
					Character.toUpperCase(K3S_HOW.charAt(0)) + K3S_HOW.substring(1) + ".");
			case AUTO -> new TestClusterUnavailableException("No Kubernetes test cluster: " + why + ".",
					"Do one of these:" + localActions() + NL + "\t- " + K3S_HOW + NL + "-D"
							+ TestClusterBackend.SYSTEM_PROPERTY + "=local|k3s|auto picks the backend.");
		};
	}

	/** The ways to get the local binaries, as list items; names the command that builds them on this machine. */
	private static String localActions() {
		return NL + "\t- build kube-apiserver and etcd once on this machine (with Go from the PATH, else a fetched Go;"
				+ " 10-30 minutes), then run again:" + NL + "\t      " + EnvtestAssets.recipeCommand() + NL
				+ "\t- set KUBEBUILDER_ASSETS to a directory holding kube-apiserver and etcd (any envtest binaries, e.g."
				+ " from setup-envtest)" + NL + "\t- set KUBEEVENTS_BUILD_ASSETS=true to build them on first use";
	}

	/**
	 * The full message for a missing cluster: the report's description and action.
	 * @param wanted the backend that was asked for (after the system property), {@link TestClusterBackend#AUTO} if any
	 * @param reason why there is none
	 * @return the message of {@link #exception}
	 */
	static String message(TestClusterBackend wanted, String reason) {
		return exception(wanted, reason).getMessage();
	}

	/**
	 * Fails (CI) or skips (elsewhere) the calling test.
	 * @param <T> whatever the caller returns
	 * @param wanted the backend that was asked for
	 * @param reason why there is no cluster
	 * @return never
	 * @throws TestClusterUnavailableException under {@code CI=true}
	 */
	static <T> T unavailable(TestClusterBackend wanted, String reason) {
		return unavailable(wanted, reason, isCi());
	}

	/**
	 * Fails or skips the calling test.
	 * @param <T> whatever the caller returns
	 * @param wanted the backend that was asked for
	 * @param reason why there is no cluster
	 * @param ci whether to fail rather than skip
	 * @return never
	 * @throws TestClusterUnavailableException when {@code ci}
	 */
	static <T> T unavailable(TestClusterBackend wanted, String reason, boolean ci) {
		TestClusterUnavailableException report = exception(wanted, reason);
		if (ci) {
			throw new TestClusterUnavailableException(
					report.description() + " [CI=true, so this is a failure, not a skip]", report.action());
		}
		announceSkip(report.getMessage());
		return Assumptions.abort(report.getMessage());
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
