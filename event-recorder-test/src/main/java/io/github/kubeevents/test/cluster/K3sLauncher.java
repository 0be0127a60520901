package io.github.kubeevents.test.cluster;

import java.time.Duration;

/**
 * Starts a {@link K3sTestCluster}; kept apart so that {@link TestClusterExtension} never links a Testcontainers class
 * unless the K3s backend was selected (which requires Testcontainers on the classpath). Stateless.
 */
final class K3sLauncher {

	private K3sLauncher() {
	}

	/**
	 * Starts K3s.
	 * @param eventTtl the {@code --event-ttl}
	 * @return the running cluster
	 */
	static KubernetesTestCluster start(Duration eventTtl) {
		return K3sTestCluster.builder().eventTtl(eventTtl).start();
	}

}
