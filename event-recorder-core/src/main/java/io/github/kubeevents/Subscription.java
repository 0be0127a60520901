package io.github.kubeevents;

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

}
