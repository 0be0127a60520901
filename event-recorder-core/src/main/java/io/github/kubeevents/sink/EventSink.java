package io.github.kubeevents.sink;

import io.github.kubeevents.correlator.EventPatch;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * Where correlated events are written: client-go's {@code EventSink} without {@code Update}, which the recorder
 * never calls. The sink must write into the namespace of the event.
 *
 * <p>Implementations must be safe for use by one recording thread at a time.
 */
public interface EventSink {

	/**
	 * Creates the Event ({@code POST /api/v1/namespaces/{ns}/events}).
	 * @param event the event to create
	 * @return the Event the server stored
	 * @throws EventSinkException classified by {@link EventSinkException#kind()}
	 */
	CoreV1Event create(CoreV1Event event) throws EventSinkException;

	/**
	 * Patches an existing Event ({@code PATCH /api/v1/namespaces/{ns}/events/{name}}, strategic merge).
	 * @param event the event being updated (its name and namespace address the target)
	 * @param patch the fields to change
	 * @return the Event the server stored
	 * @throws EventSinkException classified by {@link EventSinkException#kind()}
	 */
	CoreV1Event patch(CoreV1Event event, EventPatch patch) throws EventSinkException;

	/**
	 * Called once when the broadcaster shuts down: a sink that waits inside a call (e.g. for a server's
	 * Retry-After) should stop waiting and fail that call at once. The default does nothing.
	 */
	default void cancel() {
	}

}
