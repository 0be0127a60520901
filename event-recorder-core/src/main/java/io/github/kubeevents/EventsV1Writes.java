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
 * {@code patch} or the stream path cannot write (with a series of those occurrences alone when two or more, so the
 * Events on the server add up to every occurrence); on the stream path, the stream's Event with {@code series.count}
 * the server's count plus the write's new occurrences (a first occurrence that finds an Event without a series starts
 * one at 2).
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

	/** The series' Event with a series of {@code count} (none for 1: a first occurrence). */
	@Override
	public EventsV1Event created(SeriesCache.Write write, int count) {
		return copy(write, count, write.created().getMetadata().getName());
	}

	@Override
	public @Nullable EventsV1Event own(SeriesCache.Write write) {
		int occurrences = write.occurrences();
		if (occurrences <= 0) {
			return null;
		}
		EventsV1Event event = copy(write, occurrences, EventNames.generate(write.recorded()));
		return (occurrences < 2) ? event.eventTime(EventsV1Events.microTime(write.lastObserved())) : event;
	}

	@Override
	public EventsV1Sink.SeriesPatch patch(SeriesCache.Write write, int count, @Nullable String resourceVersion) {
		return new EventsV1Sink.SeriesPatch(count, write.lastObserved(), resourceVersion,
				(this.traceAnnotation != null) ? this.traceAnnotation.of(write.recorded()) : Map.of());
	}

	/** The series count of an Event: 1 without a series. */
	@Override
	public int count(EventsV1Event answer) {
		EventsV1EventSeries series = answer.getSeries();
		return (series != null && series.getCount() != null) ? series.getCount() : 1;
	}

	/**
	 * The series' Event under {@code name} with a series of {@code count} (none below 2; last observed when the
	 * write's), metadata of its own (the cached Event is shared) and the {@code traceparent} annotation when on.
	 */
	private EventsV1Event copy(SeriesCache.Write write, int count, String name) {
		EventsV1Event created = write.created();
		Map<String, String> annotations = created.getMetadata().getAnnotations();
		V1ObjectMeta metadata = new V1ObjectMeta().name(name)
			.namespace(created.getMetadata().getNamespace())
			.annotations((annotations != null) ? new LinkedHashMap<>(annotations) : null);
		if (this.traceAnnotation != null) {
			metadata = this.traceAnnotation.annotate(metadata, write.recorded());
		}
		return new EventsV1Event().metadata(metadata)
			.eventTime(created.getEventTime())
			.reportingController(created.getReportingController())
			.reportingInstance(created.getReportingInstance())
			.action(created.getAction())
			.reason(created.getReason())
			.regarding(created.getRegarding())
			.related(created.getRelated())
			.note(created.getNote())
			.type(created.getType())
			.series((count < 2) ? null : new EventsV1EventSeries().count(count)
				.lastObservedTime(EventsV1Events.microTime(write.lastObserved())));
	}

}
