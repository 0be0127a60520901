package io.github.kubeevents.test.connection;

import java.util.Locale;
import java.util.Objects;

import io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

/**
 * {@link KubeEventsConnectionDetails} for a {@link KubernetesTestCluster}: the recorder writes into the test
 * cluster (local binaries or K3s) as one of its identities, exactly as it writes into a K3s container through
 * {@code @ServiceConnection}. Declare it as a bean, or let {@link KubeEventsTestCluster} or
 * {@link TestClusterDevConfiguration} do it.
 *
 * <p>Thread-safe. The client is created on the first {@link #apiClient()} call and reused.
 */
public final class TestClusterConnectionDetails implements KubeEventsConnectionDetails {

	private final KubernetesTestCluster cluster;

	private final Identity identity;

	private final Object monitor = new Object();

	private @Nullable ApiClient client;

	/**
	 * Connection details for the cluster's {@link Identity#ADMIN admin} identity.
	 * @param cluster the cluster
	 */
	public TestClusterConnectionDetails(KubernetesTestCluster cluster) {
		this(cluster, Identity.ADMIN);
	}

	/**
	 * Connection details for one of the cluster's identities; {@link Identity#RESTRICTED} makes every Event write
	 * answer 403 Forbidden, for tests of what an application does without RBAC for Events.
	 * @param cluster the cluster
	 * @param identity the identity whose bearer token the client sends
	 */
	public TestClusterConnectionDetails(KubernetesTestCluster cluster, Identity identity) {
		this.cluster = Objects.requireNonNull(cluster, "cluster");
		this.identity = Objects.requireNonNull(identity, "identity");
	}

	/**
	 * A client for the cluster's URL, trusting its CA and sending the identity's bearer token, with the read
	 * timeout of the clients the starter builds ({@link KubeEventsConnectionDetails#CLIENT_READ_TIMEOUT}). The same
	 * instance on every call.
	 * @return the client
	 */
	@Override
	public ApiClient apiClient() {
		synchronized (this.monitor) {
			if (this.client == null) {
				ApiClient created = this.cluster.client(this.cluster.token(this.identity));
				created.setReadTimeout(Math.toIntExact(KubeEventsConnectionDetails.CLIENT_READ_TIMEOUT.toMillis()));
				this.client = created;
			}
			return this.client;
		}
	}

	/**
	 * The backend and the identity, for the startup line and the endpoint.
	 * @return e.g. {@code "test cluster (local, admin)"}
	 */
	@Override
	public String description() {
		return "test cluster (" + this.cluster.backend() + ", " + this.identity.name().toLowerCase(Locale.ROOT) + ")";
	}

	/**
	 * The cluster.
	 * @return the cluster these details connect to
	 */
	public KubernetesTestCluster cluster() {
		return this.cluster;
	}

	/**
	 * The identity.
	 * @return the identity whose token the client sends
	 */
	public Identity identity() {
		return this.identity;
	}

}
