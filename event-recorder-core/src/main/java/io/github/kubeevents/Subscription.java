package io.github.kubeevents;

import java.util.Locale;

/**
 * A handle on one subscriber of an {@link EventBroadcaster}. Closing it unsubscribes: events already in its
 * queue are still handled, then its thread ends (a sink: its final writes are submitted and its writers end).
 *
 * <p>Thread-safe; {@link #close()} is idempotent.
 */
public interface Subscription extends AutoCloseable {

	/**
	 * The subscriber's name, also used in its thread names ({@code kubeevents-subscriber-<name>}, or
	 * {@code kubeevents-writer-<name>-<n>} for a sink).
	 * @return the name
	 */
	String name();

	/**
	 * Whether the subscription still receives events.
	 * @return {@code false} once closed or once the broadcaster has shut down
	 */
	boolean isActive();

	/** Unsubscribes; never throws. */
	@Override
	void close();

	/**
	 * Queue settings of one subscriber: an {@link EventHandler} of {@link EventBroadcaster#subscribe} or the logger of
	 * {@link EventBroadcaster#startLogging()}. They do not apply to sinks, which have no subscriber queue (their step runs
	 * on the distribution thread; {@link EventBroadcaster.Builder#sinkBacklogCapacity(int)} bounds each sink's
	 * backlog).
	 *
	 * <p>Immutable and thread-safe.
	 *
	 * @param queueCapacity how many events may wait for this subscriber; default {@value #DEFAULT_QUEUE_CAPACITY}
	 * (client-go's {@code maxQueuedEvents} is 1000: see {@link #DEFAULT_QUEUE_CAPACITY} for why ours is larger)
	 * @param fullQueuePolicy what to do when the queue is full; default {@link FullQueuePolicy#DROP}
	 */
	record Options(int queueCapacity, FullQueuePolicy fullQueuePolicy) {

		/**
		 * The default queue length of a subscriber: 10,000, where client-go's per-watcher queue holds 1000. Measured at
		 * a steady 20,000 events/s into an instant sink from a cold JVM, 1000 slots (50 ms at that rate) overflow while
		 * the sink's correlator warms up or a thread is descheduled on a busy machine; 10,000 (half a second) dropped
		 * nothing (docs/benchmarks.md). A slot costs a reference, so a full queue holds its events and 40 KB of array.
		 */
		public static final int DEFAULT_QUEUE_CAPACITY = 10_000;

		/**
		 * The largest capacity of any queue (incoming, subscriber, writer): {@value}. A queue's slots are allocated
		 * when
		 * it is built, so a mistyped capacity fails at once with its name instead of as an {@code OutOfMemoryError}.
		 */
		public static final int MAX_QUEUE_CAPACITY = 1 << 24;

		/**
		 * Validates the options.
		 * @throws IllegalArgumentException when the capacity is not between 1 and {@link #MAX_QUEUE_CAPACITY} or the
		 * policy is {@code null}
		 */
		public Options {
			if (queueCapacity < 1 || queueCapacity > MAX_QUEUE_CAPACITY) {
				throw new IllegalArgumentException("subscriber queue capacity must be between 1 and "
						+ MAX_QUEUE_CAPACITY + ", was " + queueCapacity);
			}
			if (fullQueuePolicy == null) {
				throw new IllegalArgumentException("fullQueuePolicy must not be null");
			}
		}

		/**
		 * The defaults: {@value #DEFAULT_QUEUE_CAPACITY} slots, drop when full.
		 * @return the default options
		 */
		public static Options defaults() {
			return new Options(DEFAULT_QUEUE_CAPACITY, FullQueuePolicy.DROP);
		}

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
