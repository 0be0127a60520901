package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events.k8s.io/v1 sink subscriber (client-go's {@code tools/events} {@code recordToSink},
 * {@code attemptRecording} and {@code recordEvent}): series instead of count PATCHes. On its subscriber thread it
 * checks each event against the server's validation ({@link EventsV1Events}), optionally runs the spam filter and
 * aggregation (off by default, as in client-go), and lets its {@link SeriesCache} decide the writes:
 * <ul>
 * <li>first occurrence of an isomorphic key → CREATE (no series, no deprecated fields);</li>
 * <li>second → PATCH {@code series: {count: 2, lastObservedTime}} (the server requires a series of at least 2);</li>
 * <li>later ones → no request: the count grows in the cache and reaches the server with the heartbeat (every 30
 * minutes) or when the series is finished (idle for more than 6 minutes, checked every 6 minutes), after which
 * the entry is forgotten; a singleton is forgotten 6–12 minutes after it was recorded;</li>
 * <li>before a stop or shutdown, every series whose count is ahead of what was written gets its final PATCH
 * within the deadline (client-go loses those occurrences).</li>
 * </ul>
 * The finish and heartbeat passes run on a fixed schedule from the subscriber's creation (every 6 and every 30
 * minutes of the injected clock; at a common point, finish first); a pass that is due runs before the first event
 * recorded at or after its time, or at the latest within a second of real time (later while the subscriber waits
 * for room in a full writer queue, when it handles no event either). So the requests depend only on the recorded
 * sequence, never on when a write completed.
 *
 * <p>Writes: a series PATCH that gets 404 (the Event expired or was deleted) creates the Event anew with its
 * series; an AlreadyExists while doing so is retried (the original CREATE landed meanwhile; client-go PR #114237).
 * CREATE, the second occurrence's PATCH and final PATCHes are retried on the retry policy (events.k8s.io/v1 delay
 * rule); a heartbeat gets one attempt (a failed one leaves its occurrences to the next write). Refusals, retries
 * and Retry-After are the {@link WriteAttempts}'.
 *
 * <p><b>Deterministic names</b> (opt-in, {@link EventNaming}): each Event is named by its stream
 * ({@link DeterministicNames}) and every write goes through a {@link StreamWriter}: {@code series.count} becomes the
 * server's count plus the write's new occurrences, with a resourceVersion precondition; a first occurrence that
 * finds an Event without a series starts one at 2. The series cache decides the writes as before. A refused read
 * (403) falls back to client-go's names; that write is then made client-go's way (a CREATE under a generated
 * name).
 *
 * <p><b>The RBAC fallback of {@code auto}</b> (built with a core/v1 subscriber and an {@link ApiFallback}): when a
 * write is refused with 403 and core/v1 Events are allowed, this subscriber writes core/v1 from then on, through
 * that subscriber: the refused writes' occurrences are recorded there again (from the writer threads, through a
 * bounded queue the subscriber thread drains), and so are the occurrences its series held that no write carried.
 * Every occurrence is thus written once, by one API or the other.
 *
 * <p>Thread-safe.
 */
final class EventsV1SinkSubscriber extends SinkSubscriber {

	private static final Logger logger = LoggerFactory.getLogger(EventsV1SinkSubscriber.class);

	/** How many periods a schedule may fall behind the clock before its missed passes are skipped. */
	private static final int MAX_PASSES_BEHIND = 10;

	private final Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink;

	private final SeriesCache cache;

	private final @Nullable EventCorrelator correlator;

	private final Clock clock;

	/** Problems already logged at WARN (later ones at DEBUG); bounded, since a problem may name the object. */
	private final Cache<String, Boolean> loggedProblems = Caches.bounded(1024);

	private final @Nullable CoreV1SinkSubscriber fallback;

	private final @Nullable ApiFallback apiFallback;

	private final @Nullable EventsAccess access;

	private final StreamWriter<EventsV1Event> streams;

	/** Occurrences of refused writes, for the fallback; bounded by {@link #reroutedCapacity}. */
	private final Queue<RecordedEvent> rerouted = new ConcurrentLinkedQueue<>();

	private final AtomicInteger reroutedSize = new AtomicInteger();

	private final int reroutedCapacity;

	/** Whether the series were handed over to the fallback; written by the subscriber thread only. */
	private volatile boolean handedOver;

	/** The next finish and heartbeat passes; written by the subscriber thread only. */
	private volatile Instant nextFinish;

	private volatile Instant nextHeartbeat;

	/** The {@code traceparent} annotation of each write, when that option is on. */
	private final TraceAnnotation traceAnnotation;

	EventsV1SinkSubscriber(String name, Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters) {
		this(name, sink, choice, settings, counters, EventNaming.clientGo(), null, null, null);
	}

	EventsV1SinkSubscriber(String name, Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters, EventNaming naming) {
		this(name, sink, choice, settings, counters, naming, null, null, null);
	}

	/**
	 * A subscriber that falls back to core/v1 when RBAC refuses events.k8s.io/v1 and allows core/v1.
	 * @param naming how Events are named (client-go's, or deterministic)
	 * @param fallback the core/v1 subscriber written through after the switch
	 * @param apiFallback decides the switch
	 * @param access the RBAC probe, for writing repeats as new Events where {@code patch} is refused (and the switch
	 * does not help); {@code null} for none
	 */
	EventsV1SinkSubscriber(String name, Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters, EventNaming naming, @Nullable CoreV1SinkSubscriber fallback,
			@Nullable ApiFallback apiFallback, @Nullable EventsAccess access) {
		super(name, choice, sink, settings, counters, naming);
		this.streams = new StreamWriter<>(settings.seriesCacheSize(), 2, settings.jitter(), this.attempts::pause);
		this.fallback = fallback;
		this.apiFallback = apiFallback;
		this.access = access;
		this.reroutedCapacity = settings.writers() * settings.writerQueueCapacity();
		if (apiFallback != null) {
			this.attempts.onForbidden(this::forbidden);
		}
		this.sink = sink;
		this.cache = new SeriesCache(settings.seriesCacheSize());
		CorrelatorOptions options = settings.eventsV1Correlation();
		this.correlator = (options.aggregationEnabled() || options.spamFilterEnabled()) ? new EventCorrelator(options)
				: null;
		this.clock = settings.clock();
		this.traceAnnotation = TraceAnnotation.of(settings);
		// client-go runs both passes once at start, on an empty cache: the first runs that matter are a period later
		Instant start = this.clock.instant();
		this.nextFinish = start.plus(SeriesCache.FINISH_TIME);
		this.nextHeartbeat = start.plus(SeriesCache.REFRESH_TIME);
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
		CoreV1SinkSubscriber core = switchedTo();
		if (core != null) {
			core.onEvent(recorded);
			return;
		}
		String problem = ApiServerValidation.problem(recorded);
		if (problem != null) {
			this.counters.dropAndLog(DropReason.INVALID_INPUT, recorded, problem, false);
			return;
		}
		runPassesDue(recorded.timestamp());
		String note = recorded.message();
		if (this.correlator != null) {
			CorrelationResult result = this.correlator.aggregateAndFilter(CoreV1Events.of(recorded));
			if (result.skip()) {
				this.counters.drop(DropReason.SPAM_FILTERED, recorded);
				return;
			}
			note = result.event().getMessage();
		}
		EventsV1Events.Result checked = EventsV1Events.of(recorded, (note != null) ? note : "");
		if (checked.event() == null) {
			boolean repeated = this.loggedProblems.asMap()
				.putIfAbsent(String.valueOf(checked.problem()), Boolean.TRUE) != null;
			this.counters.dropAndLog(DropReason.INVALID_INPUT, recorded,
					"Event not valid for events.k8s.io/v1: " + checked.problem(), repeated);
			return;
		}
		if (checked.truncated()) {
			this.counters.truncated(recorded);
		}
		if (this.naming.deterministic(EventsApi.EVENTS_V1, checked.event().getMetadata().getNamespace())) {
			checked.event().getMetadata().setName(DeterministicNames.eventsV1(checked.event()));
		}
		SeriesCache.Observation observation = this.cache.observe(checked.event(), recorded);
		submit(observation.write());
		submit(observation.evicted());
	}

	@Override
	void tick(Instant now) {
		CoreV1SinkSubscriber core = switchedTo();
		if (core != null) {
			core.tick(now);
			return;
		}
		runPassesDue(now);
	}

	/**
	 * The fallback once switched (the subscriber thread then hands the series over, once, and records the
	 * occurrences of refused writes there), else {@code null}.
	 */
	private @Nullable CoreV1SinkSubscriber switchedTo() {
		CoreV1SinkSubscriber core = this.fallback;
		ApiChoice switched = (this.apiFallback != null) ? this.apiFallback.switched() : null;
		if (core == null || switched == null) {
			return null;
		}
		if (!this.handedOver) {
			this.handedOver = true;
			choice(switched);
			core.started();
			for (SeriesCache.Unsubmitted unsubmitted : this.cache.handOver()) {
				for (int i = 0; i < unsubmitted.occurrences(); i++) {
					core.onEvent(unsubmitted.last());
				}
			}
		}
		RecordedEvent refused;
		while ((refused = this.rerouted.poll()) != null) {
			this.reroutedSize.decrementAndGet();
			core.onEvent(refused);
		}
		return core;
	}

	/** A write was refused with 403 (a writer thread): its occurrences go to core/v1 if the sink switches. */
	private boolean forbidden(RecordedEvent recorded, int occurrences, String verb, EventSinkException refusal) {
		if (this.apiFallback == null || !this.apiFallback.refused(recorded, verb, refusal)) {
			return false;
		}
		for (int i = 0; i < occurrences; i++) {
			if (this.reroutedSize.incrementAndGet() > this.reroutedCapacity) {
				this.reroutedSize.decrementAndGet();
				this.counters.drop(DropReason.QUEUE_FULL, recorded);
			}
			else {
				this.rerouted.add(recorded);
			}
		}
		return true;
	}

	/** Runs the finish and heartbeat passes due at or before {@code time}, in time order, finish first at a tie. */
	private void runPassesDue(Instant time) {
		catchUp(time);
		while (true) {
			boolean finishDue = !this.nextFinish.isAfter(time);
			boolean heartbeatDue = !this.nextHeartbeat.isAfter(time);
			if (finishDue && !this.nextFinish.isAfter(this.nextHeartbeat)) {
				submitAll(this.cache.finish(this.nextFinish));
				this.nextFinish = this.nextFinish.plus(SeriesCache.FINISH_TIME);
			}
			else if (heartbeatDue) {
				submitAll(this.cache.heartbeat());
				this.nextHeartbeat = this.nextHeartbeat.plus(SeriesCache.REFRESH_TIME);
			}
			else {
				return;
			}
		}
	}

	/**
	 * After a long jump of the clock (a suspended machine, a test clock) the passes of a schedule more than
	 * {@value #MAX_PASSES_BEHIND} periods behind are skipped up to the last one due: the earlier ones would only
	 * repeat it (and a heartbeat write a count again).
	 */
	private void catchUp(Instant time) {
		this.nextFinish = lastDue(this.nextFinish, time, SeriesCache.FINISH_TIME);
		this.nextHeartbeat = lastDue(this.nextHeartbeat, time, SeriesCache.REFRESH_TIME);
	}

	private static Instant lastDue(Instant next, Instant time, Duration period) {
		long behind = next.isAfter(time) ? 0 : Duration.between(next, time).toNanos() / period.toNanos();
		return (behind > MAX_PASSES_BEHIND) ? next.plus(period.multipliedBy(behind)) : next;
	}

	@Override
	void started() {
		super.started();
		if (this.fallback != null && this.handedOver) {
			this.fallback.started();
		}
	}

	@Override
	void cancel() {
		super.cancel();
		if (this.fallback != null) {
			this.fallback.cancel();
		}
	}

	/**
	 * The v1 writers end first, so no refusal reroutes anything after them. A final write refused with 403 may have
	 * switched the sink after {@link #beforeStop}: unless the deadline passed, its occurrences and the series'
	 * unsubmitted ones are handed to core/v1 now, before its writers end. What is still held after that (the
	 * deadline passed, or a heartbeat that failed during a shutdown left its occurrences to a write that will not
	 * come) is counted as {@code shutdown} drops at a shutdown, and kept for the next start at a stop.
	 */
	@Override
	void stopped(boolean shutdown) {
		super.stopped(shutdown);
		if (this.fallback != null) {
			if (!aborted()) {
				switchedTo();
			}
			this.fallback.stopped(shutdown);
		}
		if (shutdown) {
			countHeld();
			countCarried(this.streams);
		}
	}

	/** At shutdown: the occurrences this subscriber holds that no write will carry become {@code shutdown} drops. */
	private void countHeld() {
		RecordedEvent refused;
		while ((refused = this.rerouted.poll()) != null) {
			this.reroutedSize.decrementAndGet();
			this.counters.drop(DropReason.SHUTDOWN, refused);
		}
		countUnwritten(this.cache.handOver(), SeriesCache.Unsubmitted::last, SeriesCache.Unsubmitted::occurrences,
				"occurrence(s) of event series");
	}

	@Override
	void abort() {
		super.abort();
		if (this.fallback != null) {
			this.fallback.abort();
		}
	}

	@Override
	void resume() {
		super.resume();
		if (this.fallback != null) {
			this.fallback.resume();
		}
	}

	@Override
	boolean awaitTermination(long deadlineNanos) {
		boolean ended = super.awaitTermination(deadlineNanos);
		return (this.fallback != null) ? this.fallback.awaitTermination(deadlineNanos) && ended : ended;
	}

	@Override
	RecorderStats.Writes writes() {
		RecorderStats.Writes writes = super.writes();
		return (this.fallback != null) ? writes.plus(this.fallback.writes()) : writes;
	}

	@Override
	long rejectedInARow() {
		return (this.fallback != null && this.handedOver) ? this.fallback.rejectedInARow() : super.rejectedInARow();
	}

	@Override
	void beforeStop(boolean shutdown) {
		CoreV1SinkSubscriber core = switchedTo();
		if (core != null) {
			core.beforeStop(shutdown);
			return;
		}
		List<SeriesCache.Write> finals = this.cache.flush();
		if (!finals.isEmpty()) {
			logger.debug("Writing the final count of {} series before the recorder stops", finals.size());
		}
		submitAll(finals);
		// after the finals, on the same writer threads: a final write of a stream carries what it holds already
		submitCarried(this.streams);
	}

	/**
	 * Every occurrence no write carries yet (the sink switches to core/v1), forgetting every series.
	 * @return the latest occurrence of each entry, with how many occurrences it stands for
	 */
	List<SeriesCache.Unsubmitted> handOver() {
		return this.cache.handOver();
	}

	private void submitAll(List<SeriesCache.Write> writes) {
		for (SeriesCache.Write write : writes) {
			submit(write);
		}
	}

	private void submit(SeriesCache.@Nullable Write write) {
		if (write == null) {
			return;
		}
		this.writers.submit(SinkWriters.shard(write.recorded()), new SinkWriters.Write() {

			@Override
			public void run() {
				write(write);
			}

			@Override
			public void dropped(DropReason reason) {
				if (write.kind() == SeriesCache.Kind.HEARTBEAT) {
					EventsV1SinkSubscriber.this.cache.notWritten(write);
				}
				else {
					EventsV1SinkSubscriber.this.counters.drop(reason, write.recorded(), write.occurrences());
				}
			}

		});
	}

	private void write(SeriesCache.Write write) {
		WriteAttempts.Attempt attempt = () -> {
			if (this.naming.requested() && EventNames.isStreamName(write.created().getMetadata().getName())) {
				if (write.kind() != SeriesCache.Kind.CREATE && withoutPatch(write, null)) {
					createWithoutPatch(write);
					this.cache.written(write);
					return;
				}
				try {
					// the series cache shows the count the server has, which other processes' occurrences are part of
					this.cache.written(write, writeToStream(write));
				}
				catch (EventSinkException ex) {
					// a stream's first write after a restart patches too: RBAC without patch makes it a new Event
					if (!withoutPatch(write, ex)) {
						throw ex;
					}
					createWithoutPatch(write);
					this.cache.written(write);
				}
				return;
			}
			if (write.kind() == SeriesCache.Kind.CREATE) {
				create(copyWithSeries(write.created(), null), write.recorded());
			}
			else {
				writeSeries(write);
			}
			this.cache.written(write);
		};
		if (write.kind() == SeriesCache.Kind.HEARTBEAT) {
			if (this.attempts.writeOnce(write.recorded(), write.occurrences(),
					attempt) == WriteAttempts.Outcome.NOT_WRITTEN) {
				this.cache.notWritten(write);
			}
		}
		else {
			this.attempts.write(write.recorded(), write.occurrences(), attempt);
		}
	}

	/**
	 * A write in the deterministic-names mode: onto whatever the server has under the stream's name.
	 * @return the series count the server answered (1 without a series), or the write's count when nothing was
	 * written or the write fell back to a new Event
	 */
	private int writeToStream(SeriesCache.Write write) throws EventSinkException {
		EventsV1Event created = write.created();
		String namespace = created.getMetadata().getNamespace();
		String name = created.getMetadata().getName();
		StreamWriter.Result<EventsV1Event> written = this.streams.write(namespace + "/" + name, write.count(),
				write.occurrences(), write.recorded(), new StreamWriter.Operations<>() {

					@Override
					public EventsV1Event create(int count) throws EventSinkException {
						EventsV1Event event = copyWithSeries(created, (count < 2) ? null
								: new EventsV1EventSeries().count(count)
									.lastObservedTime(EventsV1Events.microTime(write.lastObserved())));
						event.setMetadata(copyMetadata(created));
						return EventsV1SinkSubscriber.this.create(event, write.recorded());
					}

					@Override
					public EventsV1Event get() throws EventSinkException {
						return EventsV1SinkSubscriber.this.attempts.request("get",
								() -> EventsV1SinkSubscriber.this.sink.get(namespace, name));
					}

					@Override
					public EventsV1Event patch(int count, String resourceVersion) throws EventSinkException {
						EventsV1Sink.SeriesPatch patch = new EventsV1Sink.SeriesPatch(count, write.lastObserved(),
								resourceVersion, EventsV1SinkSubscriber.this.traceAnnotation.of(write.recorded()));
						return EventsV1SinkSubscriber.this.attempts.request("patch",
								() -> EventsV1SinkSubscriber.this.sink.patch(created, patch));
					}

					@Override
					public int count(EventsV1Event answer) {
						EventsV1EventSeries series = answer.getSeries();
						return (series != null && series.getCount() != null) ? series.getCount() : 1;
					}

					@Override
					public String resourceVersion(EventsV1Event answer) {
						return (answer.getMetadata() != null) ? answer.getMetadata().getResourceVersion() : null;
					}

				});
		if (written.readRefused()) {
			this.naming.readRefused(EventsApi.EVENTS_V1, namespace);
			// client-go's way from now on; this write creates a new Event with a generated name
			EventsV1Event event = copyWithSeries(created, (write.count() < 2) ? null
					: new EventsV1EventSeries().count(write.count())
						.lastObservedTime(EventsV1Events.microTime(write.lastObserved())));
			event.setMetadata(copyMetadata(created).name(write.recorded().generateEventName()));
			create(event, write.recorded());
			return write.count();
		}
		EventsV1Event answer = written.event();
		if (answer == null) {
			return write.count();
		}
		return (answer.getSeries() != null && answer.getSeries().getCount() != null) ? answer.getSeries().getCount() : 1;
	}

	private static V1ObjectMeta copyMetadata(EventsV1Event created) {
		V1ObjectMeta metadata = created.getMetadata();
		return new V1ObjectMeta().name(metadata.getName())
			.namespace(metadata.getNamespace())
			.annotations((metadata.getAnnotations() != null) ? new LinkedHashMap<>(metadata.getAnnotations())
					: null);
	}

	/**
	 * Whether this write becomes a new Event because RBAC allows {@code create} but not {@code patch} here (and the
	 * API stays): known from the probe ({@code refusal} {@code null}), or a PATCH refused with 403 that the probe
	 * confirms.
	 */
	private boolean withoutPatch(SeriesCache.Write write, @Nullable EventSinkException refusal) {
		String namespace = write.created().getMetadata().getNamespace();
		if (namespace == null || this.access == null) {
			return false;
		}
		EventsAccess.Check check;
		if (refusal == null) {
			check = this.access.known(EventsApi.EVENTS_V1, namespace);
		}
		else if (refusal.isForbidden() && !refusal.namespaceTerminating()) {
			check = this.access.recheck(EventsApi.EVENTS_V1, namespace, "patch");
		}
		else {
			return false;
		}
		return check != null && check.withoutPatch() && keepsWithoutPatch(namespace);
	}

	private void writeSeries(SeriesCache.Write write) throws EventSinkException {
		if (withoutPatch(write, null)) {
			createWithoutPatch(write);
			return;
		}
		EventsV1Sink.SeriesPatch patch = new EventsV1Sink.SeriesPatch(write.count(), write.lastObserved(), null,
				this.traceAnnotation.of(write.recorded()));
		try {
			this.attempts.request("patch", () -> this.sink.patch(write.created(), patch));
			return;
		}
		catch (EventSinkException ex) {
			if (withoutPatch(write, ex)) {
				createWithoutPatch(write);
				return;
			}
			if (!ex.isNotFound()) {
				throw ex;
			}
			logger.debug("Event {} no longer exists on the server; creating it again with its series",
					write.created().getMetadata().getName());
		}
		EventsV1Event event = copyWithSeries(write.created(), new EventsV1EventSeries().count(write.count())
			.lastObservedTime(EventsV1Events.microTime(write.lastObserved())));
		try {
			create(event, write.recorded());
		}
		catch (EventSinkException createFailed) {
			if (createFailed.isAlreadyExists()) {
				// the Event appeared between our PATCH (404) and CREATE: client-go retries (PR #114237)
				throw EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
						"AlreadyExists while creating from a series: " + createFailed.getMessage(), createFailed);
			}
			throw createFailed;
		}
	}

	/** Whether events.k8s.io/v1 stays the API without patch (no fallback, or the fallback would not switch). */
	private boolean keepsWithoutPatch(String namespace) {
		return this.apiFallback == null || this.apiFallback.keepsWithoutPatch(namespace);
	}

	/**
	 * The occurrences a series write newly carries, as a new Event of their own (RBAC refuses patch): the latest
	 * occurrence's name, with a series of those occurrences alone when there are two or more, so the Events on the
	 * server add up to every occurrence. A write that carries none (a repeated count) needs no request.
	 */
	private void createWithoutPatch(SeriesCache.Write write) throws EventSinkException {
		int occurrences = write.occurrences();
		if (occurrences <= 0) {
			return;
		}
		EventsV1Event created = write.created();
		EventsV1Event event = copyWithSeries(created, (occurrences < 2) ? null
				: new EventsV1EventSeries().count(occurrences)
					.lastObservedTime(EventsV1Events.microTime(write.lastObserved())));
		event.metadata(new V1ObjectMeta().name(write.recorded().generateEventName())
			.namespace(created.getMetadata().getNamespace())
			.annotations(created.getMetadata().getAnnotations()));
		if (occurrences < 2) {
			event.eventTime(EventsV1Events.microTime(write.lastObserved()));
		}
		create(event, write.recorded());
		this.counters.writtenWithoutPatch(occurrences);
	}

	/** The verbs refused on the API this sink writes now. */
	@Override
	List<RecorderStats.MissingAccess> missingAccessNow() {
		ApiChoice switched = (this.apiFallback != null) ? this.apiFallback.switched() : null;
		if (switched != null && this.fallback != null) {
			return this.fallback.missingAccessNow();
		}
		return (this.access != null) ? this.access.missingAccess(EventsApi.EVENTS_V1) : List.of();
	}

	private List<RecorderStats.MissingAccess> missingAccess() {
		return (this.access != null) ? this.access.missingAccess() : List.of();
	}

	/** A CREATE of {@code event}, with the {@code traceparent} annotation of {@code recorded} when that is on. */
	private EventsV1Event create(EventsV1Event event, RecordedEvent recorded) throws EventSinkException {
		V1ObjectMeta metadata = event.getMetadata();
		V1ObjectMeta annotated = this.traceAnnotation.annotate(metadata, recorded);
		if (annotated != metadata) {
			// copyWithSeries shares the cached Event's metadata: the body gets its own
			event = copyWithSeries(event, event.getSeries()).metadata(annotated);
		}
		EventsV1Event body = event;
		return this.attempts.request("create", () -> this.sink.create(body));
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

	@Override
	RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
		ApiChoice switched = (this.apiFallback != null) ? this.apiFallback.switched() : null;
		if (switched != null && this.fallback != null) {
			RecorderSnapshot.SinkSnapshot core = this.fallback.snapshot(limit, filter);
			return new RecorderSnapshot.SinkSnapshot(this.name, switched.api().value(), switched.reason(), writes(),
					core.correlator(), this.cache.snapshot(limit, filter, this.nextFinish, this.nextHeartbeat),
					missingAccess());
		}
		ApiChoice choice = choice();
		return new RecorderSnapshot.SinkSnapshot(this.name, choice.api().value(), choice.reason(), writes(),
				(this.correlator != null) ? this.correlator.snapshot(limit, filter) : null,
				this.cache.snapshot(limit, filter, this.nextFinish, this.nextHeartbeat), missingAccess());
	}

}
