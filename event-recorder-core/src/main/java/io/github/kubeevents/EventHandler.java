package io.github.kubeevents;

/**
 * Receives events from an {@link EventBroadcaster} subscription, on that subscription's own thread.
 *
 * <p>An exception thrown by a handler is logged and the subscription carries on with the next event.
 */
@FunctionalInterface
public interface EventHandler {

	/**
	 * Handles one event. Called by one thread at a time per subscription, in recording order.
	 * @param event the event, never {@code null}; immutable and shared with the other subscribers
	 */
	void onEvent(RecordedEvent event);

}
