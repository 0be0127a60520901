package io.github.kubeevents.status;

import java.util.Locale;

/**
 * Where recorded events go, as configured with {@code kubeevents.sink.mode}.
 *
 * <p>Immutable and thread-safe.
 */
public enum SinkMode {

	/**
	 * Write Events to the API server when running in Kubernetes or when the application provides a cluster (an
	 * {@code EventSink}, {@code KubeEventsConnectionDetails} or {@code ApiClient} bean, or a kubeconfig with
	 * {@code kubeevents.kubeconfig.enabled=true}); otherwise log them. A fabric8 {@code KubernetesClient} bean is
	 * not a cluster: it is written through only where one of these is found.
	 */
	AUTO,

	/** Write Events to the API server (a kubeconfig is used too); startup fails when no cluster is found. */
	KUBERNETES,

	/** Only log events, never call the API server. */
	LOG,

	/** Neither write nor log events; drops are still counted. */
	NONE;

	/**
	 * The property value.
	 * @return {@code "auto"}, {@code "kubernetes"}, {@code "log"} or {@code "none"}
	 */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
