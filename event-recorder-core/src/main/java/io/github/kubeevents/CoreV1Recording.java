package io.github.kubeevents;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.ObjectRef;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.SinkStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.SinkRequestListener;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The core/v1 sink subscriber (client-go's {@code recordToSink}): on its subscriber thread it turns each recorded
 * event into a core/v1 Event and correlates it; its {@link SinkWriters} write it, with retries.
 *
 * <ul>
 * <li>Spam-filtered events are counted as {@code spam_filtered} (client-go drops them silently).</li>
 * <li>An update (count &gt; 1) is a PATCH; a 404 on PATCH (the Event expired or was deleted) falls back to a
 * CREATE with resourceVersion cleared, in the same attempt.</li>
 * <li>Transport and unexpected-response failures are retried up to the retry policy's attempts; any HTTP status
 * drops the event at once ({@code rejected_by_server}); 409 AlreadyExists and NamespaceTerminating are logged
 * at DEBUG only.</li>
 * <li>After a successful write, the correlator learns what the server stored.</li>
 * <li>After {@link #cancel()} (shutdown) each pending event gets at most one attempt, and a retry sleep in
 * progress ends at once ({@code shutdown}).</li>
 * </ul>
 *
 * <p>Thread-safe: correlation on the subscriber thread, writes on the writer threads, {@link #cancel()},
 * {@link #abort()} and {@link #stats()} from any thread.
 */
final class CoreV1Recording extends AbstractSinkRecording {

	private static final Logger logger = LoggerFactory.getLogger(CoreV1Recording.class);

	private final EventSink sink;

	private final EventCorrelator correlator;

	private final EventCounters counters;

	private final SinkWriteCounts counts = new SinkWriteCounts();

	CoreV1Recording(String name, EventSink sink, ApiChoice choice, EventCorrelator correlator, SinkSettings settings,
			EventCounters counters) {
		super(name, choice, settings, sink::cancel, sink::abort);
		this.sink = Objects.requireNonNull(sink, "sink");
		this.correlator = Objects.requireNonNull(correlator, "correlator");
		this.counters = counters;
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
		CorrelationResult result = this.correlator.correlate(CoreV1Events.of(recorded));
		if (result.skip()) {
			this.counters.drop(DropReason.SPAM_FILTERED, recorded);
			return;
		}
		this.writers.submit(SinkSettings.shard(recorded), new Write(result, recorded));
	}

	/** One event's write with retries, on a writer thread. */
	private final class Write implements SinkWriters.Write {

		private final CorrelationResult result;

		private final RecordedEvent recorded;

		Write(CorrelationResult result, RecordedEvent recorded) {
			this.result = result;
			this.recorded = recorded;
		}

		@Override
		public void run() {
			int maxAttempts = CoreV1Recording.this.settings.retryPolicy().maxAttempts();
			for (int attempt = 1;; attempt++) {
				if (tryWrite(this.result, this.recorded, attempt)) {
					return;
				}
				if (attempt >= maxAttempts) {
					CoreV1Recording.this.counts.failed.increment();
					CoreV1Recording.this.counters.dropAndLog(DropReason.RETRIES_EXHAUSTED, this.recorded,
							"Unable to write event (retry limit of " + maxAttempts + " attempts exceeded!)", false);
					return;
				}
				Duration delay = CoreV1Recording.this.settings.retryPolicy()
					.delayBeforeRetry(attempt, CoreV1Recording.this.settings.jitter().getAsDouble());
				if (!CoreV1Recording.this.settings.sleepBeforeRetry(delay)) {
					CoreV1Recording.this.counts.failed.increment();
					CoreV1Recording.this.counters.drop(DropReason.SHUTDOWN, this.recorded);
					return;
				}
				CoreV1Recording.this.counts.retried.increment();
			}
		}

		@Override
		public void dropped(DropReason reason) {
			// never attempted: not a failure of the sink, a drop of the queue
			CoreV1Recording.this.counters.drop(reason, this.recorded);
		}

	}

	/** @return {@code true} when done with the event (written or dropped), {@code false} to retry */
	private boolean tryWrite(CorrelationResult result, RecordedEvent recorded, int attempt) {
		try {
			CoreV1Event stored = write(result);
			this.correlator.updateState(stored);
			return true;
		}
		catch (EventSinkException ex) {
			if (ex.isRetryable()) {
				int maxAttempts = this.settings.retryPolicy().maxAttempts();
				if (this.settings.isCancelled() || attempt >= maxAttempts) {
					if (logger.isDebugEnabled()) {
						logger.debug("Unable to write event (attempt {}/{}, will not retry): {}: {}", attempt,
								maxAttempts, recorded.describe(), ex.getMessage());
					}
				}
				else {
					logger.warn("Unable to write event (attempt {}/{}, may retry after sleeping): {}: {}", attempt,
							maxAttempts, recorded.describe(), ex.getMessage());
				}
				return false;
			}
			this.counts.failed.increment();
			if (ex.kind() == EventSinkException.Kind.REQUEST_CONSTRUCTION) {
				this.counters.dropAndLog(DropReason.INVALID_INPUT, recorded,
						"Unable to construct event (will not retry!): " + ex.getMessage(), false);
			}
			else {
				this.counters.dropAndLog(DropReason.REJECTED_BY_SERVER, recorded,
						"Server rejected event (will not retry!): " + ex.getMessage(),
						ex.isAlreadyExists() || ex.namespaceTerminating());
			}
			return true;
		}
	}

	private CoreV1Event write(CorrelationResult result) throws EventSinkException {
		CoreV1Event event = result.event();
		if (result.isUpdate() && result.patch() != null) {
			long start = System.nanoTime();
			try {
				this.settings.awaitBudget();
				CoreV1Event stored = this.sink.patch(event, result.patch());
				completed("patch", "success", start);
				this.counts.patched.increment();
				return stored;
			}
			catch (EventSinkException ex) {
				completed("patch", SinkRequestListener.resultOf(ex), start);
				if (!ex.isNotFound()) {
					throw ex;
				}
				logger.debug("Event {} no longer exists on the server (expired or deleted); creating it again",
						event.getMetadata().getName());
			}
		}
		event.getMetadata().setResourceVersion(null);
		long start = System.nanoTime();
		try {
			this.settings.awaitBudget();
			CoreV1Event stored = this.sink.create(event);
			completed("create", "success", start);
			this.counts.created.increment();
			return stored;
		}
		catch (EventSinkException ex) {
			completed("create", SinkRequestListener.resultOf(ex), start);
			throw ex;
		}
	}

	private void completed(String verb, String result, long startNanos) {
		this.settings.requestListener()
			.requestCompleted("core/v1", verb, result, Duration.ofNanos(System.nanoTime() - startNanos));
	}

	/** Writes submitted and not finished yet. */
	int pendingWrites() {
		return this.writers.pending();
	}

	@Override
	public RecorderSnapshot.SinkSnapshot snapshot(String name, int limit, Predicate<ObjectRef> filter) {
		return new RecorderSnapshot.SinkSnapshot(name, this.choice.api().value(), this.choice.reason(), stats(),
				this.correlator.snapshot(limit, filter), null);
	}

	@Override
	public SinkStats stats() {
		return this.counts.stats();
	}


}
