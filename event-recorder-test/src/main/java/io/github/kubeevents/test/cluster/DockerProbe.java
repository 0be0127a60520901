package io.github.kubeevents.test.cluster;

import org.testcontainers.DockerClientFactory;

/**
 * Asks Testcontainers whether a Docker engine answers. Only loaded after {@link TestClusterExtension} has checked
 * that Testcontainers is on the classpath. Stateless.
 */
final class DockerProbe {

	private DockerProbe() {
	}

	/**
	 * Whether Testcontainers finds a working Docker engine.
	 * @return {@code false} also when the check itself fails
	 */
	static boolean isDockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (Throwable ex) {
			return false;
		}
	}

}
