package io.github.kubeevents.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * The auto-configured {@link KubeEventsConnectionDetails} found no usable cluster: nothing was found, or the
 * configuration found could not be loaded. With {@code kubeevents.sink.mode=kubernetes} it fails startup, and
 * {@link NoKubernetesClusterFailureAnalyzer} turns it into Spring Boot's "Description / Action" report; with
 * {@code auto} events are only logged, for {@link #logOnlyReason()}.
 *
 * <p>Immutable.
 */
final class NoKubernetesClusterException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String searched;

	private final String logOnlyReason;

	/**
	 * No cluster.
	 * @param message what went wrong, e.g. {@code "no Kubernetes configuration was found"}
	 * @param searched where the starter looked
	 * @param logOnlyReason why events are only logged, for mode {@code auto}'s startup line and the endpoint
	 * @param cause why a configuration could not be loaded, may be {@code null}
	 */
	NoKubernetesClusterException(String message, String searched, String logOnlyReason,
			@Nullable Throwable cause) {
		super(message, cause);
		this.searched = searched;
		this.logOnlyReason = logOnlyReason;
	}

	/**
	 * This exception with a note appended to its message and its log-only reason.
	 * @param note e.g. why a bean that is not a cluster was not used
	 * @return a new exception with the same cause
	 */
	NoKubernetesClusterException withNote(String note) {
		return new NoKubernetesClusterException(getMessage() + "; " + note, this.searched,
				this.logOnlyReason + "; " + note, getCause());
	}

	/** @return where the starter looked for a cluster */
	String searched() {
		return this.searched;
	}

	/** @return why events are only logged when mode {@code auto} meets this */
	String logOnlyReason() {
		return this.logOnlyReason;
	}

}
