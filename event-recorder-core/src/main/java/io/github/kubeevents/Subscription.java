package io.github.kubeevents;

/**
 * A handle on one subscriber of an {@link EventBroadcaster}. Closing it unsubscribes: events already in its
 * queue are still handled, then its thread ends.
 *
 * <p>Thread-safe; {@link #close()} is idempotent.
 */
public interface Subscription extends AutoCloseable {

	/**
	 * The subscriber's name, also used in its thread name ({@code kubeevents-subscriber-<name>}).
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
