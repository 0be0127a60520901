package io.github.kubeevents;

import java.util.Locale;

/**
 * Queue settings of one subscriber.
 *
 * <p>Immutable and thread-safe.
 *
 * @param queueCapacity how many events may wait for this subscriber; default 1000 (client-go's
 * {@code maxQueuedEvents})
 * @param fullQueuePolicy what to do when the queue is full; default {@link FullQueuePolicy#DROP}
 */
public record SubscriberOptions(int queueCapacity, FullQueuePolicy fullQueuePolicy) {

	/** client-go's per-watcher queue length. */
	public static final int DEFAULT_QUEUE_CAPACITY = 1000;

	/**
	 * Validates the options.
	 * @throws IllegalArgumentException when the capacity is not positive or the policy is {@code null}
	 */
	public SubscriberOptions {
		if (queueCapacity < 1) {
			throw new IllegalArgumentException("subscriber queue capacity must be at least 1, was " + queueCapacity);
		}
		if (fullQueuePolicy == null) {
			throw new IllegalArgumentException("fullQueuePolicy must not be null");
		}
	}

	/**
	 * The defaults: 1000 slots, drop when full.
	 * @return the default options
	 */
	public static SubscriberOptions defaults() {
		return new SubscriberOptions(DEFAULT_QUEUE_CAPACITY, FullQueuePolicy.DROP);
	}

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

}
