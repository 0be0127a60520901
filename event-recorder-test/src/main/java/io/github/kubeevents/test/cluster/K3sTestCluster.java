package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.Config;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.k3s.K3sContainer;

/**
 * K3s in a Testcontainers container ({@code org.testcontainers:testcontainers-k3s}, an optional dependency of this
 * module: add it to your test classpath to use this class). Needs a Docker engine that can run privileged
 * containers (no rootless Docker, no Docker-in-Docker).
 *
 * <p>Unlike {@link LocalControlPlane} this is a whole single-node cluster: controllers run (a deleted namespace goes
 * away), a Node exists, and the API server cannot be stopped on its own ({@link #supports} is
 * {@link Capability#FREEZE_API_SERVER} only: the container is paused with {@code docker pause}, which freezes the
 * API server and its datastore together and keeps the mapped port).
 *
 * <p>Identities: {@link #adminClient()} uses the kubeconfig K3s writes (client certificate of {@code system:admin}).
 * The bearer tokens are those of two ServiceAccounts in {@code kube-system}, made with TokenRequests (24 h):
 * {@code kube-events-test-admin} bound to {@code cluster-admin}, and {@code kube-events-test-restricted} bound to the
 * same read-only ClusterRole as {@link LocalControlPlane}'s {@code restricted} user, so
 * {@link #restrictedUserName()} is {@code system:serviceaccount:kube-system:kube-events-test-restricted}.
 *
 * <p>Image: {@value #DEFAULT_IMAGE} unless {@link Builder#image(String) given} or set by
 * {@code -D}{@value #IMAGE_PROPERTY}. That tag is K3s release {@code v1.35.4+k3s1} (Docker tags write {@code +} as
 * {@code -}), the same Kubernetes version as the kube-apiserver that {@code scripts/envtest-assets.sh} builds for
 * {@link LocalControlPlane}, so both backends run the same API server code. It was chosen from public references
 * (image lock files pin it by digest); it has not been pulled on the machines this module was written on, which have
 * no Docker engine.
 *
 * <p>Thread-safe: the lifecycle methods are synchronized; accessors may be called from any thread.
 */
public final class K3sTestCluster implements KubernetesTestCluster {

	/** The image used unless told otherwise. */
	public static final String DEFAULT_IMAGE = "rancher/k3s:v1.35.4-k3s1";

	/** System property overriding {@link #DEFAULT_IMAGE} for builders not given an image. */
	public static final String IMAGE_PROPERTY = "kubeevents.test.k3s.image";

	/** The startup timeout used when the builder is not told otherwise (image pull not included). */
	public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofMinutes(3);

	private static final Logger logger = LoggerFactory.getLogger(K3sTestCluster.class);

	private final K3sContainer container;

	private final Duration eventTtl;

	private final String kubeconfigYaml;

	private final String baseUrl;

	private final byte[] caCertificate;

	private final K3sIdentities identities;

	private final Duration startupTime;

	private volatile boolean frozen;

	private volatile boolean closed;

	/**
	 * A builder for a new K3s container.
	 * @return a new builder with the defaults
	 */
	public static Builder builder() {
		return new Builder();
	}

	/** Starts a cluster for {@link Builder#start()}. */
	K3sTestCluster(String image, List<String> serverArgs, Duration eventTtl, Duration startupTimeout) {
		long t0 = System.nanoTime();
		this.eventTtl = eventTtl;
		this.container = K3sContainerControl.create(image, serverArgs, startupTimeout);
		try {
			this.container.start();
			long deadline = Waits.deadline(startupTimeout);
			this.kubeconfigYaml = this.container.getKubeConfigYaml();
			Kubeconfigs.Connection connection = Kubeconfigs.connection(this.kubeconfigYaml);
			this.baseUrl = connection.server();
			this.caCertificate = connection.caPem();
			this.identities = K3sIdentities.provision(adminClient(), deadline);
			RestrictedAccess.awaitEffective(restrictedClient(), deadline);
		}
		catch (RuntimeException ex) {
			throw K3sContainerControl.startFailure(this.container, image, ex);
		}
		this.startupTime = Duration.ofNanos(System.nanoTime() - t0);
		logger.info("{} ready in {} ms", this, this.startupTime.toMillis());
	}

	/**
	 * {@link TestClusterBackend#K3S}.
	 * @return {@link TestClusterBackend#K3S}
	 */
	@Override
	public TestClusterBackend backend() {
		return TestClusterBackend.K3S;
	}

	/**
	 * The container, e.g. for its logs or {@code execInContainer}. Do not stop it: {@link #close()} does.
	 * @return the running container
	 */
	public K3sContainer container() {
		return this.container;
	}

	/**
	 * The kubeconfig K3s wrote, rewritten by Testcontainers to the mapped port (client certificate of
	 * {@code system:admin}).
	 * @return YAML
	 */
	public String k3sKubeconfig() {
		return this.kubeconfigYaml;
	}

	/**
	 * {@code https://<docker host>:<mapped 6443>}.
	 * @return the base URL
	 */
	@Override
	public String baseUrl() {
		return this.baseUrl;
	}

	/**
	 * The K3s server CA (PEM), from the kubeconfig.
	 * @return a copy of the PEM
	 */
	@Override
	public byte[] caCertificate() {
		return this.caCertificate.clone();
	}

	/**
	 * A ServiceAccount token of an identity (see the class comment).
	 * @param identity which one
	 * @return its token
	 */
	@Override
	public String token(Identity identity) {
		return this.identities.token(identity);
	}

	/**
	 * {@code system:serviceaccount:kube-system:kube-events-test-restricted}.
	 * @return the user name
	 */
	@Override
	public String restrictedUserName() {
		return ServiceAccountTokens.userName(ServiceAccountTokens.NAMESPACE, ServiceAccountTokens.RESTRICTED_ACCOUNT);
	}

	/**
	 * A new client from {@link #k3sKubeconfig()} ({@code system:admin} client certificate).
	 * @return a new client (own OkHttp client)
	 */
	@Override
	public ApiClient adminClient() {
		try {
			return Config.fromConfig(new StringReader(this.kubeconfigYaml));
		}
		catch (IOException ex) {
			throw new IllegalStateException("K3s kubeconfig is not usable: " + ex, ex);
		}
	}

	/**
	 * The {@code --event-ttl} given to the API server.
	 * @return the TTL
	 */
	@Override
	public Duration eventTtl() {
		return this.eventTtl;
	}

	/**
	 * Time from container start (image pull included) until both identities worked.
	 * @return the duration
	 */
	@Override
	public Duration startupTime() {
		return this.startupTime;
	}

	/**
	 * Not supported: K3s runs the API server inside its one process.
	 * @throws UnsupportedOperationException always
	 */
	@Override
	public void stopApiServer() {
		throw unsupported(Capability.STOP_API_SERVER);
	}

	/**
	 * Not supported: K3s runs the API server inside its one process.
	 * @throws UnsupportedOperationException always
	 */
	@Override
	public void startApiServer() {
		throw unsupported(Capability.STOP_API_SERVER);
	}

	/**
	 * Whether the container runs (a paused container counts as running).
	 * @return {@code true} until closed
	 */
	@Override
	public boolean isApiServerRunning() {
		return !this.closed && this.container.isRunning();
	}

	/**
	 * {@code docker pause} of the container. Idempotent.
	 * @throws IllegalStateException when closed
	 */
	@Override
	public synchronized void freezeApiServer() {
		checkOpen();
		if (!this.frozen) {
			K3sContainerControl.pause(this.container);
			this.frozen = true;
		}
	}

	/**
	 * {@code docker unpause} of the container. Idempotent.
	 * @throws IllegalStateException when closed
	 */
	@Override
	public synchronized void thawApiServer() {
		checkOpen();
		if (this.frozen) {
			K3sContainerControl.unpause(this.container);
			this.frozen = false;
		}
	}

	/**
	 * Whether the container is paused by {@link #freezeApiServer()}.
	 * @return {@code true} between freeze and thaw
	 */
	@Override
	public boolean isApiServerFrozen() {
		return this.frozen;
	}

	/** Unpauses if frozen, then stops and removes the container. Idempotent. */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		if (this.frozen) {
			K3sContainerControl.unpauseQuietly(this.container);
		}
		this.frozen = false;
		this.container.stop();
	}

	/**
	 * For logs.
	 * @return image, URL and TTL
	 */
	@Override
	public String toString() {
		return "K3sTestCluster[" + this.container.getDockerImageName() + ", " + this.baseUrl + ", eventTtl "
				+ this.eventTtl + "]";
	}

	private void checkOpen() {
		if (this.closed) {
			throw new IllegalStateException("K3s cluster is closed");
		}
	}

	private static UnsupportedOperationException unsupported(Capability capability) {
		return new UnsupportedOperationException(
				"K3s cannot do " + capability + " (check supports(" + capability + ") first)");
	}

	/**
	 * Options of a new {@link K3sTestCluster}, from {@link K3sTestCluster#builder()}; {@link #start()} starts it.
	 *
	 * <p>Not thread-safe; use one builder per start.
	 */
	public static final class Builder {

		private String image;

		private Duration eventTtl = LocalControlPlane.DEFAULT_EVENT_TTL;

		private Duration startupTimeout = K3sTestCluster.DEFAULT_STARTUP_TIMEOUT;

		private final List<String> extraServerArgs = new ArrayList<>();

		/** Use {@link K3sTestCluster#builder()}. */
		Builder() {
		}

		/**
		 * The image.
		 * @param image a {@code rancher/k3s} image; default {@code -D}{@value K3sTestCluster#IMAGE_PROPERTY}, else
		 * {@value K3sTestCluster#DEFAULT_IMAGE}
		 * @return this builder
		 */
		public Builder image(String image) {
			this.image = Objects.requireNonNull(image, "image");
			return this;
		}

		/**
		 * The API server's {@code --event-ttl}, passed as {@code --kube-apiserver-arg=event-ttl=...}.
		 * @param ttl a positive duration; default 1 hour
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
		 * How long the container may take to become ready and the identities to work (image pull not included).
		 * @param timeout the timeout; default {@link K3sTestCluster#DEFAULT_STARTUP_TIMEOUT}
		 * @return this builder
		 */
		public Builder startupTimeout(Duration timeout) {
			this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
			return this;
		}

		/**
		 * An extra kube-apiserver flag, written like {@link LocalControlPlane.Builder#apiServerArg(String)}, e.g.
		 * {@code --max-requests-inflight=10}; passed as {@code --kube-apiserver-arg=max-requests-inflight=10}.
		 * @param flag the flag with its value
		 * @return this builder
		 */
		public Builder apiServerArg(String flag) {
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
		public Builder serverArg(String arg) {
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

}
