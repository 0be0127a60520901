package io.github.kubeevents.autoconfigure;

/**
 * {@code kubeevents.sink.mode=kubernetes} was configured, but no cluster could be found or its configuration could
 * not be loaded. {@link NoKubernetesClusterFailureAnalyzer} turns it into Spring Boot's "Description / Action"
 * report.
 *
 * <p>Immutable.
 */
public final class NoKubernetesClusterException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String searched;

	/**
	 * No cluster.
	 * @param message what went wrong
	 * @param searched where the starter looked
	 * @param cause why a configuration could not be loaded, may be {@code null}
	 */
	public NoKubernetesClusterException(String message, String searched, Throwable cause) {
		super(message, cause);
		this.searched = searched;
	}

	/** @return where the starter looked for a cluster */
	public String searched() {
		return this.searched;
	}

}
