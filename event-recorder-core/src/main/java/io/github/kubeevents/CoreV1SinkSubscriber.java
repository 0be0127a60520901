package io.github.kubeevents;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.jspecify.annotations.Nullable;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The core/v1 sink subscriber (client-go's {@code recordToSink} with {@code recordEvent}): on its subscriber thread
 * it turns each recorded event into a core/v1 Event and correlates it (aggregation, count PATCHes, spam filter);
 * its writers write it.
 *
 * <ul>
 * <li>Spam-filtered events are counted as {@code spam_filtered} (client-go drops them silently).</li>
 * <li>An update (count &gt; 1) is a PATCH; a 404 on PATCH (the Event expired or was deleted) falls back to a
 * CREATE with resourceVersion cleared, in the same attempt.</li>
 * <li>After a successful write, the correlator learns what the server stored.</li>
 * <li>Retries, refusals and Retry-After are the {@link WriteAttempts}' (core/v1 delay rule).</li>
 * <li><b>Without patch</b> (a sink with an {@link EventsAccess} probe): where RBAC allows {@code create} but not
 * {@code patch} (known from the probe, or a PATCH refused with 403 that the probe confirms), a repeat is written as
 * a new Event of its own ({@code count: 1}, its own name and timestamps) and counted as
 * {@code written_without_patch}, instead of being refused; client-go loses it.</li>
 * <li><b>Deterministic names</b> (opt-in, {@link EventNaming}): the Event and a new aggregate are named by their
 * stream ({@link DeterministicNames}) before correlation, and written by a {@link StreamWriter}: the server's count
 * plus this write's new occurrences, with a resourceVersion precondition. The correlator keeps this process's
 * counts (its decisions stay client-go's); it learns the name and resourceVersion of what was written. When the
 * server refuses the read (403), the sink falls back to client-go's names and writes this occurrence as a new
 * Event with a generated name.</li>
 * <li><b>Minimum update interval</b> (opt-in, {@link CorrelatorOptions#minUpdateInterval()}): repeats within the
 * interval of their Event's last write are held by an {@link UpdateCoalescer} and written as one PATCH (the
 * latest count and timestamp) when the interval ends, or at a stop; held repeats a shutdown past its deadline
 * could not write are counted as {@code shutdown} drops, one per occurrence.</li>
 * </ul>
 *
 * <p>Thread-safe: correlation on the subscriber thread, writes on the writer threads.
 */
final class CoreV1SinkSubscriber extends SinkSubscriber {

	private static final Logger logger = LoggerFactory.getLogger(CoreV1SinkSubscriber.class);

	private final Sink<CoreV1Event, EventSink.CountPatch> sink;

	private final EventCorrelator correlator;

	private final @Nullable EventsAccess access;

	private final StreamWriter<CoreV1Event> streams;

	private final EventShape shape;

	private final UpdateCoalescer coalescer;

	/** The {@code traceparent} annotation of each write, when that option is on. */
	private final TraceAnnotation traceAnnotation;

	CoreV1SinkSubscriber(String name, Sink<CoreV1Event, EventSink.CountPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters) {
		this(name, sink, choice, settings, counters, null, EventNaming.clientGo());
	}

	/**
	 * @param access the RBAC probe, for writing repeats as new Events where {@code patch} is refused; {@code null}
	 * for none (every repeat is a PATCH)
	 * @param naming how Events are named (client-go's, or deterministic)
	 */
	CoreV1SinkSubscriber(String name, Sink<CoreV1Event, EventSink.CountPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters, @Nullable EventsAccess access, EventNaming naming) {
		super(name, choice, sink, settings, counters, naming);
		this.sink = Objects.requireNonNull(sink, "sink");
		this.correlator = new EventCorrelator(settings.coreV1Correlation(),
				naming.requested() ? this::aggregateName : null);
		this.access = access;
		this.shape = settings.shape();
		this.traceAnnotation = TraceAnnotation.of(settings);
		this.streams = new StreamWriter<>(settings.coreV1Correlation().cacheSize(), 1, settings.jitter(),
				this.attempts::pause);
		this.coalescer = new UpdateCoalescer(settings.coreV1Correlation().minUpdateInterval(),
				settings.coreV1Correlation().cacheSize());
	}

	private String aggregateName(CoreV1Event aggregate) {
		return this.naming.deterministic(EventsApi.CORE_V1, aggregate.getMetadata().getNamespace())
				? DeterministicNames.coreV1(aggregate, true) : null;
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
		String problem = ApiServerValidation.problem(recorded);
		if (problem != null) {
			this.counters.dropAndLog(DropReason.INVALID_INPUT, recorded, problem, false);
			return;
		}
		CoreV1Event event = CoreV1Events.of(recorded);
		if (this.naming.deterministic(EventsApi.CORE_V1, event.getMetadata().getNamespace())) {
			event.getMetadata().setName(DeterministicNames.coreV1(event, false));
		}
		CorrelationResult result = this.correlator.correlate(event);
		if (result.skip()) {
			this.counters.drop(DropReason.SPAM_FILTERED, recorded);
			return;
		}
		if (!this.coalescer.enabled()) {
			submit(recorded, result, 1, recorded.timestamp());
			return;
		}
		submitAll(this.coalescer.offer(recorded, result, recorded.timestamp()));
	}

	/** Writes the held repeats whose minimum update interval has ended. */
	@Override
	void tick(Instant now) {
		if (this.coalescer.enabled()) {
			submitAll(this.coalescer.due(now));
		}
	}

	private void submitAll(List<UpdateCoalescer.Release> releases) {
		for (UpdateCoalescer.Release release : releases) {
			submit(release.recorded(), release.result(), release.occurrences(), release.first());
		}
	}

	/**
	 * Hands one write to the writers: {@code occurrences} recorded occurrences (more than one when repeats were
	 * coalesced), the first of them at {@code first}; each one counted if the write is dropped.
	 */
	private void submit(RecordedEvent recorded, CorrelationResult result, int occurrences, Instant first) {
		this.writers.submit(SinkWriters.shard(recorded), new SinkWriters.Write() {

			@Override
			public void run() {
				CoreV1SinkSubscriber.this.attempts.write(recorded, occurrences,
						() -> CoreV1SinkSubscriber.this.correlator
							.updateState(write(recorded, result, occurrences, first)));
			}

			@Override
			public void dropped(DropReason reason) {
				CoreV1SinkSubscriber.this.counters.drop(reason, recorded, occurrences);
			}

		});
	}

	/** One attempt, in the naming mode of the moment. */
	private CoreV1Event write(RecordedEvent recorded, CorrelationResult result, int occurrences,
			Instant first) throws EventSinkException {
		CoreV1Event event = result.event();
		V1ObjectMeta metadata = event.getMetadata();
		String name = metadata.getName();
		// a write named before a fallback keeps the stream's path: an unconditional patch would overwrite the
		// count another process wrote
		if (!this.naming.requested() || !EventNames.isStreamName(name)) {
			return write(result, recorded, occurrences, first);
		}
		String namespace = metadata.getNamespace();
		if (result.isUpdate() && withoutPatch(namespace, null)) {
			return createWithoutPatch(event, recorded, occurrences, first);
		}
		try {
			return writeToStream(recorded, result, occurrences, namespace, name);
		}
		catch (EventSinkException ex) {
			// a stream's first write after a restart patches too: RBAC without patch makes it a new Event
			if (!withoutPatch(namespace, ex)) {
				throw ex;
			}
			return createWithoutPatch(event, recorded, occurrences, first);
		}
	}

	/** Writes what the streams carry (deterministic names: occurrences that lost the race had no later write). */
	@Override
	void beforeStop(boolean shutdown) {
		submitAll(this.coalescer.releaseAll());
		submitCarried(this.streams);
	}

	/**
	 * Repeats held after {@link #beforeStop} (handed over by an events.k8s.io/v1 sink that switched late) are written
	 * before the writers end, unless the deadline passed; what is still held then is counted at a shutdown, kept for
	 * the next start at a stop.
	 */
	@Override
	void stopped(boolean shutdown) {
		if (!aborted()) {
			submitAll(this.coalescer.releaseAll());
		}
		super.stopped(shutdown);
		if (shutdown) {
			countHeld();
			countCarried(this.streams);
		}
	}

	private void countHeld() {
		countUnwritten(this.coalescer.releaseAll(), UpdateCoalescer.Release::recorded,
				UpdateCoalescer.Release::occurrences, "repeat(s) held for the minimum update interval were");
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
	private CoreV1Event writeToStream(RecordedEvent recorded, CorrelationResult result, int occurrences,
			String namespace, String name) throws EventSinkException {
		CoreV1Event event = result.event();
		int localCount = (event.getCount() != null) ? event.getCount() : 1;
		StreamWriter.Result<CoreV1Event> written = this.streams.write(namespace + "/" + name, localCount,
				result.isUpdate() ? occurrences : localCount, recorded, new StreamWriter.Operations<>() {

					@Override
					public CoreV1Event create(int count) throws EventSinkException {
						CoreV1Event created = CoreV1Events.copy(event);
						created.getMetadata().setResourceVersion(null);
						created.setCount(count);
						return createShaped(created, recorded);
					}

					@Override
					public CoreV1Event get() throws EventSinkException {
						return CoreV1SinkSubscriber.this.attempts.request("get",
								() -> CoreV1SinkSubscriber.this.sink.get(namespace, name));
					}

					@Override
					public CoreV1Event patch(int count, String resourceVersion) throws EventSinkException {
						EventSink.CountPatch patch = shaped(new EventSink.CountPatch(count, event.getLastTimestamp(),
								event.getMessage(), resourceVersion), recorded);
						return CoreV1SinkSubscriber.this.attempts.request("patch",
								() -> CoreV1SinkSubscriber.this.sink.patch(event, patch));
					}

					@Override
					public int count(CoreV1Event answer) {
						return (answer.getCount() != null) ? answer.getCount() : 1;
					}

					@Override
					public String resourceVersion(CoreV1Event answer) {
						return (answer.getMetadata() != null) ? answer.getMetadata().getResourceVersion() : null;
					}

				});
		if (written.readRefused()) {
			this.naming.readRefused(EventsApi.CORE_V1, namespace);
			// this occurrence becomes a new Event with client-go's name; the correlator then patches that one
			CoreV1Event fresh = CoreV1Events.copy(event);
			fresh.getMetadata().name(recorded.generateEventName()).resourceVersion(null);
			return createShaped(fresh, recorded);
		}
		// the correlator keeps this process's count (its key is this process's), with the Event's resourceVersion
		CoreV1Event local = CoreV1Events.copy(event);
		CoreV1Event answer = written.event();
		local.getMetadata()
			.resourceVersion((answer != null && answer.getMetadata() != null)
					? answer.getMetadata().getResourceVersion() : null);
		return local;
	}

	/**
	 * One attempt: PATCH a repeat (or CREATE it as a new Event where RBAC refuses patch), CREATE a first occurrence
	 * or an Event the server no longer has.
	 */
	private CoreV1Event write(CorrelationResult result, RecordedEvent recorded, int occurrences,
			Instant first) throws EventSinkException {
		CoreV1Event event = result.event();
		EventSink.CountPatch patch = (result.patch() != null) ? shaped(result.patch(), recorded) : null;
		if (result.isUpdate() && patch != null) {
			String namespace = event.getMetadata().getNamespace();
			if (withoutPatch(namespace, null)) {
				return createWithoutPatch(event, recorded, occurrences, first);
			}
			try {
				return this.attempts.request("patch", () -> this.sink.patch(event, patch));
			}
			catch (EventSinkException ex) {
				if (withoutPatch(namespace, ex)) {
					return createWithoutPatch(event, recorded, occurrences, first);
				}
				if (!ex.isNotFound()) {
					throw ex;
				}
				logger.debug("Event {} no longer exists on the server (expired or deleted); creating it again",
						event.getMetadata().getName());
			}
		}
		event.getMetadata().setResourceVersion(null);
		return createShaped(event, recorded);
	}

	/** A CREATE of {@code event}, in the sink's shape. */
	private CoreV1Event createShaped(CoreV1Event event, RecordedEvent recorded) throws EventSinkException {
		CoreV1Event shaped = (this.shape == EventShape.READERS)
				? ReadersShape.create(event, recorded.timestamp(), recorded.action()) : event;
		V1ObjectMeta metadata = shaped.getMetadata();
		V1ObjectMeta annotated = this.traceAnnotation.annotate(metadata, recorded);
		CoreV1Event body = (annotated == metadata) ? shaped : CoreV1Events.copy(shaped).metadata(annotated);
		return this.attempts.request("create", () -> this.sink.create(body));
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
	private CoreV1Event createWithoutPatch(CoreV1Event event, RecordedEvent recorded, int occurrences,
			Instant first) throws EventSinkException {
		CoreV1Event single = CoreV1Events.copy(event);
		single.getMetadata().name(recorded.generateEventName()).resourceVersion(null).uid(null).creationTimestamp(null);
		single.setCount(occurrences);
		single.setFirstTimestamp((occurrences == 1) ? single.getLastTimestamp() : CoreV1Events.timestamp(first));
		single.setSeries(null);
		CoreV1Event created = createShaped(single, recorded);
		this.counters.writtenWithoutPatch(occurrences);
		return created;
	}

	/** Every verb the probe found refused, both APIs; empty without a probe. */
	List<RecorderStats.MissingAccess> missingAccess() {
		return (this.access != null) ? this.access.missingAccess() : List.of();
	}

	/** The verbs refused on core/v1, which this sink writes. */
	@Override
	List<RecorderStats.MissingAccess> missingAccessNow() {
		return (this.access != null) ? this.access.missingAccess(EventsApi.CORE_V1) : List.of();
	}

	@Override
	RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
		ApiChoice choice = choice();
		return new RecorderSnapshot.SinkSnapshot(this.name, choice.api().value(), choice.reason(), writes(),
				this.correlator.snapshot(limit, filter, this.coalescer.heldEvents(), this.coalescer.heldOccurrences()),
				null, missingAccess());
	}

}
