package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real kube-apiserver backed by a local etcd, both plain processes (the controller-runtime "envtest" convention:
 * no kubelet, no controllers, no Docker).
 *
 * <p>Both processes listen on free loopback ports; everything they write (etcd data, the apiserver's self-signed
 * serving certificate, the token file, the service-account key pair, and the {@code etcd.log} /
 * {@code kube-apiserver.log} files) lives in one temporary directory ({@code kube-events-local-cp-*}) that
 * {@link #close()} deletes. The binaries come from {@link EnvtestAssets} unless
 * {@link Builder#assetsDirectory(Path) given}.
 *
 * <p>Identities (static tokens, {@code --token-auth-file}):
 * <ul>
 *   <li>{@value #ADMIN_USER}, in group {@code system:masters}: may do anything.</li>
 *   <li>{@value #RESTRICTED_USER}, no group: bound to ClusterRole {@code kubeevents-test-restricted}, which allows
 *       get/list/watch on Events (core and events.k8s.io) and Nodes, nothing else; creating an Event answers
 *       403.</li>
 * </ul>
 * The apiserver also has a service-account key pair and issuer, so TokenRequests for ServiceAccounts work.
 *
 * <p>Admission: the defaults minus {@code ServiceAccount} (no token controller runs). {@code NamespaceLifecycle}
 * stays on, so creating anything in a missing namespace answers 404, and a deleted namespace stays
 * {@code Terminating} ({@link Capability#NAMESPACES_STAY_TERMINATING}).
 *
 * <p>Leftovers: every process gets a pid file in a state directory ({@code ${java.io.tmpdir}/kube-events-test-cluster}
 * unless {@link Builder#stateDirectory(Path) given} or set by {@code -Dkubeevents.test.cluster.state-dir}); each
 * {@link Builder#start()} first kills the processes of test JVMs that died without stopping theirs (SIGKILL, a CI
 * timeout) and removes their directories. A JVM shutdown hook kills this instance's processes if the JVM exits
 * without {@link #close()}.
 *
 * <pre>{@code
 * try (LocalControlPlane cp = LocalControlPlane.builder().eventTtl(Duration.ofSeconds(5)).start()) {
 *     new CoreV1Api(cp.adminClient()).listNamespace().execute();
 * }
 * }</pre>
 *
 * <p>Thread-safe: the lifecycle methods are synchronized; accessors may be called from any thread.
 */
public final class LocalControlPlane implements KubernetesTestCluster {

	/** User name of the {@code system:masters} identity. */
	public static final String ADMIN_USER = "admin";

	/** User name of the restricted identity. */
	public static final String RESTRICTED_USER = "restricted";

	/** The {@code --event-ttl} used when the builder is not told otherwise (kube-apiserver's own default). */
	public static final Duration DEFAULT_EVENT_TTL = Duration.ofHours(1);

	/** The startup timeout used when the builder is not told otherwise. */
	public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(90);

	private static final Logger logger = LoggerFactory.getLogger(LocalControlPlane.class);

	private final Path assets;

	private final Duration eventTtl;

	private final Duration startupTimeout;

	private final List<String> extraApiServerArgs;

	private final Path stateDirectory;

	private final LeftoverProcesses.Report leftoverReport;

	private final ControlPlaneDirectory directory;

	private final ControlPlanePorts ports;

	private final ControlPlaneCredentials credentials;

	private final Thread shutdownHook;

	private volatile Process etcd;

	private volatile Process apiServer;

	private volatile Path etcdPidFile;

	private volatile Path apiServerPidFile;

	private volatile byte[] caCertificate;

	private volatile Duration startupTime;

	private volatile Duration lastApiServerStartupTime;

	private volatile boolean frozen;

	private volatile boolean closed;

	/**
	 * A builder for a new, separate control plane.
	 * @return a new builder with the defaults
	 */
	public static Builder builder() {
		return new Builder();
	}

	/** Options of a new control plane. Not thread-safe; use one builder per start. */
	public static final class Builder {

		private Path assets;

		private Duration eventTtl = DEFAULT_EVENT_TTL;

		private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;

		private Path stateDirectory;

		private final List<String> extraApiServerArgs = new ArrayList<>();

		private Builder() {
		}

		/**
		 * Directory holding {@code kube-apiserver} and {@code etcd}.
		 * @param directory the directory; default: {@link EnvtestAssets#locate()}
		 * @return this builder
		 */
		public Builder assetsDirectory(Path directory) {
			this.assets = Objects.requireNonNull(directory, "directory");
			return this;
		}

		/**
		 * {@code --event-ttl}: how long the apiserver keeps an Event after its last write.
		 * @param ttl a positive duration; default {@link #DEFAULT_EVENT_TTL}
		 * @return this builder
		 * @throws IllegalArgumentException if not positive
		 */
		public Builder eventTtl(Duration ttl) {
			if (ttl.isNegative() || ttl.isZero()) {
				throw new IllegalArgumentException("eventTtl must be positive: " + ttl);
			}
			this.eventTtl = ttl;
			return this;
		}

		/**
		 * How long etcd + kube-apiserver may take to become ready (also for each {@link #startApiServer()}).
		 * @param timeout the timeout; default {@link #DEFAULT_STARTUP_TIMEOUT}
		 * @return this builder
		 */
		public Builder startupTimeout(Duration timeout) {
			this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
			return this;
		}

		/**
		 * An extra kube-apiserver flag, e.g. {@code --max-requests-inflight=10}; added after the built-in flags, so it
		 * wins over them.
		 * @param flag the flag with its value
		 * @return this builder
		 */
		public Builder apiServerArg(String flag) {
			this.extraApiServerArgs.add(Objects.requireNonNull(flag, "flag"));
			return this;
		}

		/**
		 * Where pid files are kept (see the class comment).
		 * @param directory the directory; default {@code -Dkubeevents.test.cluster.state-dir}, else
		 * {@code ${java.io.tmpdir}/kube-events-test-cluster}
		 * @return this builder
		 */
		public Builder stateDirectory(Path directory) {
			this.stateDirectory = Objects.requireNonNull(directory, "directory");
			return this;
		}

		/**
		 * Cleans up leftovers of killed test JVMs, starts etcd and kube-apiserver, sets up both identities and waits
		 * until all of it works. Without an explicit assets directory and with no binaries found, this skips the
		 * calling test ({@link org.junit.jupiter.api.Assumptions#abort(String)}), or throws
		 * {@link IllegalStateException} under {@code CI=true}.
		 * @return the running control plane; the caller must {@link LocalControlPlane#close()} it
		 * @throws IllegalStateException when a process does not start or become ready in time (the message holds the
		 * tail of both logs)
		 */
		public LocalControlPlane start() {
			Path dir = this.assets;
			if (dir == null) {
				EnvtestAssets.Result located = EnvtestAssets.locate();
				dir = located.directory()
					.orElseGet(() -> Availability.unavailable(TestClusterBackend.LOCAL, located.reason()));
			}
			Path state = (this.stateDirectory != null) ? this.stateDirectory
					: LeftoverProcesses.defaultStateDirectory();
			LeftoverProcesses.Report report = LeftoverProcesses.cleanUp(state);
			LocalControlPlane cp = new LocalControlPlane(dir, this.eventTtl, this.startupTimeout,
					List.copyOf(this.extraApiServerArgs), state, report);
			cp.startAll();
			return cp;
		}

	}

	private LocalControlPlane(Path assets, Duration eventTtl, Duration startupTimeout, List<String> extraApiServerArgs,
			Path stateDirectory, LeftoverProcesses.Report leftoverReport) {
		this.assets = assets;
		this.eventTtl = eventTtl;
		this.startupTimeout = startupTimeout;
		this.extraApiServerArgs = extraApiServerArgs;
		this.stateDirectory = stateDirectory;
		this.leftoverReport = leftoverReport;
		try {
			this.directory = ControlPlaneDirectory.create();
			this.ports = ControlPlanePorts.allocate();
			this.credentials = ControlPlaneCredentials.write(this.directory.tokenFile(),
					this.directory.saPublicKey(), this.directory.saPrivateKey());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not prepare the control plane's directory", ex);
		}
		this.shutdownHook = new Thread(this::killAll, "local-control-plane-shutdown");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	// ------------------------------------------------------------------------------------------------ public API

	/**
	 * {@link TestClusterBackend#LOCAL}.
	 * @return {@link TestClusterBackend#LOCAL}
	 */
	@Override
	public TestClusterBackend backend() {
		return TestClusterBackend.LOCAL;
	}

	/**
	 * {@code https://127.0.0.1:<port>}; the port stays the same across {@link #stopApiServer()} /
	 * {@link #startApiServer()}.
	 * @return the base URL
	 */
	@Override
	public String baseUrl() {
		return this.ports.apiServerUrl();
	}

	/**
	 * PEM of the apiserver's self-signed serving certificate ({@code <cert-dir>/apiserver.crt}), which is its own CA.
	 * @return a copy of the PEM
	 * @throws IllegalStateException before the apiserver has written it
	 */
	@Override
	public byte[] caCertificate() {
		byte[] ca = this.caCertificate;
		if (ca == null) {
			throw new IllegalStateException("kube-apiserver has not written its certificate yet");
		}
		return ca.clone();
	}

	/**
	 * The static token of an identity.
	 * @param identity which one
	 * @return its token (48 hex digits)
	 */
	@Override
	public String token(Identity identity) {
		return this.credentials.token(identity);
	}

	/**
	 * {@value #RESTRICTED_USER}.
	 * @return {@value #RESTRICTED_USER}
	 */
	@Override
	public String restrictedUserName() {
		return RESTRICTED_USER;
	}

	/**
	 * The {@code --event-ttl} of this apiserver.
	 * @return the TTL
	 */
	@Override
	public Duration eventTtl() {
		return this.eventTtl;
	}

	/**
	 * Time from {@link Builder#start()} (after the leftover clean-up) until the apiserver was ready and the
	 * identities were set up.
	 * @return the duration
	 */
	@Override
	public Duration startupTime() {
		return this.startupTime;
	}

	/**
	 * Stops kube-apiserver (SIGTERM, SIGKILL after 10 s); etcd keeps running, so data survives. Idempotent.
	 * @throws IllegalStateException when closed
	 */
	@Override
	public synchronized void stopApiServer() {
		checkOpen();
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
	 * Starts kube-apiserver again on the same port with the same flags and waits until it is ready.
	 * @throws IllegalStateException when closed, when it is already running, or when it does not become ready in
	 * time (the message holds the tail of its log)
	 */
	@Override
	public synchronized void startApiServer() {
		checkOpen();
		Process running = this.apiServer;
		if (running != null && running.isAlive()) {
			throw new IllegalStateException("kube-apiserver is already running (pid " + running.pid() + ")");
		}
		long t0 = System.nanoTime();
		try {
			launchApiServer(Waits.deadline(this.startupTimeout), false);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("kube-apiserver did not restart: " + ex.getMessage() + "\n" + this.directory.logReport(),
					ex);
		}
		this.lastApiServerStartupTime = Duration.ofNanos(System.nanoTime() - t0);
	}

	/**
	 * Whether the kube-apiserver process is alive (frozen counts as alive).
	 * @return {@code true} if alive
	 */
	@Override
	public boolean isApiServerRunning() {
		Process p = this.apiServer;
		return p != null && p.isAlive();
	}

	/**
	 * SIGSTOP to kube-apiserver: the kernel still accepts connections on its port, but nothing answers until
	 * {@link #thawApiServer()}. Idempotent.
	 * @throws IllegalStateException when closed or when the apiserver is stopped
	 */
	@Override
	public synchronized void freezeApiServer() {
		checkOpen();
		Process p = this.apiServer;
		if (p == null || !p.isAlive()) {
			throw new IllegalStateException("kube-apiserver is not running");
		}
		if (!this.frozen) {
			ProcessControl.signal(p, "STOP");
			this.frozen = true;
		}
	}

	/**
	 * SIGCONT to a frozen kube-apiserver. Idempotent.
	 * @throws IllegalStateException when closed
	 */
	@Override
	public synchronized void thawApiServer() {
		checkOpen();
		Process p = this.apiServer;
		if (this.frozen && p != null) {
			ProcessControl.signal(p, "CONT");
		}
		this.frozen = false;
	}

	/**
	 * Whether {@link #freezeApiServer()} is in effect.
	 * @return {@code true} between freeze and thaw
	 */
	@Override
	public boolean isApiServerFrozen() {
		return this.frozen;
	}

	/**
	 * Time the last {@link #startApiServer()} took until ready.
	 * @return the duration, {@code null} before the first restart
	 */
	public Duration lastApiServerStartupTime() {
		return this.lastApiServerStartupTime;
	}

	/**
	 * The temporary directory holding data, certificates and logs (deleted by {@link #close()}).
	 * @return the directory
	 */
	public Path directory() {
		return this.directory.root();
	}

	/**
	 * The directory holding this instance's pid files.
	 * @return the state directory
	 */
	public Path stateDirectory() {
		return this.stateDirectory;
	}

	/**
	 * Log file of kube-apiserver (stdout and stderr; restarts append).
	 * @return the file
	 */
	public Path apiServerLog() {
		return this.directory.apiServerLog();
	}

	/**
	 * Log file of etcd (stdout and stderr).
	 * @return the file
	 */
	public Path etcdLog() {
		return this.directory.etcdLog();
	}

	/**
	 * {@code http://127.0.0.1:<port>} of etcd.
	 * @return the URL
	 */
	public String etcdUrl() {
		return this.ports.etcdUrl();
	}

	/**
	 * Handles of the running processes, e.g. to check that they die.
	 * @return etcd first, then kube-apiserver if running; empty after {@link #close()}
	 */
	public List<ProcessHandle> processes() {
		List<ProcessHandle> handles = new ArrayList<>();
		Optional.ofNullable(this.etcd).map(Process::toHandle).ifPresent(handles::add);
		Optional.ofNullable(this.apiServer).map(Process::toHandle).ifPresent(handles::add);
		return handles;
	}

	/** What the leftover clean-up before this start did (for tests of the clean-up). */
	LeftoverProcesses.Report leftoverReport() {
		return this.leftoverReport;
	}

	/**
	 * Kills kube-apiserver and etcd (SIGTERM, SIGKILL after 5 s, descendants too), waits for them to exit, deletes
	 * the directory and the pid files. Idempotent.
	 */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException shutdownInProgress) {
			// the hook runs anyway
		}
		Process api = this.apiServer;
		Process db = this.etcd;
		this.apiServer = null;
		this.etcd = null;
		if (api != null) {
			if (this.frozen) {
				ProcessControl.signal(api, "CONT");
			}
			ProcessControl.terminate(api, Duration.ofSeconds(5));
		}
		if (db != null) {
			ProcessControl.terminate(db, Duration.ofSeconds(5));
		}
		this.frozen = false;
		LeftoverProcesses.unregister(this.apiServerPidFile);
		LeftoverProcesses.unregister(this.etcdPidFile);
		this.directory.delete();
	}

	/**
	 * For logs.
	 * @return URLs, TTL and directory
	 */
	@Override
	public String toString() {
		return "LocalControlPlane[" + baseUrl() + ", etcd " + etcdUrl() + ", eventTtl " + this.eventTtl + ", dir "
				+ this.directory.root() + "]";
	}

	// ------------------------------------------------------------------------------------------------ startup

	private void startAll() {
		long t0 = System.nanoTime();
		long deadline = Waits.deadline(this.startupTimeout);
		try {
			launchEtcd(deadline);
			launchApiServer(deadline, true);
			RestrictedAccess.grant(adminClient(),
					RestrictedAccess.binding(RestrictedAccess.ROLE, RestrictedAccess.ROLE, RestrictedAccess.user(RESTRICTED_USER)));
			RestrictedAccess.awaitEffective(restrictedClient(), deadline);
		}
		catch (RuntimeException | Error ex) {
			String report = this.directory.logReport();
			closeKeepingLogs();
			throw new IllegalStateException("local control plane did not start: " + ex.getMessage() + "\n" + report,
					ex);
		}
		this.startupTime = Duration.ofNanos(System.nanoTime() - t0);
		logger.info("{} ready in {} ms", this, this.startupTime.toMillis());
	}

	private void launchEtcd(long deadline) {
		String client = etcdUrl();
		String peer = this.ports.etcdPeerUrl();
		this.etcd = ProcessControl.launch("etcd", this.directory.etcdLog(), List.of(this.assets.resolve("etcd").toString(), "--name=envtest",
				"--data-dir=" + this.directory.etcdData(), "--listen-client-urls=" + client, "--advertise-client-urls=" + client,
				"--listen-peer-urls=" + peer, "--initial-advertise-peer-urls=" + peer,
				"--initial-cluster=envtest=" + peer, "--initial-cluster-state=new", "--unsafe-no-fsync=true",
				"--log-level=warn"));
		this.etcdPidFile = LeftoverProcesses.register(this.stateDirectory, this.etcd.toHandle(), "etcd", this.directory.root());
		ControlPlaneReadiness.awaitEtcd(this.etcd, client, deadline);
	}

	/** The kube-apiserver command line. */
	List<String> apiServerCommand() {
		List<String> cmd = new ArrayList<>(List.of(this.assets.resolve("kube-apiserver").toString(),
				"--bind-address=" + ControlPlanePorts.LOOPBACK, "--advertise-address=" + ControlPlanePorts.LOOPBACK,
				"--secure-port=" + this.ports.apiServer(),
				"--etcd-servers=" + etcdUrl(), "--cert-dir=" + this.directory.certs(), "--authorization-mode=RBAC",
				"--token-auth-file=" + this.directory.tokenFile(),
				"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
				"--service-account-key-file=" + this.directory.saPublicKey(),
				"--service-account-signing-key-file=" + this.directory.saPrivateKey(), "--service-cluster-ip-range=10.0.0.0/24",
				"--disable-admission-plugins=ServiceAccount", "--allow-privileged=true",
				// the "kubernetes" Service cannot point at a loopback address; nothing here needs it
				"--endpoint-reconciler-type=none", "--event-ttl=" + Durations.toGo(this.eventTtl)));
		cmd.addAll(this.extraApiServerArgs);
		return cmd;
	}

	private void launchApiServer(long deadline, boolean first) {
		if (!first) {
			this.directory.appendToApiServerLog("---- restarted by LocalControlPlane.startApiServer() ----");
		}
		Process process = ProcessControl.launch("kube-apiserver", this.directory.apiServerLog(), apiServerCommand());
		this.apiServer = process;
		this.apiServerPidFile = LeftoverProcesses.register(this.stateDirectory, process.toHandle(), "kube-apiserver",
				this.directory.root());

		Path crt = this.directory.apiServerCertificate();
		ControlPlaneReadiness.awaitCertificateFile(process, crt, deadline);
		if (this.caCertificate == null) {
			this.caCertificate = ControlPlaneReadiness.readCertificate(crt, deadline);
		}
		ControlPlaneReadiness.awaitApiServer(process, this, deadline);
	}

	// ------------------------------------------------------------------------------------------------ processes

	/** Shutdown hook: kill everything without waiting long. */
	private void killAll() {
		for (Process p : new Process[] { this.apiServer, this.etcd }) {
			if (p != null) {
				ProcessControl.kill(p);
			}
		}
		LeftoverProcesses.unregister(this.apiServerPidFile);
		LeftoverProcesses.unregister(this.etcdPidFile);
		this.directory.delete();
	}

	/** After a failed start: kill the processes, delete everything but the log files. */
	private void closeKeepingLogs() {
		this.closed = true;
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ignored) {
			// shutting down
		}
		for (Process p : new Process[] { this.apiServer, this.etcd }) {
			if (p != null) {
				ProcessControl.terminate(p, Duration.ofSeconds(2));
			}
		}
		this.apiServer = null;
		this.etcd = null;
		LeftoverProcesses.unregister(this.apiServerPidFile);
		LeftoverProcesses.unregister(this.etcdPidFile);
		this.directory.deleteAllButLogs();
	}

	private void checkOpen() {
		if (this.closed) {
			throw new IllegalStateException("control plane is closed");
		}
	}

}
