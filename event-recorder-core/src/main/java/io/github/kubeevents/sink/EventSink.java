package io.github.kubeevents.sink;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * Where correlated core/v1 Events are written: client-go's {@code record.EventSink} without {@code Update},
 * which the recorder never calls. The sink must write into the namespace of the event. The recorder's own
 * implementation writes through the official Java client ({@code EventBroadcaster.startRecordingTo(ApiClient)});
 * implement this to write through another client ({@code EventBroadcaster.startRecordingToSink(EventSink)}).
 *
 * <p>Implementations must be thread-safe: the recorder writes from several threads (different objects), and the
 * lifecycle calls ({@link #cancel()}, {@link #abort()}, ...) come from the stopping thread while a write may be in
 * progress.
 */
public interface EventSink {

	/**
	 * Creates the Event ({@code POST /api/v1/namespaces/{ns}/events}).
	 * @param event the event to create
	 * @return the Event the server stored
	 * @throws EventSinkException classified by {@link EventSinkException#kind()}; a {@code RuntimeException}
	 * instead is retried like {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}
	 */
	CoreV1Event create(CoreV1Event event) throws EventSinkException;

	/**
	 * Patches an existing Event ({@code PATCH /api/v1/namespaces/{ns}/events/{name}}, strategic merge).
	 * @param event the event being updated (its name and namespace address the target)
	 * @param patch the fields to change
	 * @return the Event the server stored
	 * @throws EventSinkException classified by {@link EventSinkException#kind()}; a {@code RuntimeException}
	 * instead is retried like {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}
	 */
	CoreV1Event patch(CoreV1Event event, CountPatch patch) throws EventSinkException;

	/**
	 * Called when the recorder stops or shuts down: a sink that waits inside a call should stop waiting and fail
	 * that call at once. The default does nothing.
	 */
	default void cancel() {
	}

	/**
	 * Called when the stop or shutdown deadline has passed: cancel the requests in flight (so a thread blocked on
	 * a frozen server returns) and fail later calls at once, until {@link #resume()}. The default does nothing.
	 */
	default void abort() {
	}

	/**
	 * Called when the recorder starts again after a stop: calls may be made again. The default does nothing.
	 */
	default void resume() {
	}

	/**
	 * Called when the recorder has stopped (its threads ended): release what is idle, e.g. pooled connections, so
	 * nothing stays open while stopped (a checkpoint, a paused test context). A {@link #resume()} may follow. The
	 * default does nothing.
	 */
	default void stopped() {
	}

	/**
	 * The strategic-merge patch for a repeated core/v1 Event: exactly {@code count}, {@code lastTimestamp} and,
	 * when not empty, {@code message} (what client-go's two-way diff produces). It carries no resourceVersion, so
	 * the update is unconditional.
	 *
	 * <p>Immutable and thread-safe.
	 *
	 * @param count the new count
	 * @param lastTimestamp the new last timestamp (UTC, whole seconds)
	 * @param message the latest message, may be empty
	 */
	record CountPatch(int count, OffsetDateTime lastTimestamp, String message) {

		/**
		 * The patch body as an ordered map, ready to be serialised with the client's JSON (never by string
		 * formatting, so quotes and unicode in messages are safe). The timestamp is RFC 3339 in UTC, e.g.
		 * {@code 2026-11-30T12:00:00Z}.
		 * @return {@code {"count":N,"lastTimestamp":"...","message":"..."}}
		 */
		public Map<String, Object> toMap() {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("count", this.count);
			body.put("lastTimestamp", DateTimeFormatter.ISO_INSTANT.format(this.lastTimestamp.toInstant()));
			if (this.message != null && !this.message.isEmpty()) {
				body.put("message", this.message);
			}
			return body;
		}

	}

}
