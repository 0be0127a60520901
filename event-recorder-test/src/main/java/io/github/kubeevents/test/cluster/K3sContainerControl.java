package io.github.kubeevents.test.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The Docker side of a {@link K3sTestCluster}: the {@link K3sContainer} with the extra {@code k3s server} arguments
 * appended to its command, {@code docker pause} / {@code docker unpause} for freezing (and before it is stopped), and
 * the exception for a failed start, which holds the tail of the container log. Stateless.
 */
final class K3sContainerControl {

	// under K3sTestCluster's name, as when this code was part of it
	private static final Logger logger = LoggerFactory.getLogger(K3sTestCluster.class);

	private K3sContainerControl() {
	}

	/**
	 * A container, not started.
	 * @param image a {@code rancher/k3s} image
	 * @param serverArgs appended to {@code server --disable=traefik --tls-san=<host>}
	 * @param startupTimeout how long it may take to become ready
	 * @return the container
	 */
	static K3sContainer create(String image, List<String> serverArgs, Duration startupTimeout) {
		K3sContainer k3s = new K3sContainer(DockerImageName.parse(image));
		List<String> command = new ArrayList<>(List.of(k3s.getCommandParts()));
		command.addAll(serverArgs);
		k3s.setCommand(command.toArray(String[]::new));
		k3s.withStartupTimeout(startupTimeout);
		return k3s;
	}

	/**
	 * {@code docker pause}.
	 * @param k3s a running container
	 */
	static void pause(K3sContainer k3s) {
		k3s.getDockerClient().pauseContainerCmd(k3s.getContainerId()).exec();
	}

	/**
	 * {@code docker unpause}.
	 * @param k3s a paused container
	 */
	static void unpause(K3sContainer k3s) {
		k3s.getDockerClient().unpauseContainerCmd(k3s.getContainerId()).exec();
	}

	/**
	 * {@code docker unpause} before the container is stopped: a failure is only logged, the stop follows anyway.
	 * @param k3s a paused container
	 */
	static void unpauseQuietly(K3sContainer k3s) {
		try {
			unpause(k3s);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not unpause {} before stopping it: {}", k3s.getContainerId(), ex.toString());
		}
	}

	/**
	 * After a failed start: reads the tail of the container log, stops the container, and makes the exception.
	 * @param k3s the container
	 * @param image its image, for the message
	 * @param ex why the start failed (a failure to stop is added as suppressed)
	 * @return the exception to throw, with the log tail in its message
	 */
	static IllegalStateException startFailure(K3sContainer k3s, String image, RuntimeException ex) {
		String logs = tailOfLogs(k3s);
		try {
			k3s.stop();
		}
		catch (RuntimeException stopFailure) {
			ex.addSuppressed(stopFailure);
		}
		return new IllegalStateException("K3s (" + image + ") did not start: " + ex.getMessage() + logs, ex);
	}

	private static String tailOfLogs(K3sContainer k3s) {
		try {
			List<String> lines = k3s.getLogs().lines().toList();
			return "\n---- tail of the K3s container log ----\n"
					+ String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
		}
		catch (RuntimeException ex) {
			return "";
		}
	}

}
