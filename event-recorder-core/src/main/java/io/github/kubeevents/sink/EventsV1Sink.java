package io.github.kubeevents.sink;

import io.kubernetes.client.openapi.models.EventsV1Event;

/**
 * Where events.k8s.io/v1 Events are written: client-go's {@code events.EventSink} without {@code Update}, which
 * the recorder never calls. The sink must write into the namespace of the event. {@link EventsV1EventSink} is the
 * implementation over the official Java client.
 *
 * <p>Implementations must be thread-safe: the recorder may write from several threads (different objects), and
 * {@link #cancel()} and {@link #abort()} come from the shutting-down thread.
 */
public interface EventsV1Sink {

	/**
	 * Creates the Event ({@code POST /apis/events.k8s.io/v1/namespaces/{ns}/events}).
	 * @param event the event to create, possibly with a series (after its Event expired or was deleted)
	 * @return the Event the server stored
	 * @throws EventSinkException classified by {@link EventSinkException#kind()}
	 */
	EventsV1Event create(EventsV1Event event) throws EventSinkException;

	/**
	 * Patches the series of an existing Event
	 * ({@code PATCH /apis/events.k8s.io/v1/namespaces/{ns}/events/{name}}, strategic merge).
	 * @param event the event being updated (its name and namespace address the target)
	 * @param patch the new series count and last observed time
	 * @return the Event the server stored
	 * @throws EventSinkException classified by {@link EventSinkException#kind()}
	 */
	EventsV1Event patch(EventsV1Event event, SeriesPatch patch) throws EventSinkException;

	/** Called when the broadcaster shuts down: stop waiting inside calls. The default does nothing. */
	default void cancel() {
	}

	/** Called when the shutdown deadline has passed: cancel requests in flight. The default does nothing. */
	default void abort() {
	}

}
