package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real kube-apiserver backed by a local etcd, both plain processes (the controller-runtime "envtest" convention:
 * no kubelet, no controllers, no Docker).
 *
 * <p>Both processes listen on free loopback ports ({@link #baseUrl()} is {@code https://127.0.0.1:<port>});
 * everything they write (etcd data, the apiserver's self-signed serving certificate, which is its own CA and so
 * {@link #caCertificate()}, the token file, the service-account key pair, and the {@code etcd.log} /
 * {@code kube-apiserver.log} files) lives in one temporary directory ({@code kube-events-local-cp-*}) that
 * {@link #close()} deletes. The binaries come from {@link EnvtestAssets} unless
 * {@link Builder#assetsDirectory(Path) given}.
 *
 * <p>Identities (static tokens of 48 hex digits, {@code --token-auth-file}):
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
 * <p>Processes: {@link #stopApiServer()} sends kube-apiserver SIGTERM (SIGKILL after 10 s) while etcd keeps running,
 * so data survives; {@link #startApiServer()} starts it again on the same port with the same flags.
 * {@link #freezeApiServer()} sends it SIGSTOP (the kernel still accepts connections on its port, but nothing answers;
 * it throws {@link IllegalStateException} when the apiserver is stopped), {@link #thawApiServer()} SIGCONT.
 * {@link #close()} sends both processes SIGTERM (SIGKILL after 5 s, descendants too), waits for them to exit (also
 * on an interrupted thread, whose interrupt stays set) and deletes the directory and the pid files. Each of those
 * steps runs even when an earlier one fails (e.g. a frozen kube-apiserver that was killed from outside cannot be
 * thawed): etcd is stopped and the directory deleted all the same, and {@link #close()} then throws an
 * {@link IllegalStateException} naming what could not be stopped. After {@link #close()} these methods throw
 * {@link IllegalStateException} ({@link #close()} itself is idempotent: a second call does nothing).
 *
 * <p>Leftovers: every process gets a pid file in a state directory ({@code ${java.io.tmpdir}/kube-events-test-cluster}
 * unless {@link Builder#stateDirectory(Path) given} or set by
 * {@code -Dkubeevents.test.cluster.state-dir}); each {@link Builder#start()} first kills the
 * processes of test JVMs that died without stopping theirs (SIGKILL, a CI timeout) and removes their directories. A
 * JVM shutdown hook kills this instance's processes if the JVM exits without {@link #close()}. Another shutdown hook
 * runs at the same time, so an application still writing to this control plane as its own shutdown hook stops it
 * (Spring Boot closing its context) would lose its last writes: its owner {@link #bindToOwner binds} it, and the
 * hook then closes the owner first and kills only what is left.
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

	private final Duration eventTtl;

	private final Duration startupTimeout;

	private final LeftoverProcesses.Report leftoverReport;

	private final ControlPlaneDirectory directory;

	private final ControlPlanePorts ports;

	private final ControlPlaneCredentials credentials;

	private final ControlPlaneProcesses processes;

	/** Kills the processes and deletes the directory if the JVM exits without {@link #close()}. */
	private final Thread shutdownHook;

	/** Set once, by {@link #close()}, a failed start, or the shutdown hook's removal. */
	private volatile boolean released;

	/** Counted down when {@link #close()} has stopped everything (or a start failed). */
	private final CountDownLatch closed = new CountDownLatch(1);

	/** What the shutdown hook runs before it kills anything, with how long it then waits; {@code null} unbound. */
	private volatile Owner owner;

	private volatile Duration startupTime;

	private volatile Duration lastApiServerStartupTime;

	/**
	 * A builder for a new, separate control plane.
	 * @return a new builder with the defaults
	 */
	public static Builder builder() {
		return new Builder();
	}

	/** Starts a control plane for {@link Builder#start()}, after its leftover clean-up. */
	static LocalControlPlane start(Path assets, Duration eventTtl, Duration startupTimeout,
			List<String> extraApiServerArgs, Map<String, String> admissionPlugins, Path stateDirectory,
			LeftoverProcesses.Report leftoverReport) {
		LocalControlPlane cp = new LocalControlPlane(assets, eventTtl, startupTimeout, extraApiServerArgs,
				admissionPlugins, stateDirectory, leftoverReport);
		cp.startAll();
		return cp;
	}

	private LocalControlPlane(Path assets, Duration eventTtl, Duration startupTimeout, List<String> extraApiServerArgs,
			Map<String, String> admissionPlugins, Path stateDirectory, LeftoverProcesses.Report leftoverReport) {
		this.eventTtl = eventTtl;
		this.startupTimeout = startupTimeout;
		this.leftoverReport = leftoverReport;
		List<String> apiServerArgs = new ArrayList<>();
		try {
			this.directory = ControlPlaneDirectory.create();
			this.ports = ControlPlanePorts.allocate();
			this.credentials = ControlPlaneCredentials.write(this.directory.tokenFile(), this.directory.saPublicKey(),
					this.directory.saPrivateKey());
			apiServerArgs.addAll(AdmissionConfiguration.flags(admissionPlugins, this.directory.root()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not prepare the control plane's directory", ex);
		}
		apiServerArgs.addAll(extraApiServerArgs);
		ControlPlaneCommands commands = new ControlPlaneCommands(assets, this.directory, this.ports, eventTtl,
				apiServerArgs);
		this.processes = new ControlPlaneProcesses(commands, stateDirectory);
		this.shutdownHook = new Thread(this::onJvmShutdown, "local-control-plane-shutdown");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	@Override
	public TestClusterBackend backend() {
		return TestClusterBackend.LOCAL;
	}

	@Override
	public String baseUrl() {
		return this.ports.apiServerUrl();
	}

	@Override
	public byte[] caCertificate() {
		byte[] ca = this.processes.caCertificate();
		if (ca == null) {
			throw new IllegalStateException("kube-apiserver has not written its certificate yet");
		}
		return ca.clone();
	}

	@Override
	public String token(Identity identity) {
		return this.credentials.token(identity);
	}

	@Override
	public String restrictedUserName() {
		return RESTRICTED_USER;
	}

	@Override
	public Duration eventTtl() {
		return this.eventTtl;
	}

	/** {@inheritDoc} Measured from after the leftover clean-up of {@link Builder#start()}. */
	@Override
	public Duration startupTime() {
		return this.startupTime;
	}

	@Override
	public synchronized void stopApiServer() {
		checkOpen();
		this.processes.stopApiServer();
	}

	@Override
	public synchronized void startApiServer() {
		checkOpen();
		this.processes.requireApiServerStopped();
		long t0 = System.nanoTime();
		try {
			this.processes.startApiServer(this, Waits.deadline(this.startupTimeout), true);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException(
					"kube-apiserver did not restart: " + ex.getMessage() + "\n" + this.directory.logReport(), ex);
		}
		this.lastApiServerStartupTime = Duration.ofNanos(System.nanoTime() - t0);
	}

	@Override
	public boolean isApiServerRunning() {
		return this.processes.isApiServerRunning();
	}

	@Override
	public synchronized void freezeApiServer() {
		checkOpen();
		this.processes.freezeApiServer();
	}

	@Override
	public synchronized void thawApiServer() {
		checkOpen();
		this.processes.thawApiServer();
	}

	@Override
	public boolean isApiServerFrozen() {
		return this.processes.isApiServerFrozen();
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
		return this.processes.stateDirectory();
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
		return this.processes.handles();
	}

	/** What the leftover clean-up before this start did (for tests of the clean-up). */
	LeftoverProcesses.Report leftoverReport() {
		return this.leftoverReport;
	}

	/**
	 * Binds this control plane to an owner that closes it when the owner itself closes, e.g. the Spring application
	 * context whose bean it is and whose recorder writes to it. If the JVM exits before that, its shutdown hook
	 * first runs {@code closeOwner} (closing the context, which returns at once when Spring Boot's own shutdown hook
	 * is closing it already), then waits up to {@code closeTimeout} for this control plane's {@link #close()}, and
	 * only then kills what is still running. Unbound, the hook kills at once, while any other shutdown hook (the one
	 * closing the context) still runs: the application's last writes would find no API server. The last call wins.
	 * @param closeOwner closes the owner, and so this control plane; exceptions are logged
	 * @param closeTimeout how long the hook waits for {@link #close()} after {@code closeOwner} returned
	 */
	public void bindToOwner(Runnable closeOwner, Duration closeTimeout) {
		this.owner = new Owner(Objects.requireNonNull(closeOwner, "closeOwner"),
				Objects.requireNonNull(closeTimeout, "closeTimeout"));
	}

	/**
	 * What the JVM shutdown hook does: closes the owner, if bound, and waits for {@link #close()}; then kills the
	 * processes and deletes the directory unless that close finished. Package-private for tests, which cannot make
	 * the JVM run its hooks.
	 */
	void onJvmShutdown() {
		Owner bound = this.owner;
		if (bound != null) {
			try {
				bound.closeOwner().run();
			}
			catch (RuntimeException | Error ex) {
				logger.warn("{}: closing its owner at JVM shutdown failed: {}", this, ex.toString());
			}
			try {
				if (this.closed.await(bound.closeTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
					return;
				}
				logger.warn("{}: its owner did not close it within {} ms of the JVM shutdown; killing it", this,
						bound.closeTimeout().toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.processes.kill();
		this.directory.delete();
	}

	@Override
	public synchronized void close() {
		if (!detach()) {
			return;
		}
		RuntimeException failure = null;
		try {
			this.processes.stop();
		}
		catch (RuntimeException ex) {
			failure = ex;
		}
		this.directory.delete();
		this.closed.countDown();
		if (failure != null) {
			throw new IllegalStateException("closed the local control plane, but " + failure.getMessage(), failure);
		}
	}

	@Override
	public String toString() {
		return "LocalControlPlane[" + baseUrl() + ", etcd " + etcdUrl() + ", eventTtl " + this.eventTtl + ", dir "
				+ this.directory.root() + "]";
	}

	private void startAll() {
		long t0 = System.nanoTime();
		long deadline = Waits.deadline(this.startupTimeout);
		try {
			this.processes.startEtcd(deadline);
			this.processes.startApiServer(this, deadline, false);
			RestrictedAccess.grant(adminClient(), RestrictedAccess.binding(RestrictedAccess.ROLE, RestrictedAccess.ROLE,
					RestrictedAccess.user(RESTRICTED_USER)));
			RestrictedAccess.awaitEffective(restrictedClient(), deadline);
		}
		catch (RuntimeException | Error ex) {
			String report = this.directory.logReport();
			detach();
			try {
				this.processes.stopAfterFailedStart();
			}
			catch (RuntimeException stopFailure) {
				ex.addSuppressed(stopFailure);
			}
			this.directory.deleteAllButLogs();
			throw new IllegalStateException("local control plane did not start: " + ex.getMessage() + "\n" + report,
					ex);
		}
		this.startupTime = Duration.ofNanos(System.nanoTime() - t0);
		logger.info("{} ready in {} ms", this, this.startupTime.toMillis());
	}

	private void checkOpen() {
		if (this.released) {
			throw new IllegalStateException("control plane is closed");
		}
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

	/**
	 * The owner a control plane is bound to ({@link LocalControlPlane#bindToOwner}).
	 * @param closeOwner closes the owner
	 * @param closeTimeout how long to wait for the control plane's close afterwards
	 */
	private record Owner(Runnable closeOwner, Duration closeTimeout) {
	}

	/**
	 * Options of a new {@link LocalControlPlane}, from {@link LocalControlPlane#builder()}; {@link #start()} starts it.
	 *
	 * <p>Not thread-safe; use one builder per start.
	 */
	public static final class Builder {

		private Path assets;

		private Duration eventTtl = LocalControlPlane.DEFAULT_EVENT_TTL;

		private Duration startupTimeout = LocalControlPlane.DEFAULT_STARTUP_TIMEOUT;

		private Path stateDirectory;

		private final List<String> extraApiServerArgs = new ArrayList<>();

		private final Map<String, String> admissionPlugins = new LinkedHashMap<>();

		/** Use {@link LocalControlPlane#builder()}. */
		Builder() {
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
		 * @param ttl a positive duration; default {@link LocalControlPlane#DEFAULT_EVENT_TTL}
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
		 * How long etcd + kube-apiserver may take to become ready (also for each
		 * {@link LocalControlPlane#startApiServer()}).
		 * @param timeout the timeout; default {@link LocalControlPlane#DEFAULT_STARTUP_TIMEOUT}
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
		 * Enables an admission plugin on top of kube-apiserver's defaults, with its configuration, e.g. the
		 * EventRateLimit plugin:
		 * <pre>{@code
		 * LocalControlPlane.builder()
		 *     .admissionPlugin("EventRateLimit", """
		 *         apiVersion: eventratelimit.admission.k8s.io/v1alpha1
		 *         kind: Configuration
		 *         limits:
		 *         - type: Namespace
		 *           qps: 1
		 *           burst: 3
		 *         """)
		 *     .start();
		 * }</pre>
		 * The plugins are given as {@code --enable-admission-plugins}; the configurations are written into one
		 * {@code AdmissionConfiguration} file in the control plane's directory, given as
		 * {@code --admission-control-config-file}. Such a control plane is the caller's own; for a test class,
		 * start it in {@code @BeforeAll} and close it in {@code @AfterAll} (a shared cluster has no extra flags).
		 * @param name the plugin's name, e.g. {@code EventRateLimit}
		 * @param configuration the plugin's configuration as YAML (embedded in the file as it is), or {@code ""}
		 * for a plugin without one
		 * @return this builder
		 */
		public Builder admissionPlugin(String name, String configuration) {
			this.admissionPlugins.put(Objects.requireNonNull(name, "name"),
					Objects.requireNonNull(configuration, "configuration"));
			return this;
		}

		/**
		 * Where pid files are kept (see the {@link LocalControlPlane} class comment).
		 * @param directory the directory; default {@code -Dkubeevents.test.cluster.state-dir}, else
		 * {@code ${java.io.tmpdir}/kube-events-test-cluster}
		 * @return this builder
		 */
		public Builder stateDirectory(Path directory) {
			this.stateDirectory = Objects.requireNonNull(directory, "directory");
			return this;
		}

		/**
		 * Cleans up leftovers of killed test JVMs, starts etcd and kube-apiserver, sets up both identities and waits until
		 * all of it works. Without an explicit assets directory and with no binaries found, this skips the calling test
		 * ({@link org.junit.jupiter.api.Assumptions#abort(String)}), or throws {@link IllegalStateException} under
		 * {@code CI=true}.
		 * @return the running control plane; the caller must {@link LocalControlPlane#close()} it
		 * @throws IllegalStateException when a process does not start or become ready in time (the message holds the tail
		 * of both logs)
		 */
		public LocalControlPlane start() {
			Path dir = this.assets;
			if (dir == null) {
				EnvtestAssets.Result located = EnvtestAssets.locate();
				dir = located.directory()
					.orElseGet(() -> Availability.unavailable(TestClusterBackend.LOCAL, located.reason()));
			}
			Path state = (this.stateDirectory != null) ? this.stateDirectory : LeftoverProcesses.defaultStateDirectory();
			LeftoverProcesses.Report report = LeftoverProcesses.cleanUp(state);
			return LocalControlPlane.start(dir, this.eventTtl, this.startupTimeout, List.copyOf(this.extraApiServerArgs),
					new LinkedHashMap<>(this.admissionPlugins),
					state, report);
		}

	}

}
