package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events.k8s.io/v1 sink subscriber (client-go's {@code tools/events} {@code recordToSink} and
 * {@code attemptRecording}): series instead of count PATCHes. On the distribution thread it
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
 * recorded at or after its time, or at the latest within a second of real time. So the requests depend only on
 * the recorded sequence, never on when a write completed.
 *
 * <p>Writes are made on its {@link SinkRun}'s writer threads, by an {@link EventWriter} over {@link EventsV1Writes}.
 * CREATE, the second occurrence's PATCH and final PATCHes are retried on the retry policy (events.k8s.io/v1 delay
 * rule); a heartbeat gets one attempt (a failed one leaves its occurrences to the next write). Refusals, retries and
 * Retry-After are the run's ({@link WriteAttempts}, {@link SinkRequests}).
 *
 * <p><b>Deterministic names</b> (opt-in, {@link EventNaming}): each Event is named by its stream
 * ({@link DeterministicNames}) when its series starts, and the series' writes go through the writer's stream path
 * ({@link SeriesCache.Write#stream()}). The series cache decides the writes as before.
 *
 * <p>The RBAC fallback of {@code auto} to core/v1 is the {@link SwitchingSinkSubscriber}'s, which hands this
 * subscriber's unwritten occurrences over ({@link #handOver()}).
 *
 * <p>Thread-safe.
 */
final class EventsV1SinkSubscriber extends SinkSubscriber implements SinkWriters.Target<SeriesCache.Write> {

	private static final Logger logger = LoggerFactory.getLogger(EventsV1SinkSubscriber.class);

	/** How many periods a schedule may fall behind the clock before its missed passes are skipped. */
	private static final int MAX_PASSES_BEHIND = 10;

	private final UidlessObjectWarning uidless = new UidlessObjectWarning("regarding.uid");

	private final SeriesCache cache;

	private final @Nullable EventCorrelator correlator;

	/** Problems already logged at WARN (later ones at DEBUG); bounded, since a problem may name the object. */
	private final Cache<String, Boolean> loggedProblems = Caches.bounded(1024);

	private final SinkRun<EventsV1Event, EventsV1Sink.SeriesPatch> run;

	private final EventsV1Writes bodies;

	private final EventWriter<SeriesCache.Write, EventsV1Event, EventsV1Sink.SeriesPatch> writer;

	/** Whether deterministic names were asked for ({@link EventNaming#requested()}). */
	private final boolean streams;

	/** The next finish and heartbeat passes; written by the distribution thread only. */
	private volatile Instant nextFinish;

	private volatile Instant nextHeartbeat;

	EventsV1SinkSubscriber(String name, Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters) {
		this(name, sink, choice, settings, counters, EventNaming.clientGo(), null, null, "");
	}

	/**
	 * @param naming how Events are named (client-go's, or deterministic)
	 * @param apiFallback the switch to core/v1 of {@code auto}, which its {@link SwitchingSinkSubscriber} owns (asked
	 * whether events.k8s.io/v1 stays the API where RBAC refuses patch); {@code null} for none
	 * @param access the RBAC probe, for writing repeats as new Events where {@code patch} is refused (and the switch
	 * does not help); {@code null} for none
	 * @param server the API server written to, for failures in health and stats; empty when unknown
	 */
	EventsV1SinkSubscriber(String name, Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters, EventNaming naming, @Nullable ApiFallback apiFallback,
			@Nullable EventsAccess access, String server) {
		super(name, choice, counters, naming, access);
		this.streams = naming.requested();
		this.run = new SinkRun<>(name, EventsApi.EVENTS_V1, sink, server, settings, counters, this);
		this.bodies = new EventsV1Writes(settings);
		this.writer = new EventWriter<>(EventsApi.EVENTS_V1, this.bodies, this.run.requests(), counters, naming,
				access, apiFallback, settings.seriesCacheSize(), settings);
		this.cache = new SeriesCache(settings.seriesCacheSize());
		CorrelatorOptions options = settings.eventsV1Correlation();
		this.correlator = (options.aggregationEnabled() || options.spamFilterEnabled()) ? new EventCorrelator(options)
				: null;
		// client-go runs both passes once at start, on an empty cache: the first runs that matter are a period later
		Instant start = settings.clock().instant();
		this.nextFinish = start.plus(SeriesCache.FINISH_TIME);
		this.nextHeartbeat = start.plus(SeriesCache.REFRESH_TIME);
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
		if (ApiServerValidation.dropIfRefused(recorded, this.counters)) {
			return;
		}
		this.uidless.check(recorded);
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
		boolean stream = this.streams
				&& this.naming.deterministic(EventsApi.EVENTS_V1, checked.event().getMetadata().getNamespace());
		if (stream) {
			checked.event().getMetadata().setName(DeterministicNames.eventsV1(checked.event()));
		}
		SeriesCache.Observation observation = this.cache.observe(checked.event(), recorded, stream);
		submit(observation.write());
		submit(observation.evicted());
	}

	@Override
	void tick(Instant now) {
		runPassesDue(now);
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
	void beforeStop(boolean shutdown) {
		List<SeriesCache.Write> finals = this.cache.flush();
		if (!finals.isEmpty()) {
			logger.debug("Writing the final count of {} series before the recorder stops", finals.size());
		}
		submitAll(finals);
		if (this.streams) {
			// after the finals, on the same writer threads: a final write of a stream carries what it holds already
			this.run.writers().submitCarried();
		}
	}

	/**
	 * The writers end; at a shutdown, what the series still hold (a heartbeat that failed left its occurrences to a
	 * write that will not come, or the deadline passed) and what the streams carry is counted as {@code shutdown}
	 * drops; a stop keeps it for the next start.
	 */
	@Override
	void end(boolean shutdown) {
		this.run.end();
		if (shutdown) {
			countHeld();
		}
	}

	@Override
	void countHeld() {
		countUnwritten(this.cache.handOver(), SeriesCache.Unsubmitted::last, SeriesCache.Unsubmitted::occurrences,
				"occurrence(s) of event series");
		countCarried(this.writer.streams());
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
		if (write != null) {
			this.run.writers().submit(write.recorded(), write);
		}
	}

	/**
	 * Writes one write on a writer thread: a heartbeat once (a failure leaves its occurrences to the series' next
	 * write), any other with retries; the cache learns the count the server has.
	 */
	@Override
	public void write(SeriesCache.Write write) {
		boolean heartbeat = write.kind() == SeriesCache.Kind.HEARTBEAT;
		WriteAttempts.Outcome<EventWriter.Written<EventsV1Event>> outcome = heartbeat
				? this.run.attempts().writeOnce(write, write.recorded(), write.occurrences(), this.writer)
				: this.run.attempts().write(write, write.recorded(), write.occurrences(), this.writer);
		EventWriter.Written<EventsV1Event> written = outcome.written();
		if (written != null) {
			EventsV1Event answer = written.answer();
			this.cache.written(write, (written.onStream() && answer != null) ? this.bodies.count(answer) : write.count());
		}
		else if (outcome.state() == WriteAttempts.State.NOT_WRITTEN) {
			dropped(write, outcome.lostAs());
		}
	}

	/** A heartbeat's occurrences go back to its series, unless that is forgotten: then they are dropped here. */
	@Override
	public void dropped(SeriesCache.Write write, DropReason reason) {
		if (write.kind() != SeriesCache.Kind.HEARTBEAT || !this.cache.notWritten(write)) {
			this.counters.drop(reason, write.recorded(), write.occurrences());
		}
	}

	@Override
	public void writeCarried(int thread) {
		writeCarried(thread, this.run, this.writer.streams());
	}

	@Override
	SinkRun<?, ?> current() {
		return this.run;
	}

	/** Its 403 handler (the switch of {@code auto} to core/v1), told about every write refused with 403. */
	void onForbidden(WriteAttempts.ForbiddenHandler handler) {
		this.run.attempts().onForbidden(handler);
	}

	/** The series cache's view (for the snapshot of the {@link SwitchingSinkSubscriber} after its switch too). */
	RecorderSnapshot.SeriesSnapshot series(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
		return this.cache.snapshot(limit, filter, this.nextFinish, this.nextHeartbeat);
	}

	@Override
	RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
		return new RecorderSnapshot.SinkSnapshot(this.name, this.choice.api().value(), this.choice.reason(), writes(),
				(this.correlator != null) ? this.correlator.snapshot(limit, filter) : null, series(limit, filter),
				missingAccess());
	}

}
