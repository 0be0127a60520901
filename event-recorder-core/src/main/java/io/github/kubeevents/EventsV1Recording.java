package io.github.kubeevents;

import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.ObjectRef;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.SinkStats;
import io.github.kubeevents.sink.EventsV1Sink;
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
final class EventsV1Recording extends AbstractSinkRecording {

	private static final Logger logger = LoggerFactory.getLogger(EventsV1Recording.class);

	private final EventsV1Sink sink;

	private final SeriesCache cache;

	private final @Nullable EventCorrelator correlator;

	private final EventCounters counters;

	private final Clock clock;

	private final Set<String> invalidControllers = ConcurrentHashMap.newKeySet();

	private final SeriesWrites writes;

	private volatile Instant nextFinish;

	private volatile Instant nextHeartbeat;

	EventsV1Recording(String name, EventsV1Sink sink, ApiChoice choice, int cacheCapacity,
			@Nullable EventCorrelator correlator, SinkSettings settings, EventCounters counters, Clock clock) {
		super(name, choice, settings, sink::cancel, sink::abort);
		this.sink = sink;
		this.cache = new SeriesCache(cacheCapacity);
		this.correlator = correlator;
		this.counters = counters;
		this.clock = clock;
		this.writes = new SeriesWrites(sink, this.cache, settings, counters);
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
			submit(observation.entry(), this.writes.new Create(observation.entry()));
		}
		else if (observation.count() == 2) {
			submit(observation.entry(), this.writes.new SeriesWrite(observation, true));
		}
		if (observation.evicted() != null) {
			evicted(observation.evicted());
		}
	}

	private void evicted(SeriesCache.Entry entry) {
		if (entry.count > 1 && entry.count > entry.countOnServer) {
			logger.debug("Series cache full: writing the final count {} of {} before forgetting it", entry.count,
					entry.first.describe());
			submit(entry, this.writes.new SeriesWrite(new SeriesCache.Observation(entry, entry.count, entry.lastObserved,
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
				submit(due.entry(), this.writes.new SeriesWrite(due, false));
			}
		}
		if (!now.isBefore(this.nextHeartbeat)) {
			this.nextHeartbeat = now.plus(SeriesCache.REFRESH_TIME);
			for (SeriesCache.Observation series : this.cache.series()) {
				submit(series.entry(), this.writes.new Heartbeat(series));
			}
		}
	}

	@Override
	public RecorderSnapshot.SinkSnapshot snapshot(String name, int limit, Predicate<ObjectRef> filter) {
		return new RecorderSnapshot.SinkSnapshot(name, this.choice.api().value(), this.choice.reason(), stats(),
				(this.correlator != null) ? this.correlator.snapshot(limit, filter) : null,
				this.cache.snapshot(limit, filter, this.nextHeartbeat, this.nextFinish));
	}

	@Override
	public SinkStats stats() {
		return this.writes.stats();
	}


}
