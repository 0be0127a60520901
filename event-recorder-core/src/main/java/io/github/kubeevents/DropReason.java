package io.github.kubeevents;

/**
 * Why an event was not written. Every drop is counted under exactly one reason and logged.
 *
 * <p>Immutable and thread-safe.
 */
public enum DropReason {

	/** The broadcaster's incoming queue, or a subscriber's queue, was full. */
	QUEUE_FULL("queue_full", true),

	/** The per-object token bucket had no token left (client-go drops these silently). */
	SPAM_FILTERED("spam_filtered", true),

	/**
	 * The API server answered with an HTTP error status (4xx/5xx); never retried, like client-go, except 429 Too
	 * Many Requests (retried on the retry policy) and a 403 that {@code auto} or a missing {@code patch} handles.
	 */
	REJECTED_BY_SERVER("rejected_by_server", false),

	/**
	 * Every attempt failed with a retryable error (default 12 attempts): the server could not be reached, its
	 * answer could not be read, it stayed busy (429/5xx) after the Retry-After waits it asked for, or it kept
	 * answering 429 without Retry-After (the EventRateLimit admission plugin).
	 */
	RETRIES_EXHAUSTED("retries_exhausted", false),

	/** Recorded after shutdown began, or still pending when shutdown cancelled its retries or hit its deadline. */
	SHUTDOWN("shutdown", true),

	/** The caller passed something that cannot become an event (null object, no name, bad type, ...). */
	INVALID_INPUT("invalid_input", false);

	private final String tag;

	private final boolean floodProne;

	DropReason(String tag, boolean floodProne) {
		this.tag = tag;
		this.floodProne = floodProne;
	}

	/**
	 * The snake_case name used in logs, snapshots and metric tags.
	 * @return e.g. {@code "queue_full"}
	 */
	public String tag() {
		return this.tag;
	}

	/**
	 * Whether drops of this reason come in floods, so they are logged at DEBUG one by one and summarised at WARN
	 * (the others are logged one WARN line each).
	 * @return {@code true} for {@code queue_full}, {@code spam_filtered} and {@code shutdown}
	 */
	public boolean isFloodProne() {
		return this.floodProne;
	}

}
