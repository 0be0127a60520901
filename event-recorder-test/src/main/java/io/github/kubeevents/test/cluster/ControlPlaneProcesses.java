package io.github.kubeevents.test.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The etcd and kube-apiserver processes of one {@link LocalControlPlane} with their pid files (see
 * {@link LeftoverProcesses}) and kube-apiserver's frozen state: starting each and waiting until it is ready,
 * stopping, freezing and thawing kube-apiserver, and stopping both (gracefully on close, quickly after a failed
 * start, at once from a JVM shutdown hook). The serving certificate kube-apiserver writes on its first start is kept
 * for the clients. Not synchronized: the control plane calls the changing methods under its own lock; the fields are
 * volatile for its accessors and its shutdown hook.
 */
final class ControlPlaneProcesses {

	private final ControlPlaneCommands commands;

	private final Path stateDirectory;

	private volatile Process etcd;

	private volatile Process apiServer;

	private volatile Path etcdPidFile;

	private volatile Path apiServerPidFile;

	private volatile byte[] caCertificate;

	private volatile boolean frozen;

	/**
	 * Processes not started yet.
	 * @param commands their command lines (and the directory and ports they use)
	 * @param stateDirectory where their pid files go
	 */
	ControlPlaneProcesses(ControlPlaneCommands commands, Path stateDirectory) {
		this.commands = commands;
		this.stateDirectory = stateDirectory;
	}

	/**
	 * Where the pid files go.
	 * @return the state directory
	 */
	Path stateDirectory() {
		return this.stateDirectory;
	}

	/**
	 * PEM of kube-apiserver's serving certificate, read on its first start.
	 * @return the PEM (not a copy), {@code null} before
	 */
	byte[] caCertificate() {
		return this.caCertificate;
	}

	/**
	 * Starts etcd and waits until it is healthy.
	 * @param deadline from {@link Waits#deadline}
	 */
	void startEtcd(long deadline) {
		ControlPlaneDirectory directory = this.commands.directory();
		this.etcd = ProcessControl.launch("etcd", directory.etcdLog(), this.commands.etcd());
		this.etcdPidFile = LeftoverProcesses.register(this.stateDirectory, this.etcd.toHandle(), "etcd",
				directory.root());
		ControlPlaneReadiness.awaitEtcd(this.etcd, this.commands.ports().etcdUrl(), deadline);
	}

	/**
	 * Starts kube-apiserver and waits until it is ready (certificate written, {@code /readyz}, namespace
	 * {@code default}).
	 * @param cluster the control plane it serves, for the admin client
	 * @param deadline from {@link Waits#deadline}
	 * @param restart whether this is a restart (marked in its log)
	 */
	void startApiServer(KubernetesTestCluster cluster, long deadline, boolean restart) {
		ControlPlaneDirectory directory = this.commands.directory();
		if (restart) {
			directory.appendToApiServerLog("---- restarted by LocalControlPlane.startApiServer() ----");
		}
		Process process = ProcessControl.launch("kube-apiserver", directory.apiServerLog(), this.commands.apiServer());
		this.apiServer = process;
		this.apiServerPidFile = LeftoverProcesses.register(this.stateDirectory, process.toHandle(), "kube-apiserver",
				directory.root());

		Path crt = directory.apiServerCertificate();
		ControlPlaneReadiness.awaitCertificateFile(process, crt, deadline);
		if (this.caCertificate == null) {
			this.caCertificate = ControlPlaneReadiness.readCertificate(crt, deadline);
		}
		ControlPlaneReadiness.awaitApiServer(process, cluster, deadline);
	}

	/**
	 * Fails if kube-apiserver is running.
	 * @throws IllegalStateException if it is
	 */
	void requireApiServerStopped() {
		Process running = this.apiServer;
		if (running != null && running.isAlive()) {
			throw new IllegalStateException("kube-apiserver is already running (pid " + running.pid() + ")");
		}
	}

	/** Stops kube-apiserver (thawed first; SIGTERM, SIGKILL after 10 s) and deletes its pid file. Idempotent. */
	void stopApiServer() {
		Process p = this.apiServer;
		if (p != null && this.frozen) {
			ProcessControl.signal(p, "CONT");
		}
		this.frozen = false;
		this.apiServer = null;
		if (p != null) {
			ProcessControl.terminate(p, Duration.ofSeconds(10));
		}
		LeftoverProcesses.unregister(this.apiServerPidFile);
		this.apiServerPidFile = null;
	}

	/**
	 * Whether kube-apiserver is alive (frozen counts as alive).
	 * @return {@code true} if alive
	 */
	boolean isApiServerRunning() {
		Process p = this.apiServer;
		return p != null && p.isAlive();
	}

	/**
	 * SIGSTOP to kube-apiserver. Idempotent.
	 * @throws IllegalStateException when it is not running
	 */
	void freezeApiServer() {
		Process p = this.apiServer;
		if (p == null || !p.isAlive()) {
			throw new IllegalStateException("kube-apiserver is not running");
		}
		if (!this.frozen) {
			ProcessControl.signal(p, "STOP");
			this.frozen = true;
		}
	}

	/** SIGCONT to a frozen kube-apiserver. Idempotent. */
	void thawApiServer() {
		Process p = this.apiServer;
		if (this.frozen && p != null) {
			ProcessControl.signal(p, "CONT");
		}
		this.frozen = false;
	}

	/**
	 * Whether kube-apiserver is frozen.
	 * @return {@code true} between freeze and thaw
	 */
	boolean isApiServerFrozen() {
		return this.frozen;
	}

	/**
	 * Handles of the running processes.
	 * @return etcd first, then kube-apiserver if running
	 */
	List<ProcessHandle> handles() {
		List<ProcessHandle> handles = new ArrayList<>();
		Optional.ofNullable(this.etcd).map(Process::toHandle).ifPresent(handles::add);
		Optional.ofNullable(this.apiServer).map(Process::toHandle).ifPresent(handles::add);
		return handles;
	}

	/**
	 * Stops kube-apiserver (thawed first), then etcd (SIGTERM, SIGKILL after 5 s, descendants too), waits for them to
	 * exit and deletes their pid files. Every step runs even when an earlier one fails: a kube-apiserver that cannot
	 * be thawed or stopped does not keep etcd running. The pid file of a process that did not exit stays, so that the
	 * leftover clean-up of a later test JVM kills it.
	 * @throws IllegalStateException after all steps, naming each process that could not be stopped (the first
	 * failure is the cause, later ones are suppressed)
	 */
	void stop() {
		Process api = this.apiServer;
		Process db = this.etcd;
		boolean wasFrozen = this.frozen;
		this.apiServer = null;
		this.etcd = null;
		this.frozen = false;
		Failures failures = new Failures();
		if (api != null) {
			if (wasFrozen) {
				failures.run("kube-apiserver", api, () -> ProcessControl.signal(api, "CONT"));
			}
			failures.run("kube-apiserver", api, () -> ProcessControl.terminate(api, Duration.ofSeconds(5)));
		}
		if (db != null) {
			failures.run("etcd", db, () -> ProcessControl.terminate(db, Duration.ofSeconds(5)));
		}
		unregisterExited(api, this.apiServerPidFile);
		unregisterExited(db, this.etcdPidFile);
		failures.throwIfAny();
	}

	/**
	 * After a failed start: stops both with a short grace period (2 s), each even when the other cannot be stopped,
	 * and deletes the pid files of those that exited.
	 * @throws IllegalStateException after both, naming each process that could not be stopped
	 */
	void stopAfterFailedStart() {
		Process api = this.apiServer;
		Process db = this.etcd;
		this.apiServer = null;
		this.etcd = null;
		Failures failures = new Failures();
		if (api != null) {
			failures.run("kube-apiserver", api, () -> ProcessControl.terminate(api, Duration.ofSeconds(2)));
		}
		if (db != null) {
			failures.run("etcd", db, () -> ProcessControl.terminate(db, Duration.ofSeconds(2)));
		}
		unregisterExited(api, this.apiServerPidFile);
		unregisterExited(db, this.etcdPidFile);
		failures.throwIfAny();
	}

	/** JVM shutdown hook: SIGKILL to both without waiting long, and delete the pid files. */
	void kill() {
		for (Process p : new Process[] { this.apiServer, this.etcd }) {
			if (p != null) {
				ProcessControl.kill(p);
			}
		}
		unregisterBoth();
	}

	private void unregisterBoth() {
		LeftoverProcesses.unregister(this.apiServerPidFile);
		LeftoverProcesses.unregister(this.etcdPidFile);
	}

	/** Deletes the pid file of a process that is gone (or was never started). */
	private static void unregisterExited(Process process, Path pidFile) {
		if (process == null || !process.isAlive()) {
			LeftoverProcesses.unregister(pidFile);
		}
	}

	/** The steps of a stop that failed, collected so that the other steps still run. */
	private static final class Failures {

		private final List<String> messages = new ArrayList<>();

		private final List<RuntimeException> causes = new ArrayList<>();

		/** Runs a step; a failure is recorded with the process's name, pid and, if it is gone, its exit code. */
		void run(String name, Process process, Runnable step) {
			try {
				step.run();
			}
			catch (RuntimeException ex) {
				this.messages.add("could not stop " + name + " (pid " + process.pid()
						+ (process.isAlive() ? "" : ", which had exited with code " + process.exitValue()) + "): "
						+ ex.getMessage());
				this.causes.add(ex);
			}
		}

		/** @throws IllegalStateException naming every failure; the first is the cause, the others suppressed */
		void throwIfAny() {
			if (!this.causes.isEmpty()) {
				IllegalStateException all = new IllegalStateException(String.join("; ", this.messages),
						this.causes.get(0));
				this.causes.subList(1, this.causes.size()).forEach(all::addSuppressed);
				throw all;
			}
		}

	}

}
