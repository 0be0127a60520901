package io.github.kubeevents;

import java.util.Map;

import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * What a core/v1 write sends (client-go's {@code recordEvent} bodies), for the sink's {@link EventWriter}: the
 * correlated Event as a CREATE, its count PATCH for a repeat, in the sink's shape ({@link ReadersShape} for
 * {@link EventShape#READERS}) and with the {@code traceparent} annotation when that is on; a repeat written
 * without {@code patch}, or a write the stream path cannot make, as a new Event of its own ({@code count: 1} or the
 * coalesced occurrences, its own name and timestamps); on the stream path, the stream's Event with the server's
 * count plus the write's occurrences.
 *
 * <p>Thread-safe.
 */
final class CoreV1Writes implements EventWriter.Bodies<CoreV1SinkSubscriber.Write, CoreV1Event, EventSink.CountPatch> {

	private final EventShape shape;

	/** The {@code traceparent} annotation of each write; {@code null} when that option is off. */
	private final @Nullable TraceAnnotation traceAnnotation;

	private final ReadersShape.Fallbacks fallbacks = new ReadersShape.Fallbacks();

	CoreV1Writes(SinkSettings settings) {
		this.shape = settings.shape();
		this.traceAnnotation = TraceAnnotation.of(settings);
	}

	@Override
	public CoreV1Event event(CoreV1SinkSubscriber.Write write) {
		return write.result().event();
	}

	/** The correlated Event itself (no copy per CREATE), its resourceVersion cleared. */
	@Override
	public CoreV1Event created(CoreV1SinkSubscriber.Write write) {
		CoreV1Event event = write.result().event();
		event.getMetadata().setResourceVersion(null);
		return shaped(event, write.recorded());
	}

	@Override
	public CoreV1Event created(CoreV1SinkSubscriber.Write write, int count) {
		CoreV1Event created = CoreV1Events.copy(write.result().event()).count(count);
		created.getMetadata().setResourceVersion(null);
		return shaped(created, write.recorded());
	}

	/**
	 * The write as a new Event of its own, under its occurrence's name: the count of the occurrences it stands for
	 * (1 unless repeats were coalesced), first timestamp the first of them (the correlator then patches this Event).
	 */
	@Override
	public CoreV1Event own(CoreV1SinkSubscriber.Write write) {
		int occurrences = write.occurrences();
		CoreV1Event single = CoreV1Events.copy(write.result().event());
		single.getMetadata().name(EventNames.generate(write.recorded())).resourceVersion(null).uid(null)
			.creationTimestamp(null);
		single.setCount(occurrences);
		single.setFirstTimestamp(
				(occurrences == 1) ? single.getLastTimestamp() : CoreV1Events.timestamp(write.first()));
		single.setSeries(null);
		return shaped(single, write.recorded());
	}

	@Override
	public EventSink.CountPatch patch(CoreV1SinkSubscriber.Write write, int count, @Nullable String resourceVersion) {
		CoreV1Event event = write.result().event();
		return shaped(new EventSink.CountPatch(count, event.getLastTimestamp(), event.getMessage(), resourceVersion),
				write.recorded());
	}

	@Override
	public int count(CoreV1Event answer) {
		return (answer.getCount() != null) ? answer.getCount() : 1;
	}

	/** A CREATE body of {@code event} in the sink's shape, annotated (a copy then: the correlator's is shared). */
	private CoreV1Event shaped(CoreV1Event event, RecordedEvent recorded) {
		CoreV1Event shaped = (this.shape == EventShape.READERS)
				? ReadersShape.create(event, recorded, this.fallbacks) : event;
		V1ObjectMeta metadata = shaped.getMetadata();
		V1ObjectMeta annotated = (this.traceAnnotation != null) ? this.traceAnnotation.annotate(metadata, recorded)
				: metadata;
		return (annotated == metadata) ? shaped : CoreV1Events.copy(shaped).metadata(annotated);
	}

	/** A count PATCH in the sink's shape, annotated. */
	private EventSink.CountPatch shaped(EventSink.CountPatch patch, RecordedEvent recorded) {
		EventSink.CountPatch shaped = (this.shape == EventShape.READERS) ? patch.withSeries(recorded.timestamp())
				: patch;
		Map<String, String> annotations = (this.traceAnnotation != null) ? this.traceAnnotation.of(recorded) : Map.of();
		return annotations.isEmpty() ? shaped : shaped.withAnnotations(annotations);
	}

}
