package io.github.kubeevents.sink;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

import io.kubernetes.client.openapi.models.EventsV1Event;
import org.jspecify.annotations.Nullable;

/**
 * Where events.k8s.io/v1 Events are written: a {@link Sink} of {@code EventsV1Event}s, client-go's
 * {@code events.EventSink} without {@code Update}, which the recorder never calls. The requests: {@link #create}
 * is {@code POST /apis/events.k8s.io/v1/namespaces/{ns}/events} (the event possibly with a series, after its Event
 * expired or was deleted); {@link #patch} is {@code PATCH /apis/events.k8s.io/v1/namespaces/{ns}/events/{name}}
 * (strategic merge) of a {@link SeriesPatch}; {@link #get} is
 * {@code GET /apis/events.k8s.io/v1/namespaces/{ns}/events/{name}}. The recorder's own implementation writes through
 * the official Java client ({@code EventBroadcaster.startRecordingTo(ApiClient)}); implement this to write through
 * another client ({@code EventBroadcaster.startRecordingToSink(EventsV1Sink)}).
 *
 * <p>Implementations must be thread-safe (see {@link Sink}).
 */
public interface EventsV1Sink extends Sink<EventsV1Event, EventsV1Sink.SeriesPatch> {

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
			Map<String, String> annotations) implements Sink.Patch {

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
		@Override
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
