package io.github.kubeevents.sink;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.openapi.models.CoreV1Event;
import org.jspecify.annotations.Nullable;

/**
 * Where correlated core/v1 Events are written: a {@link Sink} of {@code CoreV1Event}s, client-go's
 * {@code record.EventSink} without {@code Update}, which the recorder never calls. The requests:
 * {@link #create} is {@code POST /api/v1/namespaces/{ns}/events}; {@link #patch} is
 * {@code PATCH /api/v1/namespaces/{ns}/events/{name}} (strategic merge) of a {@link CountPatch}; {@link #get} is
 * {@code GET /api/v1/namespaces/{ns}/events/{name}}. The recorder's own implementation writes through the official
 * Java client ({@code EventBroadcaster.startRecordingTo(ApiClient)}); implement this to write through another
 * client ({@code EventBroadcaster.startRecordingToSink(EventSink)}).
 *
 * <p>In the readers' shape (the default, {@link EventShape#READERS}) the patch also sets the series and removes
 * {@code eventTime}: send {@link CountPatch#toMap()} whole, null values included (Jackson writes them unless
 * configured {@code NON_NULL}; Gson only with {@code serializeNulls()}). A sink that builds its own body from
 * {@link CountPatch#count()}, {@link CountPatch#lastTimestamp()} and {@link CountPatch#message()} leaves the first
 * occurrence's {@code eventTime} in place, which core/v1 readers then show for every repeat: such a sink should run
 * with {@link EventShape#CLIENT_GO} ({@code kubeevents.sink.shape=client-go}).
 *
 * <p>Implementations must be thread-safe (see {@link Sink}).
 */
public interface EventSink extends Sink<CoreV1Event, EventSink.CountPatch> {

	/**
	 * The strategic-merge patch for a repeated core/v1 Event: exactly {@code count}, {@code lastTimestamp} and,
	 * when not empty, {@code message} (what client-go's two-way diff produces). Without a resourceVersion (always,
	 * unless the deterministic-names mode is on) the update is unconditional; with one, the patch carries
	 * {@code metadata.resourceVersion}, which the API server checks as a precondition (409 Conflict when the Event
	 * changed meanwhile).
	 *
	 * <p>In the {@linkplain EventShape#READERS readers' shape} the patch also has {@link #lastObservedTime()}: then it
	 * sets {@code series {count, lastObservedTime}} beside the count and removes {@code eventTime} (a JSON
	 * {@code null}, so the serialiser must write null values of the map; Jackson does by default, Gson only with
	 * {@code serializeNulls()}).
	 *
	 * <p>Immutable and thread-safe.
	 *
	 * @param count the new count
	 * @param lastTimestamp the new last timestamp (UTC, whole seconds)
	 * @param message the latest message, may be empty
	 * @param resourceVersion the resourceVersion the Event must still have, or {@code null} for none
	 * @param lastObservedTime the latest occurrence, written as the series' {@code lastObservedTime} (microseconds),
	 * or {@code null} for client-go's patch without a series
	 * @param annotations annotations to set on the Event (merged into its own: the {@code traceparent} of the
	 * latest occurrence when that option is on); empty for none, always without it
	 */
	record CountPatch(int count, OffsetDateTime lastTimestamp, String message, @Nullable String resourceVersion,
			@Nullable Instant lastObservedTime, Map<String, String> annotations) implements Sink.Patch {

		/**
		 * Copies the annotations.
		 */
		public CountPatch {
			annotations = (annotations == null || annotations.isEmpty()) ? Map.of() : Map.copyOf(annotations);
		}

		/**
		 * A patch without annotations (the constructor before {@code annotations} was added).
		 * @param count the new count
		 * @param lastTimestamp the new last timestamp (UTC, whole seconds)
		 * @param message the latest message, may be empty
		 * @param resourceVersion the resourceVersion the Event must still have, or {@code null} for none
		 * @param lastObservedTime the latest occurrence, or {@code null} for client-go's patch without a series
		 */
		public CountPatch(int count, OffsetDateTime lastTimestamp, String message, @Nullable String resourceVersion,
				@Nullable Instant lastObservedTime) {
			this(count, lastTimestamp, message, resourceVersion, lastObservedTime, Map.of());
		}

		/**
		 * An unconditional patch (client-go's).
		 * @param count the new count
		 * @param lastTimestamp the new last timestamp (UTC, whole seconds)
		 * @param message the latest message, may be empty
		 */
		public CountPatch(int count, OffsetDateTime lastTimestamp, String message) {
			this(count, lastTimestamp, message, null, null, Map.of());
		}

		/**
		 * client-go's patch, with a precondition when {@code resourceVersion} is given.
		 * @param count the new count
		 * @param lastTimestamp the new last timestamp (UTC, whole seconds)
		 * @param message the latest message, may be empty
		 * @param resourceVersion the resourceVersion the Event must still have, or {@code null} for none
		 */
		public CountPatch(int count, OffsetDateTime lastTimestamp, String message, @Nullable String resourceVersion) {
			this(count, lastTimestamp, message, resourceVersion, null, Map.of());
		}

		/**
		 * This patch in the readers' shape: with a series of this count observed last at {@code lastObservedTime}.
		 * @param lastObservedTime the latest occurrence
		 * @return the patch with the series
		 */
		public CountPatch withSeries(Instant lastObservedTime) {
			return new CountPatch(this.count, this.lastTimestamp, this.message, this.resourceVersion,
					Objects.requireNonNull(lastObservedTime, "lastObservedTime"), this.annotations);
		}

		/**
		 * This patch also setting {@code annotations} on the Event.
		 * @param annotations the annotations, {@code null} or empty for none
		 * @return the patch with them
		 */
		public CountPatch withAnnotations(@Nullable Map<String, String> annotations) {
			return new CountPatch(this.count, this.lastTimestamp, this.message, this.resourceVersion,
					this.lastObservedTime, annotations);
		}

		/**
		 * The patch body as an ordered map, ready to be serialised with the client's JSON (never by string
		 * formatting, so quotes and unicode in messages are safe). The timestamp is RFC 3339 in UTC, e.g.
		 * {@code 2026-11-30T12:00:00Z}.
		 * @return {@code {"count":N,"lastTimestamp":"...","message":"..."}}, first
		 * {@code "metadata":{"resourceVersion":"...","annotations":{...}}} when there is a resourceVersion or there
		 * are annotations (each only when present), and last
		 * {@code "series":{"count":N,"lastObservedTime":"...000000Z"},"eventTime":null} when there is a
		 * {@link #lastObservedTime()}
		 */
		@Override
		public Map<String, Object> toMap() {
			Map<String, Object> body = new LinkedHashMap<>();
			Map<String, Object> metadata = EventsV1Sink.SeriesPatch.metadata(this.resourceVersion, this.annotations);
			if (metadata != null) {
				body.put("metadata", metadata);
			}
			body.put("count", this.count);
			body.put("lastTimestamp", DateTimeFormatter.ISO_INSTANT.format(this.lastTimestamp.toInstant()));
			if (this.message != null && !this.message.isEmpty()) {
				body.put("message", this.message);
			}
			if (this.lastObservedTime != null) {
				Map<String, Object> series = new LinkedHashMap<>();
				series.put("count", this.count);
				series.put("lastObservedTime", EventsV1Sink.SeriesPatch.MICRO_TIME.format(this.lastObservedTime));
				body.put("series", series);
				body.put("eventTime", null);
			}
			return body;
		}

	}

}
