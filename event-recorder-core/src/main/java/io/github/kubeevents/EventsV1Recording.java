package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

import io.github.kubeevents.correlator.CoreV1Events;
import io.github.kubeevents.correlator.CorrelationResult;
import io.github.kubeevents.correlator.EventCorrelator;
import io.github.kubeevents.introspect.ObjectRef;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.SinkStats;
import io.github.kubeevents.sink.ApiChoice;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.SeriesPatch;
import io.github.kubeevents.sink.SinkRequestListener;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events.k8s.io/v1 sink subscriber (client-go's {@code tools/events} {@code recordToSink}): series instead
 * of count PATCHes. On its subscriber thread it checks each event against the server's validation
 * ({@link EventsV1Events}), optionally runs the spam filter and aggregation (off by default, as in client-go),
 * and updates the bounded {@link SeriesCache}:
 * <ul>
 * <li>first occurrence of an isomorphic key → CREATE (no series, no deprecated fields);</li>
 * <li>second → PATCH {@code series: {count: 2, lastObservedTime}} (the server requires a series of at least 2);</li>
 * <li>later ones → no request: the count grows in the cache and reaches the server with the heartbeat (every 30
 * minutes) or when the series is finished (idle for more than 6 minutes, checked every 6 minutes), after which
 * the entry is forgotten; a singleton is forgotten 6–12 minutes after it was recorded.</li>
 * </ul>
 * Its {@link SinkWriters} make the requests: a PATCH that gets 404 creates the Event anew with its series; an
 * AlreadyExists while creating from a series is retried; other HTTP statuses drop the write; transport failures
 * are retried up to the policy's attempts, waiting {@code sleep × [1, 1.25)} before every retry (client-go's
 * {@code Jitter(10 s, 0.25)}). Heartbeat and finish writes get one attempt each. The periodic tasks run on the
 * injected clock, checked at least once a second; no lock is held across a sink call, and answers are committed
 * only to entries that did not change meanwhile.
 *
 * <p>Thread-safe.
 */
final class EventsV1Recording implements SinkRecording {

	private static final Logger logger = LoggerFactory.getLogger(EventsV1Recording.class);

	private final EventsV1Sink sink;

	private final SeriesCache cache;

	private final @Nullable EventCorrelator correlator;

	private final SinkSettings settings;

	private final EventCounters counters;

	private final Clock clock;

	private final SinkWriters writers;

	private final ApiChoice choice;

	private final Set<String> invalidControllers = ConcurrentHashMap.newKeySet();

	private final LongAdder created = new LongAdder();

	private final LongAdder patched = new LongAdder();

	private final LongAdder retried = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private volatile Instant nextFinish;

	private volatile Instant nextHeartbeat;

	EventsV1Recording(String name, EventsV1Sink sink, ApiChoice choice, int cacheCapacity,
			@Nullable EventCorrelator correlator, SinkSettings settings, EventCounters counters, Clock clock) {
		this.sink = sink;
		this.choice = choice;
		this.cache = new SeriesCache(cacheCapacity);
		this.correlator = correlator;
		this.settings = settings;
		this.counters = counters;
		this.clock = clock;
		this.writers = new SinkWriters(name, settings.writers(), settings.writerQueueCapacity());
		// client-go runs both tasks once at start, on an empty cache: the first runs that matter are a period later
		this.nextFinish = clock.instant().plus(SeriesCache.FINISH_TIME);
		this.nextHeartbeat = clock.instant().plus(SeriesCache.REFRESH_TIME);
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
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
			boolean repeated = !this.invalidControllers.add(String.valueOf(checked.problem()));
			this.counters.dropAndLog(DropReason.INVALID_INPUT, recorded,
					"Event not valid for events.k8s.io/v1: " + checked.problem(), repeated);
			return;
		}
		if (checked.truncated()) {
			this.counters.truncated(recorded);
		}
		SeriesCache.Observation observation = this.cache.observe(checked.event(), recorded);
		if (observation.count() == 1) {
			submit(observation.entry(), new Create(observation.entry()));
		}
		else if (observation.count() == 2) {
			submit(observation.entry(), new SeriesWrite(observation, true));
		}
		if (observation.evicted() != null) {
			evicted(observation.evicted());
		}
	}

	private void evicted(SeriesCache.Entry entry) {
		if (entry.count > 1 && entry.count > entry.countOnServer) {
			logger.debug("Series cache full: writing the final count {} of {} before forgetting it", entry.count,
					entry.first.describe());
			submit(entry, new SeriesWrite(new SeriesCache.Observation(entry, entry.count, entry.lastObserved,
					entry.version, null), false));
		}
	}

	private void submit(SeriesCache.Entry entry, SinkWriters.Write write) {
		this.writers.submit(SinkSettings.shard(entry.first), write);
	}

	@Override
	public void tick() {
		Instant now = this.clock.instant();
		if (!now.isBefore(this.nextFinish)) {
			this.nextFinish = now.plus(SeriesCache.FINISH_TIME);
			for (SeriesCache.Observation due : this.cache.finish(now)) {
				submit(due.entry(), new SeriesWrite(due, false));
			}
		}
		if (!now.isBefore(this.nextHeartbeat)) {
			this.nextHeartbeat = now.plus(SeriesCache.REFRESH_TIME);
			for (SeriesCache.Observation series : this.cache.series()) {
				submit(series.entry(), new Heartbeat(series));
			}
		}
	}

	/** The first occurrence: CREATE, with retries. */
	private final class Create implements SinkWriters.Write {

		private final SeriesCache.Entry entry;

		Create(SeriesCache.Entry entry) {
			this.entry = entry;
		}

		@Override
		public void run() {
			withRetries(this.entry.first, () -> {
				EventsV1Event event = copyWithSeries(this.entry.created, null);
				EventsV1Recording.this.sink.create(event);
				EventsV1Recording.this.created.increment();
				EventsV1Recording.this.cache.written(this.entry, 1);
			}, false);
		}

		@Override
		public void dropped(DropReason reason) {
			EventsV1Recording.this.failed.increment();
			EventsV1Recording.this.counters.drop(reason, this.entry.first);
		}

	}

	/**
	 * A series write: the second occurrence (with retries), or the final count of a finished or evicted series
	 * (one attempt; a finished series is then forgotten unless it changed or the write should be retried).
	 */
	private final class SeriesWrite implements SinkWriters.Write {

		private final SeriesCache.Observation observation;

		private final boolean retry;

		SeriesWrite(SeriesCache.Observation observation, boolean retry) {
			this.observation = observation;
			this.retry = retry;
		}

		@Override
		public void run() {
			boolean done = withRetries(this.observation.entry().first, () -> writeSeries(this.observation), !this.retry);
			if (!this.retry) {
				EventsV1Recording.this.cache.writeDone(this.observation.entry());
				if (done) {
					EventsV1Recording.this.cache.removeIfUnchanged(this.observation.entry(), this.observation.version());
				}
			}
		}

		@Override
		public void dropped(DropReason reason) {
			EventsV1Recording.this.cache.writeDone(this.observation.entry());
			if (this.retry) {
				EventsV1Recording.this.failed.increment();
				EventsV1Recording.this.counters.drop(reason, this.observation.entry().first);
			}
		}

	}

	/** The heartbeat: the series' current count, one attempt. */
	private final class Heartbeat implements SinkWriters.Write {

		private final SeriesCache.Observation observation;

		Heartbeat(SeriesCache.Observation observation) {
			this.observation = observation;
		}

		@Override
		public void run() {
			withRetries(this.observation.entry().first, () -> writeSeries(this.observation), true);
			EventsV1Recording.this.cache.writeDone(this.observation.entry());
		}

		@Override
		public void dropped(DropReason reason) {
			EventsV1Recording.this.cache.writeDone(this.observation.entry());
		}

	}

	private void writeSeries(SeriesCache.Observation observation) throws EventSinkException {
		SeriesCache.Entry entry = observation.entry();
		SeriesPatch patch = new SeriesPatch(observation.count(), observation.lastObserved());
		long start = System.nanoTime();
		try {
			this.sink.patch(entry.created, patch);
			completed("patch", "success", start);
			this.patched.increment();
		}
		catch (EventSinkException ex) {
			completed("patch", SinkRequestListener.resultOf(ex), start);
			if (!ex.isNotFound()) {
				throw ex;
			}
			logger.debug("Event {} no longer exists on the server; creating it again with its series",
					entry.created.getMetadata().getName());
			EventsV1Event event = copyWithSeries(entry.created, new EventsV1EventSeries().count(observation.count())
				.lastObservedTime(EventsV1Events.microTime(observation.lastObserved())));
			try {
				this.sink.create(event);
			}
			catch (EventSinkException createFailed) {
				if (createFailed.isAlreadyExists()) {
					// the Event appeared between our PATCH (404) and CREATE: client-go retries (PR #114237)
					throw EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
							"AlreadyExists while creating from a series: " + createFailed.getMessage(), createFailed);
				}
				throw createFailed;
			}
			this.created.increment();
		}
		this.cache.written(entry, observation.count());
	}

	@FunctionalInterface
	private interface Attempt {

		void run() throws EventSinkException;

	}

	/**
	 * Runs an attempt until it succeeds, is dropped, or the attempts are used up.
	 * @return {@code true} when done (written or dropped for good), {@code false} when a retry was still wanted
	 */
	private boolean withRetries(RecordedEvent recorded, Attempt attempt, boolean once) {
		int maxAttempts = once ? 1 : this.settings.retryPolicy().maxAttempts();
		for (int n = 1;; n++) {
			try {
				attempt.run();
				return true;
			}
			catch (EventSinkException ex) {
				if (!ex.isRetryable()) {
					rejected(recorded, ex);
					return true;
				}
				if (once) {
					logger.debug("Unable to write event series (one attempt): {}: {}", recorded.describe(),
							ex.getMessage());
					return false;
				}
				if (n >= maxAttempts) {
					this.failed.increment();
					this.counters.dropAndLog(DropReason.RETRIES_EXHAUSTED, recorded,
							"Unable to write event (retry limit of " + maxAttempts + " attempts exceeded!)", false);
					return true;
				}
				logger.warn("Unable to write event (attempt {}/{}, may retry after sleeping): {}: {}", n, maxAttempts,
						recorded.describe(), ex.getMessage());
				Duration delay = this.settings.retryPolicy().sleep();
				Duration jittered = Duration.ofNanos((long) (delay.toNanos() * (1 + 0.25 * this.settings.jitter().getAsDouble())));
				if (!this.settings.sleepBeforeRetry(jittered)) {
					this.failed.increment();
					this.counters.drop(DropReason.SHUTDOWN, recorded);
					return true;
				}
				this.retried.increment();
			}
		}
	}

	private void rejected(RecordedEvent recorded, EventSinkException ex) {
		this.failed.increment();
		if (ex.kind() == EventSinkException.Kind.REQUEST_CONSTRUCTION) {
			this.counters.dropAndLog(DropReason.INVALID_INPUT, recorded,
					"Unable to construct event (will not retry!): " + ex.getMessage(), false);
		}
		else {
			this.counters.dropAndLog(DropReason.REJECTED_BY_SERVER, recorded,
					"Server rejected event (will not retry!): " + ex.getMessage(), ex.isAlreadyExists());
		}
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

	private void completed(String verb, String result, long startNanos) {
		this.settings.requestListener()
			.requestCompleted("events.k8s.io/v1", verb, result, Duration.ofNanos(System.nanoTime() - startNanos));
	}

	@Override
	public void started() {
		this.writers.start();
	}

	@Override
	public void stopped() {
		this.writers.closeAndJoin();
	}

	@Override
	public void cancel() {
		this.settings.cancel();
		this.sink.cancel();
	}

	@Override
	public void abort() {
		cancel();
		this.writers.abort();
		this.sink.abort();
	}

	@Override
	public ApiChoice choice() {
		return this.choice;
	}

	@Override
	public RecorderSnapshot.SinkSnapshot snapshot(String name, int limit, Predicate<ObjectRef> filter) {
		return new RecorderSnapshot.SinkSnapshot(name, this.choice.api().value(), this.choice.reason(), stats(),
				(this.correlator != null) ? this.correlator.snapshot(limit, filter) : null,
				this.cache.snapshot(limit, filter, this.nextHeartbeat, this.nextFinish));
	}

	@Override
	public SinkStats stats() {
		return new SinkStats(this.created.sum(), this.patched.sum(), this.retried.sum(), this.failed.sum());
	}


}
