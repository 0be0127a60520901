package io.github.kubeevents.autoconfigure;

/**
 * Where recorded events go, as configured with {@code kubeevents.sink}.
 *
 * <p>Immutable and thread-safe.
 */
public enum SinkMode {

	/**
	 * Write Events to the API server when a cluster configuration exists (an {@code ApiClient} or
	 * {@code EventSink} bean, {@code $KUBECONFIG}, {@code ~/.kube/config} or the in-cluster service account);
	 * otherwise log them, with one WARN saying why.
	 */
	AUTO,

	/** Write Events to the API server; startup fails when no cluster configuration exists. */
	KUBERNETES,

	/** Only log events, never call the API server. */
	LOG,

	/** Neither write nor log events; drops are still counted. */
	NONE

}
