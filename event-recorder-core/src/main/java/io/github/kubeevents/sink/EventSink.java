package io.github.kubeevents.sink;

import io.github.kubeevents.correlator.EventPatch;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * Where correlated core/v1 Events are written: client-go's {@code record.EventSink} without {@code Update},
 * which the recorder never calls. The sink must write into the namespace of the event. {@link CoreV1EventSink}
 * is the implementation over the official Java client; implement this to write through another client.
 *
 * <p>Implementations must be thread-safe: {@link #cancel()} and {@link #abort()} come from the shutting-down
 * thread while a write may be in progress.
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

	/**
	 * Called when the shutdown deadline has passed: cancel the requests in flight (so a thread blocked on a frozen
	 * server returns) and fail later calls at once. The default does nothing.
	 */
	default void abort() {
	}

}
