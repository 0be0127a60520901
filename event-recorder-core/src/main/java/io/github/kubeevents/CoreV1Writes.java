package io.github.kubeevents;

import java.time.Instant;
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
 * without {@code patch} as a new Event of its own ({@code count: 1} or the coalesced occurrences, its own name and
 * timestamps); on the stream path, the stream's Event with the server's count plus the write's occurrences.
 *
 * <p>Immutable and thread-safe.
 */
final class CoreV1Writes implements EventWriter.Bodies<CoreV1Writes.Write, CoreV1Event, EventSink.CountPatch> {

	/**
	 * One write, decided on the distribution thread.
	 * @param recorded the latest occurrence it carries
	 * @param result what the correlator decided (the Event, its patch for an update)
	 * @param occurrences how many recorded occurrences it stands for (more than one when repeats were coalesced)
	 * @param first when the first of them occurred
	 * @param stream whether its Event is named by its stream (deterministic names, now or before a fallback): an
	 * unconditional patch would overwrite the count another process wrote, so it goes through the stream path
	 */
	record Write(RecordedEvent recorded, CorrelationResult result, int occurrences, Instant first, boolean stream) {
	}

	private final EventShape shape;

	/** The {@code traceparent} annotation of each write, when that option is on. */
	private final TraceAnnotation traceAnnotation;

	CoreV1Writes(SinkSettings settings) {
		this.shape = settings.shape();
		this.traceAnnotation = TraceAnnotation.of(settings);
	}

	@Override
	public RecordedEvent recorded(Write write) {
		return write.recorded();
	}

	@Override
	public CoreV1Event event(Write write) {
		return write.result().event();
	}

	@Override
	public boolean stream(Write write) {
		return write.stream();
	}

	@Override
	public boolean repeat(Write write) {
		return write.result().isUpdate() && write.result().patch() != null;
	}

	@Override
	public CoreV1Event created(Write write) {
		return recreated(write);
	}

	@Override
	public EventSink.CountPatch patch(Write write) {
		return shaped(write.result().patch(), write.recorded());
	}

	@Override
	public CoreV1Event recreated(Write write) {
		CoreV1Event event = write.result().event();
		event.getMetadata().setResourceVersion(null);
		return shaped(event, write.recorded());
	}

	/** client-go's {@code tools/record} refuses an AlreadyExists here: someone else's Event of that name. */
	@Override
	public boolean retriesRecreateConflict() {
		return false;
	}

	/**
	 * A repeat as a new Event of its own: its occurrence's name, the count of the occurrences it stands for (1
	 * unless repeats were coalesced), first timestamp the first of them.
	 */
	@Override
	public CoreV1Event withoutPatch(Write write) {
		int occurrences = write.occurrences();
		CoreV1Event single = CoreV1Events.copy(write.result().event());
		single.getMetadata()
			.name(write.recorded().generateEventName())
			.resourceVersion(null)
			.uid(null)
			.creationTimestamp(null);
		single.setCount(occurrences);
		single.setFirstTimestamp(
				(occurrences == 1) ? single.getLastTimestamp() : CoreV1Events.timestamp(write.first()));
		single.setSeries(null);
		return shaped(single, write.recorded());
	}

	/** The correlator then patches this Event, by its name. */
	@Override
	public CoreV1Event fresh(Write write) {
		CoreV1Event fresh = CoreV1Events.copy(write.result().event());
		fresh.getMetadata().name(write.recorded().generateEventName()).resourceVersion(null);
		return shaped(fresh, write.recorded());
	}

	@Override
	public int localCount(Write write) {
		Integer count = write.result().event().getCount();
		return (count != null) ? count : 1;
	}

	@Override
	public int occurrencesIfUnknown(Write write) {
		return write.result().isUpdate() ? write.occurrences() : localCount(write);
	}

	@Override
	public CoreV1Event streamCreated(Write write, int count) {
		CoreV1Event created = CoreV1Events.copy(write.result().event());
		created.getMetadata().setResourceVersion(null);
		created.setCount(count);
		return shaped(created, write.recorded());
	}

	@Override
	public EventSink.CountPatch streamPatch(Write write, int count, String resourceVersion) {
		CoreV1Event event = write.result().event();
		return shaped(new EventSink.CountPatch(count, event.getLastTimestamp(), event.getMessage(), resourceVersion),
				write.recorded());
	}

	@Override
	public int count(CoreV1Event answer) {
		return (answer.getCount() != null) ? answer.getCount() : 1;
	}

	/** A CREATE body of {@code event} in the sink's shape, annotated (a copy when it changes). */
	private CoreV1Event shaped(CoreV1Event event, RecordedEvent recorded) {
		CoreV1Event shaped = (this.shape == EventShape.READERS)
				? ReadersShape.create(event, recorded.timestamp(), recorded.action()) : event;
		V1ObjectMeta metadata = shaped.getMetadata();
		V1ObjectMeta annotated = this.traceAnnotation.annotate(metadata, recorded);
		return (annotated == metadata) ? shaped : CoreV1Events.copy(shaped).metadata(annotated);
	}

	/** A count PATCH in the sink's shape, annotated. */
	private EventSink.CountPatch shaped(EventSink.CountPatch patch, RecordedEvent recorded) {
		EventSink.CountPatch shaped = (this.shape == EventShape.READERS) ? patch.withSeries(recorded.timestamp())
				: patch;
		Map<String, String> annotations = this.traceAnnotation.of(recorded);
		return annotations.isEmpty() ? shaped : shaped.withAnnotations(annotations);
	}

	/** What the correlator learns of a write: the server's Event, or on the stream path this process's with the server's resourceVersion. */
	static @Nullable CoreV1Event learned(Write write, EventWriter.Written<CoreV1Event> written) {
		CoreV1Event answer = written.answer();
		if (!written.onStream()) {
			return answer;
		}
		// the correlator keeps this process's count (its key is this process's), with the Event's resourceVersion
		CoreV1Event local = CoreV1Events.copy(write.result().event());
		local.getMetadata()
			.resourceVersion((answer != null && answer.getMetadata() != null)
					? answer.getMetadata().getResourceVersion() : null);
		return local;
	}

}
