package io.github.kubeevents;

import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * Receives events from an {@link EventBroadcaster} subscription, on that subscription's own thread.
 *
 * <p>The event instance is shared between subscribers: treat it as read-only and copy it (see
 * {@link Events#copy(CoreV1Event)}) before changing it. An exception thrown by a handler is logged and the
 * subscription carries on with the next event.
 */
@FunctionalInterface
public interface EventHandler {

	/**
	 * Handles one event. Called by one thread at a time per subscription, in publish order.
	 * @param event the event, never {@code null}; do not modify
	 */
	void onEvent(CoreV1Event event);

}
