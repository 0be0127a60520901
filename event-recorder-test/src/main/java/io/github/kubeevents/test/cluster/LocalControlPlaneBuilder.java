package io.github.kubeevents.test.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Options of a new {@link LocalControlPlane}, from {@link LocalControlPlane#builder()}; {@link #start()} starts it.
 *
 * <p>Not thread-safe; use one builder per start.
 */
public final class LocalControlPlaneBuilder {

	private Path assets;

	private Duration eventTtl = LocalControlPlane.DEFAULT_EVENT_TTL;

	private Duration startupTimeout = LocalControlPlane.DEFAULT_STARTUP_TIMEOUT;

	private Path stateDirectory;

	private final List<String> extraApiServerArgs = new ArrayList<>();

	/** Use {@link LocalControlPlane#builder()}. */
	LocalControlPlaneBuilder() {
	}

	/**
	 * Directory holding {@code kube-apiserver} and {@code etcd}.
	 * @param directory the directory; default: {@link EnvtestAssets#locate()}
	 * @return this builder
	 */
	public LocalControlPlaneBuilder assetsDirectory(Path directory) {
		this.assets = Objects.requireNonNull(directory, "directory");
		return this;
	}

	/**
	 * {@code --event-ttl}: how long the apiserver keeps an Event after its last write.
	 * @param ttl a positive duration; default {@link LocalControlPlane#DEFAULT_EVENT_TTL}
	 * @return this builder
	 * @throws IllegalArgumentException if not positive
	 */
	public LocalControlPlaneBuilder eventTtl(Duration ttl) {
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
	public LocalControlPlaneBuilder startupTimeout(Duration timeout) {
		this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
		return this;
	}

	/**
	 * An extra kube-apiserver flag, e.g. {@code --max-requests-inflight=10}; added after the built-in flags, so it
	 * wins over them.
	 * @param flag the flag with its value
	 * @return this builder
	 */
	public LocalControlPlaneBuilder apiServerArg(String flag) {
		this.extraApiServerArgs.add(Objects.requireNonNull(flag, "flag"));
		return this;
	}

	/**
	 * Where pid files are kept (see the {@link LocalControlPlane} class comment).
	 * @param directory the directory; default {@code -Dkubeevents.test.cluster.state-dir}, else
	 * {@code ${java.io.tmpdir}/kube-events-test-cluster}
	 * @return this builder
	 */
	public LocalControlPlaneBuilder stateDirectory(Path directory) {
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
				state, report);
	}

}
