package io.github.kubeevents;

import java.time.Instant;
import java.util.Map;

import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The core/v1 writer of a sink (client-go's {@code recordEvent}): turns one {@link Write} its subscriber decided into
 * the requests of one attempt, on the sink's {@link Sink}, in the sink's shape and with the {@code traceparent}
 * annotation when that is on.
 * <ul>
 * <li>An update (count &gt; 1) is a PATCH; a 404 on PATCH (the Event expired or was deleted) falls back to a CREATE
 * with resourceVersion cleared, in the same attempt.</li>
 * <li><b>Without patch</b> (a sink with an {@link EventsAccess} probe): where RBAC allows {@code create} but not
 * {@code patch} (known from the probe, or a PATCH refused with 403 that the probe confirms), a repeat is written as
 * a new Event of its own ({@code count: 1} or the coalesced occurrences, its own name and timestamps) and counted
 * as {@code written_without_patch}.</li>
 * <li><b>The stream path</b> (a write whose Event is named by its stream, {@link Write#stream()}): through a
 * {@link StreamWriter}, onto whatever the server has under that name. When the server refuses the read (403), the
 * sink falls back to client-go's names ({@link EventNaming#readRefused}) and this occurrence becomes a new Event
 * with a generated name.</li>
 * </ul>
 *
 * <p>Thread-safe: the sink's writer threads write concurrently (one stream's writes on one thread).
 */
final class CoreV1Writes {

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

	private static final Logger logger = LoggerFactory.getLogger(CoreV1Writes.class);

	private final Sink<CoreV1Event, EventSink.CountPatch> sink;

	private final EventCounters counters;

	private final @Nullable EventsAccess access;

	private final EventNaming naming;

	private final EventShape shape;

	/** The {@code traceparent} annotation of each write, when that option is on. */
	private final TraceAnnotation traceAnnotation;

	private final StreamWriter<Write, CoreV1Event> streams;

	/**
	 * @param attempts the sink's attempts (the stream path's waits are theirs)
	 * @param access the RBAC probe, for writing repeats as new Events where {@code patch} is refused; {@code null}
	 * for none (every repeat is a PATCH)
	 * @param naming how the sink names its Events (told when the server refuses a read)
	 */
	CoreV1Writes(Sink<CoreV1Event, EventSink.CountPatch> sink, WriteAttempts attempts, SinkSettings settings, EventCounters counters,
			@Nullable EventsAccess access, EventNaming naming) {
		this.sink = sink;
		this.counters = counters;
		this.access = access;
		this.naming = naming;
		this.shape = settings.shape();
		this.traceAnnotation = TraceAnnotation.of(settings);
		this.streams = new StreamWriter<>(settings.coreV1Correlation().cacheSize(), 1, settings.jitter(),
				attempts::pause, new StreamOperations());
	}

	/** The streams of the deterministic-names mode, for what a stop writes and a shutdown counts. */
	StreamWriter<Write, CoreV1Event> streams() {
		return this.streams;
	}

	/**
	 * One attempt of {@code write}.
	 * @return what the correlator learns: the Event the server answered, or on the stream path this process's Event
	 * with the server's resourceVersion
	 */
	CoreV1Event write(Write write, WriteAttempts.Requests requests) throws EventSinkException {
		if (!write.stream()) {
			return writeClientGo(write, requests);
		}
		CorrelationResult result = write.result();
		String namespace = result.event().getMetadata().getNamespace();
		if (result.isUpdate() && withoutPatch(namespace, null)) {
			return createWithoutPatch(write, requests);
		}
		try {
			return writeToStream(write, requests);
		}
		catch (EventSinkException ex) {
			// a stream's first write after a restart patches too: RBAC without patch makes it a new Event
			if (!withoutPatch(namespace, ex)) {
				throw ex;
			}
			return createWithoutPatch(write, requests);
		}
	}

	/**
	 * client-go's write: PATCH a repeat (or CREATE it as a new Event where RBAC refuses patch), CREATE a first
	 * occurrence or an Event the server no longer has.
	 */
	private CoreV1Event writeClientGo(Write write, WriteAttempts.Requests requests) throws EventSinkException {
		CorrelationResult result = write.result();
		CoreV1Event event = result.event();
		EventSink.CountPatch patch = (result.patch() != null) ? shaped(result.patch(), write.recorded()) : null;
		if (result.isUpdate() && patch != null) {
			String namespace = event.getMetadata().getNamespace();
			if (withoutPatch(namespace, null)) {
				return createWithoutPatch(write, requests);
			}
			try {
				return requests.request("patch", () -> this.sink.patch(event, patch));
			}
			catch (EventSinkException ex) {
				if (withoutPatch(namespace, ex)) {
					return createWithoutPatch(write, requests);
				}
				if (!ex.isNotFound()) {
					throw ex;
				}
				logger.debug("Event {} no longer exists on the server (expired or deleted); creating it again",
						event.getMetadata().getName());
			}
		}
		event.getMetadata().setResourceVersion(null);
		return createShaped(event, write.recorded(), requests);
	}

	/**
	 * Whether a repeat becomes a new Event because RBAC allows {@code create} but not {@code patch}: known from the
	 * probe ({@code refusal} {@code null}), or a PATCH refused with 403 that the probe confirms.
	 */
	private boolean withoutPatch(@Nullable String namespace, @Nullable EventSinkException refusal) {
		if (this.access == null || namespace == null) {
			return false;
		}
		if (refusal == null) {
			EventsAccess.Check known = this.access.known(EventsApi.CORE_V1, namespace);
			return known != null && known.withoutPatch();
		}
		return refusal.isForbidden() && !refusal.namespaceTerminating()
				&& this.access.recheck(EventsApi.CORE_V1, namespace, "patch").withoutPatch();
	}

	/** The deterministic-names write: onto whatever the server has under the stream's name. */
	private CoreV1Event writeToStream(Write write, WriteAttempts.Requests requests) throws EventSinkException {
		CorrelationResult result = write.result();
		CoreV1Event event = result.event();
		V1ObjectMeta metadata = event.getMetadata();
		int localCount = (event.getCount() != null) ? event.getCount() : 1;
		StreamWriter.Result<CoreV1Event> written = this.streams.write(
				metadata.getNamespace() + "/" + metadata.getName(), localCount,
				result.isUpdate() ? write.occurrences() : localCount, write.recorded(), write, requests);
		if (written.readRefused()) {
			this.naming.readRefused(EventsApi.CORE_V1, metadata.getNamespace());
			// this occurrence becomes a new Event with client-go's name; the correlator then patches that one
			CoreV1Event fresh = CoreV1Events.copy(event);
			fresh.getMetadata().name(write.recorded().generateEventName()).resourceVersion(null);
			return createShaped(fresh, write.recorded(), requests);
		}
		// the correlator keeps this process's count (its key is this process's), with the Event's resourceVersion
		CoreV1Event local = CoreV1Events.copy(event);
		CoreV1Event answer = written.event();
		local.getMetadata()
			.resourceVersion((answer != null && answer.getMetadata() != null)
					? answer.getMetadata().getResourceVersion() : null);
		return local;
	}

	/** The requests of the stream path; one instance for every write. */
	private final class StreamOperations implements StreamWriter.Operations<Write, CoreV1Event> {

		@Override
		public CoreV1Event create(Write write, int count, WriteAttempts.Requests requests) throws EventSinkException {
			CoreV1Event created = CoreV1Events.copy(write.result().event());
			created.getMetadata().setResourceVersion(null);
			created.setCount(count);
			return createShaped(created, write.recorded(), requests);
		}

		@Override
		public CoreV1Event get(Write write, WriteAttempts.Requests requests) throws EventSinkException {
			V1ObjectMeta metadata = write.result().event().getMetadata();
			return requests.request("get", () -> CoreV1Writes.this.sink.get(metadata.getNamespace(), metadata.getName()));
		}

		@Override
		public CoreV1Event patch(Write write, int count, String resourceVersion, WriteAttempts.Requests requests)
				throws EventSinkException {
			CoreV1Event event = write.result().event();
			EventSink.CountPatch patch = shaped(new EventSink.CountPatch(count, event.getLastTimestamp(),
					event.getMessage(), resourceVersion), write.recorded());
			return requests.request("patch", () -> CoreV1Writes.this.sink.patch(event, patch));
		}

		@Override
		public int count(CoreV1Event answer) {
			return (answer.getCount() != null) ? answer.getCount() : 1;
		}

		@Override
		public @Nullable String resourceVersion(CoreV1Event answer) {
			return (answer.getMetadata() != null) ? answer.getMetadata().getResourceVersion() : null;
		}

	}

	/** A CREATE of {@code event}, in the sink's shape. */
	private CoreV1Event createShaped(CoreV1Event event, RecordedEvent recorded, WriteAttempts.Requests requests)
			throws EventSinkException {
		CoreV1Event shaped = (this.shape == EventShape.READERS)
				? ReadersShape.create(event, recorded.timestamp(), recorded.action()) : event;
		V1ObjectMeta metadata = shaped.getMetadata();
		V1ObjectMeta annotated = this.traceAnnotation.annotate(metadata, recorded);
		CoreV1Event body = (annotated == metadata) ? shaped : CoreV1Events.copy(shaped).metadata(annotated);
		return requests.request("create", () -> this.sink.create(body));
	}

	/** A count PATCH in the sink's shape. */
	private EventSink.CountPatch shaped(EventSink.CountPatch patch, RecordedEvent recorded) {
		EventSink.CountPatch shaped = (this.shape == EventShape.READERS) ? patch.withSeries(recorded.timestamp())
				: patch;
		Map<String, String> annotations = this.traceAnnotation.of(recorded);
		return annotations.isEmpty() ? shaped : shaped.withAnnotations(annotations);
	}

	/**
	 * A repeat as a new Event of its own: its occurrence's name, the count of the occurrences it stands for (1
	 * unless repeats were coalesced), first timestamp the first of them.
	 */
	private CoreV1Event createWithoutPatch(Write write, WriteAttempts.Requests requests) throws EventSinkException {
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
		CoreV1Event created = createShaped(single, write.recorded(), requests);
		this.counters.writtenWithoutPatch(occurrences);
		return created;
	}

}
