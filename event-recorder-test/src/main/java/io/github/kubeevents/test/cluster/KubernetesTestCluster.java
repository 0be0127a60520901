package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;

/**
 * A real Kubernetes API server for tests, whatever runs it: {@link LocalControlPlane} (etcd and kube-apiserver as
 * local processes) or {@link K3sTestCluster} (K3s in a Testcontainers container).
 *
 * <p>Every cluster offers two identities, both as bearer tokens:
 * <ul>
 *   <li>{@link Identity#ADMIN}: may do anything.</li>
 *   <li>{@link Identity#RESTRICTED}: may get, list and watch Events (core and {@code events.k8s.io}) and Nodes, and
 *       nothing else; creating or patching an Event answers 403 Forbidden. Its name as the API server reports it
 *       (e.g. in a 403 message) is {@link #restrictedUserName()}.</li>
 * </ul>
 *
 * <p>What a backend can do beyond that is asked with {@link #supports(Capability)}; a test that needs more skips
 * itself (or declares {@link RequiresCapability}). Unsupported operations throw
 * {@link UnsupportedOperationException}.
 *
 * <p>Usually obtained from {@link TestClusterExtension} (see {@link WithTestCluster}); a test may also build one
 * ({@link LocalControlPlane#builder()}, {@link K3sTestCluster#builder()}) and must then {@link #close()} it.
 *
 * <p>Implementations are thread-safe. Every {@code ...Client()} call returns a new {@link ApiClient} with its own
 * OkHttp client, so a test may add interceptors to it without affecting others.
 */
public interface KubernetesTestCluster extends AutoCloseable {

	/** Something only some backends can do; see {@link #supports(Capability)}. */
	enum Capability {

		/**
		 * {@link #stopApiServer()} / {@link #startApiServer()}: the API server process goes away (connections are
		 * refused) and comes back on the same URL with the same data and credentials.
		 */
		STOP_API_SERVER,

		/**
		 * {@link #freezeApiServer()} / {@link #thawApiServer()}: the API server stops answering (connections may be
		 * accepted, requests hang until the client's timeout) and later resumes where it was.
		 */
		FREEZE_API_SERVER,

		/**
		 * No controllers run: a deleted namespace stays {@code Terminating} for good (nothing finalizes it), so
		 * {@code NamespaceTerminating} admission can be observed at leisure; no default ServiceAccounts or nodes
		 * appear by themselves.
		 */
		NAMESPACES_STAY_TERMINATING

	}

	/** The two identities every cluster offers. */
	enum Identity {

		/** May do anything ({@code system:masters} or {@code cluster-admin}). */
		ADMIN,

		/** May only get/list/watch Events and Nodes; creating an Event answers 403. */
		RESTRICTED

	}

	/**
	 * Starts a new cluster of a backend, owned by the caller (which must {@link #close()} it), with the defaults: a
	 * 1-hour event TTL, the binaries {@link EnvtestAssets} finds, K3s image {@value K3sTestCluster#DEFAULT_IMAGE}.
	 * For {@link TestClusterBackend#AUTO}: the system property {@value TestClusterBackend#SYSTEM_PROPERTY}, else the
	 * local binaries, else K3s where Testcontainers and a Docker engine are available, as {@link TestClusterExtension}
	 * picks. Unlike the extension, it never skips: no backend is an exception. Thread-safe.
	 * @param backend the backend, or {@link TestClusterBackend#AUTO}
	 * @return the running cluster
	 * @throws TestClusterUnavailableException when the backend cannot run on this machine (a report with what to
	 * install)
	 * @throws IllegalStateException when the cluster does not start (with the tail of its logs)
	 */
	static KubernetesTestCluster start(TestClusterBackend backend) {
		BackendSelector.Selection selection = BackendSelector.select(Objects.requireNonNull(backend, "backend"),
				EnumSet.noneOf(Capability.class), MachineEnvironment.INSTANCE);
		if (!selection.available()) {
			throw Availability.exception(selection.wanted(), selection.reason());
		}
		return TestClusterInstances.startCluster(selection, LocalControlPlane.DEFAULT_EVENT_TTL);
	}

	/**
	 * Which backend runs this cluster.
	 * @return {@link TestClusterBackend#LOCAL} or {@link TestClusterBackend#K3S}
	 */
	TestClusterBackend backend();

	/**
	 * Whether this cluster can do {@code capability}; constant for the life of the cluster.
	 * @param capability what a test needs
	 * @return {@code true} if the corresponding methods work
	 */
	default boolean supports(Capability capability) {
		return backend().capabilities().contains(Objects.requireNonNull(capability, "capability"));
	}

	/**
	 * The API server's URL, e.g. {@code https://127.0.0.1:41234}; the same for the life of the cluster (also across
	 * {@link #stopApiServer()} / {@link #startApiServer()}).
	 * @return the base URL, without a trailing slash
	 */
	String baseUrl();

	/**
	 * PEM of the certificate(s) to trust for {@link #baseUrl()}.
	 * @return a new copy of the PEM bytes (US-ASCII)
	 */
	byte[] caCertificate();

	/**
	 * The bearer token of an identity; valid for the life of the cluster.
	 * @param identity which one
	 * @return the token
	 */
	String token(Identity identity);

	/**
	 * The bearer token of {@link Identity#ADMIN}.
	 * @return the token
	 */
	default String adminToken() {
		return token(Identity.ADMIN);
	}

	/**
	 * The bearer token of {@link Identity#RESTRICTED}.
	 * @return the token
	 */
	default String restrictedToken() {
		return token(Identity.RESTRICTED);
	}

	/**
	 * The user name of {@link Identity#RESTRICTED} as the API server reports it, e.g. in
	 * {@code events is forbidden: User "restricted" cannot create resource "events" ...}: {@code restricted} for
	 * {@link LocalControlPlane}, {@code system:serviceaccount:<namespace>:<name>} for {@link K3sTestCluster}.
	 * @return the user name
	 */
	String restrictedUserName();

	/**
	 * A new client for {@link Identity#ADMIN}.
	 * @return a new client (own OkHttp client)
	 */
	default ApiClient adminClient() {
		return client(adminToken());
	}

	/**
	 * A new client for {@link Identity#RESTRICTED}.
	 * @return a new client (own OkHttp client)
	 */
	default ApiClient restrictedClient() {
		return client(restrictedToken());
	}

	/**
	 * A new client for {@link #baseUrl()} that trusts {@link #caCertificate()} and sends
	 * {@code Authorization: Bearer <token>}.
	 * @param token the bearer token, or {@code null} for an anonymous client
	 * @return a new client (own OkHttp client)
	 */
	default ApiClient client(String token) {
		ClientBuilder builder = new ClientBuilder().setBasePath(baseUrl())
			.setVerifyingSsl(true)
			.setCertificateAuthority(caCertificate());
		if (token != null) {
			builder.setAuthentication(new AccessTokenAuthentication(token));
		}
		return builder.build();
	}

	/**
	 * A kubeconfig for one identity: one cluster ({@link #baseUrl()}, {@code certificate-authority-data}), one user
	 * with a bearer {@code token}, one context (namespace {@code default}), current. Usable with client-java's
	 * {@code KubeConfig}, kubectl, or another process through {@code KUBECONFIG}.
	 * @param identity whose token it holds
	 * @return the YAML text
	 */
	default String kubeconfig(Identity identity) {
		return Kubeconfigs.render("kube-events-test-" + backend(), baseUrl(), caCertificate(),
				identity.name().toLowerCase(Locale.ROOT), token(identity));
	}

	/**
	 * Writes {@link #kubeconfig(Identity)} to a file, creating missing parent directories.
	 * @param file where to write (replaced if it exists)
	 * @param identity whose token it holds
	 * @return {@code file}
	 * @throws UncheckedIOException when the file cannot be written
	 */
	default Path writeKubeconfig(Path file, Identity identity) {
		try {
			Path parent = file.toAbsolutePath().getParent();
			if (parent != null) {
				Files.createDirectories(parent);
			}
			Files.writeString(file, kubeconfig(identity));
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not write " + file, ex);
		}
	}

	/**
	 * How long the API server keeps an Event after its last write ({@code --event-ttl}).
	 * @return the TTL (default 1 hour)
	 */
	Duration eventTtl();

	/**
	 * How long starting took, until the API server was ready and both identities worked.
	 * @return the duration
	 */
	Duration startupTime();

	/**
	 * Stops the API server (and only it: the data survives). Requires {@link Capability#STOP_API_SERVER}. A test that
	 * stops the server must {@link #startApiServer()} again, in a {@code finally}, if others use the cluster after it.
	 * @throws UnsupportedOperationException without the capability
	 */
	void stopApiServer();

	/**
	 * Starts the API server again on the same URL and waits until it is ready. Requires
	 * {@link Capability#STOP_API_SERVER}.
	 * @throws UnsupportedOperationException without the capability
	 * @throws IllegalStateException if it is running already or does not become ready in time
	 */
	void startApiServer();

	/**
	 * Whether the API server is running (not stopped; a frozen server counts as running).
	 * @return {@code true} unless stopped or closed
	 */
	boolean isApiServerRunning();

	/**
	 * Freezes the API server: it stays up but answers nothing until {@link #thawApiServer()} (a network partition
	 * rather than a crash). Requires {@link Capability#FREEZE_API_SERVER}. Idempotent.
	 * @throws UnsupportedOperationException without the capability
	 */
	void freezeApiServer();

	/**
	 * Resumes a frozen API server. Requires {@link Capability#FREEZE_API_SERVER}. Idempotent.
	 * @throws UnsupportedOperationException without the capability
	 */
	void thawApiServer();

	/**
	 * Whether {@link #freezeApiServer()} is in effect.
	 * @return {@code true} between freeze and thaw
	 */
	boolean isApiServerFrozen();

	/**
	 * Stops everything and deletes what the cluster wrote (processes and temporary files, or the container).
	 * Idempotent; a frozen cluster is thawed first. Never throws for an already closed cluster.
	 */
	@Override
	void close();

}
