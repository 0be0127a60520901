package io.github.kubeevents;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * What an events.k8s.io/v1 write sends (client-go's {@code tools/events} {@code recordEvent} bodies), for the
 * sink's {@link EventWriter}, with the {@code traceparent} annotation when that is on: a first occurrence as a
 * CREATE without a series; a later write as a series PATCH, or the Event created anew with its series when the
 * server no longer has it; the occurrences a write newly carries as a new Event of their own where RBAC refuses
 * {@code patch} (with a series of those occurrences alone when two or more, so the Events on the server add up to
 * every occurrence); on the stream path, the stream's Event with {@code series.count} the server's count plus the
 * write's new occurrences (a first occurrence that finds an Event without a series starts one at 2).
 *
 * <p>Immutable and thread-safe.
 */
final class EventsV1Writes implements EventWriter.Bodies<SeriesCache.Write, EventsV1Event, EventsV1Sink.SeriesPatch> {

	/** The {@code traceparent} annotation of each write; {@code null} when that option is off. */
	private final @Nullable TraceAnnotation traceAnnotation;

	EventsV1Writes(SinkSettings settings) {
		this.traceAnnotation = TraceAnnotation.of(settings);
	}

	@Override
	public EventsV1Event event(SeriesCache.Write write) {
		return write.created();
	}

	@Override
	public EventsV1Event created(SeriesCache.Write write) {
		return annotated(copyWithSeries(write.created(), null), write.recorded());
	}

	@Override
	public EventsV1Sink.SeriesPatch patch(SeriesCache.Write write) {
		return streamPatch(write, write.count(), null);
	}

	@Override
	public EventsV1Event recreated(SeriesCache.Write write) {
		return annotated(copyWithSeries(write.created(), series(write.count(), write)), write.recorded());
	}

	/** The Event appeared between the PATCH (404) and this CREATE: client-go retries (PR #114237). */
	@Override
	public boolean retriesRecreateConflict() {
		return true;
	}

	@Override
	public @Nullable EventsV1Event withoutPatch(SeriesCache.Write write) {
		int occurrences = write.occurrences();
		if (occurrences <= 0) {
			return null;
		}
		EventsV1Event created = write.created();
		EventsV1Event event = copyWithSeries(created, series(occurrences, write));
		event.metadata(new V1ObjectMeta().name(EventNames.generate(write.recorded()))
			.namespace(created.getMetadata().getNamespace())
			.annotations(created.getMetadata().getAnnotations()));
		if (occurrences < 2) {
			event.eventTime(EventsV1Events.microTime(write.lastObserved()));
		}
		return annotated(event, write.recorded());
	}

	@Override
	public EventsV1Event fresh(SeriesCache.Write write) {
		EventsV1Event event = copyWithSeries(write.created(), series(write.count(), write));
		event.setMetadata(copyMetadata(write.created()).name(EventNames.generate(write.recorded())));
		return annotated(event, write.recorded());
	}

	@Override
	public int localCount(SeriesCache.Write write) {
		return write.count();
	}

	@Override
	public int occurrencesIfUnknown(SeriesCache.Write write) {
		return write.occurrences();
	}

	@Override
	public EventsV1Event streamCreated(SeriesCache.Write write, int count) {
		EventsV1Event event = copyWithSeries(write.created(), series(count, write));
		event.setMetadata(copyMetadata(write.created()));
		return annotated(event, write.recorded());
	}

	@Override
	public EventsV1Sink.SeriesPatch streamPatch(SeriesCache.Write write, int count, @Nullable String resourceVersion) {
		return new EventsV1Sink.SeriesPatch(count, write.lastObserved(), resourceVersion,
				(this.traceAnnotation != null) ? this.traceAnnotation.of(write.recorded()) : Map.of());
	}

	/** The series count of an Event: 1 without a series. */
	@Override
	public int count(EventsV1Event answer) {
		EventsV1EventSeries series = answer.getSeries();
		return (series != null && series.getCount() != null) ? series.getCount() : 1;
	}

	/** A series of {@code count} observed last when {@code write}'s series was, or none below 2. */
	private static @Nullable EventsV1EventSeries series(int count, SeriesCache.Write write) {
		return (count < 2) ? null
				: new EventsV1EventSeries().count(count).lastObservedTime(EventsV1Events.microTime(write.lastObserved()));
	}

	private static V1ObjectMeta copyMetadata(EventsV1Event created) {
		V1ObjectMeta metadata = created.getMetadata();
		return new V1ObjectMeta().name(metadata.getName())
			.namespace(metadata.getNamespace())
			.annotations((metadata.getAnnotations() != null) ? new LinkedHashMap<>(metadata.getAnnotations())
					: null);
	}

	/** {@code event} with the {@code traceparent} annotation of {@code recorded} when that is on. */
	private EventsV1Event annotated(EventsV1Event event, RecordedEvent recorded) {
		if (this.traceAnnotation == null) {
			return event;
		}
		V1ObjectMeta metadata = event.getMetadata();
		V1ObjectMeta annotated = this.traceAnnotation.annotate(metadata, recorded);
		// copyWithSeries shares the cached Event's metadata: the body gets its own
		return (annotated == metadata) ? event : copyWithSeries(event, event.getSeries()).metadata(annotated);
	}

	private static EventsV1Event copyWithSeries(EventsV1Event created, @Nullable EventsV1EventSeries series) {
		return new EventsV1Event().metadata(created.getMetadata())
			.eventTime(created.getEventTime())
			.reportingController(created.getReportingController())
			.reportingInstance(created.getReportingInstance())
			.action(created.getAction())
			.reason(created.getReason())
			.regarding(created.getRegarding())
			.related(created.getRelated())
			.note(created.getNote())
			.type(created.getType())
			.series(series);
	}

}
