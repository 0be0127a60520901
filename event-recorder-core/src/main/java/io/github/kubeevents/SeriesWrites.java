package io.github.kubeevents;

import java.time.Duration;

import io.github.kubeevents.introspect.SinkStats;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.SinkRequestListener;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes of an events.k8s.io/v1 sink, run on its {@link SinkWriters} (client-go's {@code attemptRecording}
 * and {@code recordEvent}): the CREATE of a first occurrence and the series PATCH of the second, each with
 * retries; the final count of a finished or evicted series and the heartbeat, one attempt each.
 * <ul>
 * <li>A series PATCH that gets 404 (the Event expired or was deleted) creates the Event anew with its series; an
 * AlreadyExists while doing so is retried (the original CREATE landed meanwhile; client-go PR #114237).</li>
 * <li>Any other HTTP status drops the write ({@code rejected_by_server}; AlreadyExists at DEBUG only).</li>
 * <li>Transport failures are retried up to the policy's attempts, waiting {@code sleep × [1, 1.25)} before every
 * retry (client-go's {@code Jitter(10 s, 0.25)}).</li>
 * <li>What the server answered is committed to the cache entry with a compare-and-set (a finished series is
 * forgotten only if it did not change while its write was in flight).</li>
 * </ul>
 *
 * <p>Thread-safe.
 */
final class SeriesWrites {

	private static final Logger logger = LoggerFactory.getLogger(SeriesWrites.class);

	private final EventsV1Sink sink;

	private final SeriesCache cache;

	private final SinkSettings settings;

	private final EventCounters counters;

	private final SinkWriteCounts counts = new SinkWriteCounts();

	SeriesWrites(EventsV1Sink sink, SeriesCache cache, SinkSettings settings, EventCounters counters) {
		this.sink = sink;
		this.cache = cache;
		this.settings = settings;
		this.counters = counters;
	}

	SinkStats stats() {
		return this.counts.stats();
	}

	/** The first occurrence: CREATE, with retries. */
	final class Create implements SinkWriters.Write {

		private final SeriesCache.Entry entry;

		Create(SeriesCache.Entry entry) {
			this.entry = entry;
		}

		@Override
		public void run() {
			withRetries(this.entry.first, () -> {
				create(copyWithSeries(this.entry.created, null));
				SeriesWrites.this.cache.written(this.entry, 1);
			}, false);
		}

		@Override
		public void dropped(DropReason reason) {
			SeriesWrites.this.counters.drop(reason, this.entry.first);
		}

	}

	/**
	 * A series write: the second occurrence (with retries), or the final count of a finished or evicted series
	 * (one attempt; a finished series is then forgotten unless it changed or the write should be retried).
	 */
	final class SeriesWrite implements SinkWriters.Write {

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
				SeriesWrites.this.cache.writeDone(this.observation.entry());
				if (done) {
					SeriesWrites.this.cache.removeIfUnchanged(this.observation.entry(), this.observation.version());
				}
			}
		}

		@Override
		public void dropped(DropReason reason) {
			SeriesWrites.this.cache.writeDone(this.observation.entry());
			if (this.retry) {
				SeriesWrites.this.counters.drop(reason, this.observation.entry().first);
			}
		}

	}

	/** The heartbeat: the series' current count, one attempt. */
	final class Heartbeat implements SinkWriters.Write {

		private final SeriesCache.Observation observation;

		Heartbeat(SeriesCache.Observation observation) {
			this.observation = observation;
		}

		@Override
		public void run() {
			withRetries(this.observation.entry().first, () -> writeSeries(this.observation), true);
			SeriesWrites.this.cache.writeDone(this.observation.entry());
		}

		@Override
		public void dropped(DropReason reason) {
			SeriesWrites.this.cache.writeDone(this.observation.entry());
		}

	}

	private void writeSeries(SeriesCache.Observation observation) throws EventSinkException {
		SeriesCache.Entry entry = observation.entry();
		EventsV1Sink.SeriesPatch patch = new EventsV1Sink.SeriesPatch(observation.count(), observation.lastObserved());
		long start = System.nanoTime();
		try {
			this.settings.awaitBudget();
			this.sink.patch(entry.created, patch);
			completed("patch", "success", start);
			this.counts.patched.increment();
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
				create(event);
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
					this.counts.failed.increment();
					this.counters.dropAndLog(DropReason.RETRIES_EXHAUSTED, recorded,
							"Unable to write event (retry limit of " + maxAttempts + " attempts exceeded!)", false);
					return true;
				}
				if (this.settings.isCancelled()) {
					// shutdown ends the retries: the drop below is counted and summarised, not announced as a retry
					if (logger.isDebugEnabled()) {
						logger.debug("Unable to write event (attempt {}/{}, will not retry): {}: {}", n, maxAttempts,
								recorded.describe(), ex.getMessage());
					}
					this.counts.failed.increment();
					this.counters.drop(DropReason.SHUTDOWN, recorded);
					return true;
				}
				logger.warn("Unable to write event (attempt {}/{}, may retry after sleeping): {}: {}", n, maxAttempts,
						recorded.describe(), ex.getMessage());
				Duration delay = this.settings.retryPolicy().sleep();
				Duration jittered = Duration.ofNanos((long) (delay.toNanos() * (1 + 0.25 * this.settings.jitter().getAsDouble())));
				if (!this.settings.sleepBeforeRetry(jittered)) {
					this.counts.failed.increment();
					this.counters.drop(DropReason.SHUTDOWN, recorded);
					return true;
				}
				this.counts.retried.increment();
			}
		}
	}

	private void rejected(RecordedEvent recorded, EventSinkException ex) {
		this.counts.failed.increment();
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

	private void create(EventsV1Event event) throws EventSinkException {
		this.settings.awaitBudget();
		long start = System.nanoTime();
		try {
			this.sink.create(event);
			completed("create", "success", start);
			this.counts.created.increment();
		}
		catch (EventSinkException ex) {
			completed("create", SinkRequestListener.resultOf(ex), start);
			throw ex;
		}
	}

	private void completed(String verb, String result, long startNanos) {
		this.settings.requestListener()
			.requestCompleted("events.k8s.io/v1", verb, result, Duration.ofNanos(System.nanoTime() - startNanos));
	}

}
