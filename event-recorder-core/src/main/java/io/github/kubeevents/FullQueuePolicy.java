package io.github.kubeevents;

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
	 * and fills the incoming queue, which drops at publish time instead.
	 */
	WAIT

}
