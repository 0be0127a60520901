package io.github.kubeevents.sink;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

import io.kubernetes.client.openapi.models.EventsV1Event;
import org.jspecify.annotations.Nullable;

/**
 * Where events.k8s.io/v1 Events are written: client-go's {@code events.EventSink} without {@code Update}, which
 * the recorder never calls. The sink must write into the namespace of the event. The recorder's own implementation
 * writes through the official Java client ({@code EventBroadcaster.startRecordingTo(ApiClient)}); implement this to
 * write through another client.
 *
 * <p>Implementations must be thread-safe: the recorder writes from several threads (different objects), and the
 * lifecycle calls ({@link #cancel()}, {@link #abort()}, ...) come from the stopping thread.
 */
public interface EventsV1Sink {

	/**
	 * Creates the Event ({@code POST /apis/events.k8s.io/v1/namespaces/{ns}/events}).
	 * @param event the event to create, possibly with a series (after its Event expired or was deleted)
	 * @return the Event the server stored
	 * @throws EventSinkException classified by {@link EventSinkException#kind()}; a {@code RuntimeException}
	 * instead is retried like {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}
	 */
	EventsV1Event create(EventsV1Event event) throws EventSinkException;

	/**
	 * Patches the series of an existing Event
	 * ({@code PATCH /apis/events.k8s.io/v1/namespaces/{ns}/events/{name}}, strategic merge).
	 * @param event the event being updated (its name and namespace address the target)
	 * @param patch the new series count and last observed time
	 * @return the Event the server stored
	 * @throws EventSinkException classified by {@link EventSinkException#kind()}; a {@code RuntimeException}
	 * instead is retried like {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}
	 */
	EventsV1Event patch(EventsV1Event event, SeriesPatch patch) throws EventSinkException;

	/**
	 * Reads an Event ({@code GET /apis/events.k8s.io/v1/namespaces/{ns}/events/{name}}). Only the
	 * deterministic-names mode calls it (to continue an Event that another process wrote), and only when
	 * {@link #supportsGet()} says so.
	 * @param namespace the Event's namespace
	 * @param name the Event's name
	 * @return the Event the server has
	 * @throws EventSinkException classified like the other calls (404 when there is none); the default fails with
	 * {@link EventSinkException.Kind#REQUEST_CONSTRUCTION}
	 */
	default EventsV1Event get(String namespace, String name) throws EventSinkException {
		throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
				getClass().getName() + " cannot read Events", null);
	}

	/**
	 * Whether {@link #get} is implemented and {@link SeriesPatch#resourceVersion()} is sent as a precondition
	 * (both are, when the patch is written as {@link SeriesPatch#toMap()}). Without both, the deterministic-names
	 * mode keeps client-go's names for this sink. The default is {@code false}.
	 * @return whether the sink can continue Events that another process wrote
	 */
	default boolean supportsGet() {
		return false;
	}

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
	 * The strategic-merge patch of an events.k8s.io/v1 Event's series (client-go's two-way diff between the event
	 * without and with its series): {@code {"series":{"count":N,"lastObservedTime":"...Z"}}}. Over events.k8s.io/v1
	 * only the series may change after create. With a resourceVersion (only in the deterministic-names mode) the
	 * patch also carries {@code metadata.resourceVersion}, a precondition (409 Conflict when the Event changed).
	 *
	 * <p>Immutable and thread-safe.
	 *
	 * @param count the series count, at least 2
	 * @param lastObservedTime when the event last occurred
	 * @param resourceVersion the resourceVersion the Event must still have, or {@code null} for none
	 * @param annotations annotations to set on the Event (merged into its own: the {@code traceparent} of the
	 * latest occurrence when that option is on); empty for none, always without it
	 */
	record SeriesPatch(int count, Instant lastObservedTime, @Nullable String resourceVersion,
			Map<String, String> annotations) {

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
			annotations = (annotations == null || annotations.isEmpty()) ? Map.of() : Map.copyOf(annotations);
		}

		/**
		 * A patch without annotations (the constructor before {@code annotations} was added).
		 * @param count the series count, at least 2
		 * @param lastObservedTime when the event last occurred
		 * @param resourceVersion the resourceVersion the Event must still have, or {@code null} for none
		 * @throws IllegalArgumentException when {@code count < 2}
		 */
		public SeriesPatch(int count, Instant lastObservedTime, @Nullable String resourceVersion) {
			this(count, lastObservedTime, resourceVersion, Map.of());
		}

		/**
		 * This patch also setting {@code annotations} on the Event.
		 * @param annotations the annotations, {@code null} or empty for none
		 * @return the patch with them
		 */
		public SeriesPatch withAnnotations(@Nullable Map<String, String> annotations) {
			return new SeriesPatch(this.count, this.lastObservedTime, this.resourceVersion, annotations);
		}

		/**
		 * An unconditional patch (client-go's).
		 * @param count the series count, at least 2
		 * @param lastObservedTime when the event last occurred
		 * @throws IllegalArgumentException when {@code count < 2}
		 */
		public SeriesPatch(int count, Instant lastObservedTime) {
			this(count, lastObservedTime, null, Map.of());
		}

		/**
		 * The patch body as an ordered map, to be serialised with the client's JSON.
		 * @return {@code {"series":{"count":N,"lastObservedTime":"..."}}}, first
		 * {@code "metadata":{"resourceVersion":"...","annotations":{...}}} when there is a resourceVersion or there
		 * are annotations (each only when present)
		 */
		public Map<String, Object> toMap() {
			Map<String, Object> series = new LinkedHashMap<>();
			series.put("count", this.count);
			series.put("lastObservedTime", MICRO_TIME.format(this.lastObservedTime));
			Map<String, Object> metadata = metadata(this.resourceVersion, this.annotations);
			if (metadata == null) {
				return Map.of("series", series);
			}
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("metadata", metadata);
			body.put("series", series);
			return body;
		}

		/** A patch's {@code metadata}: the resourceVersion precondition and annotations, or {@code null} for none. */
		static @Nullable Map<String, Object> metadata(@Nullable String resourceVersion, Map<String, String> annotations) {
			if (resourceVersion == null && annotations.isEmpty()) {
				return null;
			}
			Map<String, Object> metadata = new LinkedHashMap<>();
			if (resourceVersion != null) {
				metadata.put("resourceVersion", resourceVersion);
			}
			if (!annotations.isEmpty()) {
				metadata.put("annotations", new LinkedHashMap<>(annotations));
			}
			return metadata;
		}

	}

}
