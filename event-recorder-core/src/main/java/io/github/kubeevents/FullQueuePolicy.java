package io.github.kubeevents;

import java.util.Locale;

/**
 * What the distribution thread does when a subscriber's queue is full.
 *
 * <p>Immutable and thread-safe.
 */
public enum FullQueuePolicy {

	/** Skip this subscriber for this event and count a {@link DropReason#QUEUE_FULL} drop (default, like client-go). */
	DROP,

	/**
	 * Wait until the subscriber has room (or is closed). A slow subscriber then delays every other subscriber
	 * and fills the incoming queue, which drops at record time instead.
	 */
	WAIT;

	/**
	 * The lower-case name used in snapshots and properties.
	 * @return {@code "drop"} or {@code "wait"}
	 */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
