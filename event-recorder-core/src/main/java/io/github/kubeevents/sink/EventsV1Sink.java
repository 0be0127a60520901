package io.github.kubeevents.sink;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

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

	/**
	 * The strategic-merge patch of an events.k8s.io/v1 Event's series (client-go's two-way diff between the event
	 * without and with its series): {@code {"series":{"count":N,"lastObservedTime":"...Z"}}}. Over events.k8s.io/v1
	 * only the series may change after create.
	 *
	 * <p>Immutable and thread-safe.
	 *
	 * @param count the series count, at least 2
	 * @param lastObservedTime when the event last occurred
	 */
	record SeriesPatch(int count, Instant lastObservedTime) {

		/**
		 * {@code MicroTime} as the API server parses it: UTC with exactly six fractional digits
		 * ({@code 2006-01-02T15:04:05.000000Z}); a plain RFC 3339 time is rejected.
		 */
		public static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
			.withZone(ZoneOffset.UTC);

		/**
		 * Checks the count.
		 * @throws IllegalArgumentException when {@code count < 2} (the server requires a series of at least 2)
		 */
		public SeriesPatch {
			if (count < 2) {
				throw new IllegalArgumentException("series.count must be at least 2, was " + count);
			}
		}

		/**
		 * The patch body as an ordered map, to be serialised with the client's JSON.
		 * @return {@code {"series":{"count":N,"lastObservedTime":"..."}}}
		 */
		public Map<String, Object> toMap() {
			Map<String, Object> series = new LinkedHashMap<>();
			series.put("count", this.count);
			series.put("lastObservedTime", MICRO_TIME.format(this.lastObservedTime));
			return Map.of("series", series);
		}

	}

}
