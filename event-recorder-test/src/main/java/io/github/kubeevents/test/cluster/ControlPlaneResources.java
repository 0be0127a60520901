package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What one {@link LocalControlPlane} holds on this machine, and how it is given back: the temporary directory (with
 * the token file and service-account keys written into it), the two loopback ports, the etcd / kube-apiserver
 * process pair, and a JVM shutdown hook that kills the processes and deletes the directory if the JVM exits without
 * {@link #release()}. Released once: by {@link #release()} (close), by {@link #releaseAfterFailedStart()}, or by the
 * hook.
 *
 * <p>Not synchronized: the control plane calls {@link #release()} and {@link #releaseAfterFailedStart()} under its
 * own lock (or before it is published); {@link #isReleased()} may be read from any thread.
 *
 * @see ControlPlaneProcesses
 * @see ControlPlaneDirectory
 */
final class ControlPlaneResources {

	private final ControlPlaneDirectory directory;

	private final ControlPlanePorts ports;

	private final ControlPlaneCredentials credentials;

	private final ControlPlaneProcesses processes;

	private final Thread shutdownHook;

	private volatile boolean released;

	/**
	 * Creates the directory, allocates the ports, writes the credentials and registers the shutdown hook; starts no
	 * process.
	 * @param assets directory holding {@code kube-apiserver} and {@code etcd}
	 * @param eventTtl kube-apiserver's {@code --event-ttl}
	 * @param extraApiServerArgs flags appended to kube-apiserver's command line
	 * @param stateDirectory where the pid files go
	 * @throws UncheckedIOException when the directory cannot be prepared
	 */
	ControlPlaneResources(Path assets, Duration eventTtl, List<String> extraApiServerArgs, Path stateDirectory) {
		try {
			this.directory = ControlPlaneDirectory.create();
			this.ports = ControlPlanePorts.allocate();
			this.credentials = ControlPlaneCredentials.write(this.directory.tokenFile(), this.directory.saPublicKey(),
					this.directory.saPrivateKey());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not prepare the control plane's directory", ex);
		}
		ControlPlaneCommands commands = new ControlPlaneCommands(assets, this.directory, this.ports, eventTtl,
				extraApiServerArgs);
		this.processes = new ControlPlaneProcesses(commands, stateDirectory);
		this.shutdownHook = new Thread(() -> {
			this.processes.kill();
			this.directory.delete();
		}, "local-control-plane-shutdown");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/** The temporary directory with its layout and logs. */
	ControlPlaneDirectory directory() {
		return this.directory;
	}

	/** The loopback ports of etcd and kube-apiserver. */
	ControlPlanePorts ports() {
		return this.ports;
	}

	/** The identities' tokens, as written to the token file. */
	ControlPlaneCredentials credentials() {
		return this.credentials;
	}

	/** The etcd / kube-apiserver process pair. */
	ControlPlaneProcesses processes() {
		return this.processes;
	}

	/**
	 * Whether this was released (the control plane is closed).
	 * @return {@code true} after the first release
	 */
	boolean isReleased() {
		return this.released;
	}

	/** Stops both processes gracefully and deletes the directory and the pid files; no-op once released. */
	void release() {
		if (detach()) {
			this.processes.stop();
			this.directory.delete();
		}
	}

	/** After a failed start: stops whatever runs quickly and deletes the directory except the logs. */
	void releaseAfterFailedStart() {
		detach();
		this.processes.stopAfterFailedStart();
		this.directory.deleteAllButLogs();
	}

	/** Marks this released and removes the shutdown hook; {@code false} if it was released already. */
	private boolean detach() {
		if (this.released) {
			return false;
		}
		this.released = true;
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException shutdownInProgress) {
			// the hook runs anyway
		}
		return true;
	}

}
