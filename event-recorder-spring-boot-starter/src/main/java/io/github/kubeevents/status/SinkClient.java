package io.github.kubeevents.status;

import java.util.Locale;

/**
 * The Kubernetes client events are written through, as configured with {@code kubeevents.sink.client}: which
 * client configuration contributes the {@code EventsClient} bean. An {@code EventsClient} bean of the application
 * replaces either, whatever the property says.
 *
 * <p>Immutable and thread-safe.
 */
public enum SinkClient {

	/**
	 * The application's fabric8 {@code KubernetesClient} bean when there is one and the official client is not
	 * configured (no {@code ApiClient} or {@code KubeEventsConnectionDetails} bean of the application); otherwise
	 * the official client. Either client writes only where {@code kubeevents.sink.mode} finds a cluster: the bean
	 * is a client, not a cluster.
	 */
	AUTO,

	/** The official Kubernetes Java client, from the {@code KubeEventsConnectionDetails}. */
	OFFICIAL,

	/**
	 * The application's fabric8 {@code KubernetesClient} bean (through {@code event-recorder-fabric8}); startup
	 * fails without the module or the bean.
	 */
	FABRIC8;

	/**
	 * The property value, also shown by the endpoint and the startup line.
	 * @return {@code "auto"}, {@code "official"} or {@code "fabric8"}
	 */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
