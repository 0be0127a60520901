package io.github.kubeevents;

/**
 * Why an event was not written. Every drop is logged and counted under exactly one reason.
 *
 * <p>Immutable and thread-safe.
 */
public enum DropReason {

	/** The broadcaster's incoming queue, or a subscriber's queue, was full. */
	QUEUE_FULL("queue_full"),

	/** The per-object token bucket had no token left (client-go drops these silently). */
	SPAM_FILTERED("spam_filtered"),

	/** The API server answered with an HTTP error status (4xx/5xx); never retried, like client-go. */
	REJECTED_BY_SERVER("rejected_by_server"),

	/** Every attempt failed with a transport error (default 12 attempts). */
	RETRIES_EXHAUSTED("retries_exhausted"),

	/** Recorded after shutdown began, or still pending when shutdown cancelled its retries or hit its deadline. */
	SHUTDOWN("shutdown"),

	/** The caller passed something that cannot become an event (null object, no name, bad type, ...). */
	INVALID_INPUT("invalid_input");

	private final String tag;

	DropReason(String tag) {
		this.tag = tag;
	}

	/**
	 * The snake_case name used in logs, snapshots and metric tags.
	 * @return e.g. {@code "queue_full"}
	 */
	public String tag() {
		return this.tag;
	}

}
