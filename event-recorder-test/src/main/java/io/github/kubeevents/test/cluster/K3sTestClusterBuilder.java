package io.github.kubeevents.test.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Options of a new {@link K3sTestCluster}, from {@link K3sTestCluster#builder()}; {@link #start()} starts it.
 *
 * <p>Not thread-safe; use one builder per start.
 */
public final class K3sTestClusterBuilder {

	private String image;

	private Duration eventTtl = LocalControlPlane.DEFAULT_EVENT_TTL;

	private Duration startupTimeout = K3sTestCluster.DEFAULT_STARTUP_TIMEOUT;

	private final List<String> extraServerArgs = new ArrayList<>();

	/** Use {@link K3sTestCluster#builder()}. */
	K3sTestClusterBuilder() {
	}

	/**
	 * The image.
	 * @param image a {@code rancher/k3s} image; default {@code -D}{@value K3sTestCluster#IMAGE_PROPERTY}, else
	 * {@value K3sTestCluster#DEFAULT_IMAGE}
	 * @return this builder
	 */
	public K3sTestClusterBuilder image(String image) {
		this.image = Objects.requireNonNull(image, "image");
		return this;
	}

	/**
	 * The API server's {@code --event-ttl}, passed as {@code --kube-apiserver-arg=event-ttl=...}.
	 * @param ttl a positive duration; default 1 hour
	 * @return this builder
	 * @throws IllegalArgumentException if not positive
	 */
	public K3sTestClusterBuilder eventTtl(Duration ttl) {
		if (ttl.isNegative() || ttl.isZero()) {
			throw new IllegalArgumentException("eventTtl must be positive: " + ttl);
		}
		this.eventTtl = ttl;
		return this;
	}

	/**
	 * How long the container may take to become ready and the identities to work (image pull not included).
	 * @param timeout the timeout; default {@link K3sTestCluster#DEFAULT_STARTUP_TIMEOUT}
	 * @return this builder
	 */
	public K3sTestClusterBuilder startupTimeout(Duration timeout) {
		this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
		return this;
	}

	/**
	 * An extra kube-apiserver flag, written like {@link LocalControlPlaneBuilder#apiServerArg(String)}, e.g.
	 * {@code --max-requests-inflight=10}; passed as {@code --kube-apiserver-arg=max-requests-inflight=10}.
	 * @param flag the flag with its value
	 * @return this builder
	 */
	public K3sTestClusterBuilder apiServerArg(String flag) {
		Objects.requireNonNull(flag, "flag");
		String bare = flag.startsWith("--") ? flag.substring(2) : flag;
		this.extraServerArgs.add("--kube-apiserver-arg=" + bare);
		return this;
	}

	/**
	 * An extra {@code k3s server} argument as is, e.g. {@code --disable=metrics-server}.
	 * @param arg the argument
	 * @return this builder
	 */
	public K3sTestClusterBuilder serverArg(String arg) {
		this.extraServerArgs.add(Objects.requireNonNull(arg, "arg"));
		return this;
	}

	/**
	 * The image this builder will use.
	 * @return the explicit image, else the system property, else {@value K3sTestCluster#DEFAULT_IMAGE}
	 */
	String resolvedImage() {
		if (this.image != null) {
			return this.image;
		}
		String property = System.getProperty(K3sTestCluster.IMAGE_PROPERTY);
		return (property != null && !property.isBlank()) ? property.strip() : K3sTestCluster.DEFAULT_IMAGE;
	}

	/**
	 * What is appended to the {@code k3s server} command of {@link org.testcontainers.k3s.K3sContainer} (which
	 * already holds {@code server --disable=traefik --tls-san=<host>}).
	 * @return the event TTL first, then the extra arguments in order
	 */
	List<String> serverArgs() {
		List<String> args = new ArrayList<>();
		args.add("--kube-apiserver-arg=event-ttl=" + Durations.toGo(this.eventTtl));
		args.addAll(this.extraServerArgs);
		return args;
	}

	/**
	 * Starts the container (pulling the image if needed), waits for K3s, and sets up both identities.
	 * @return the running cluster; the caller must {@link K3sTestCluster#close()} it
	 * @throws IllegalStateException when Docker is not available or K3s does not become ready in time
	 */
	public K3sTestCluster start() {
		return new K3sTestCluster(resolvedImage(), serverArgs(), this.eventTtl, this.startupTimeout);
	}

}
