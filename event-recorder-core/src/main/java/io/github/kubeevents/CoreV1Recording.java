package io.github.kubeevents;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

import io.github.kubeevents.correlator.CoreV1Events;
import io.github.kubeevents.correlator.CorrelationResult;
import io.github.kubeevents.correlator.EventCorrelator;
import io.github.kubeevents.introspect.SinkStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.SinkRequestListener;
import io.github.kubeevents.sink.Sleeper;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The core/v1 sink subscriber (client-go's {@code recordToSink}): turns each recorded event into a core/v1
 * Event, correlates it, then writes it with retries.
 *
 * <ul>
 * <li>Spam-filtered events are counted as {@code spam_filtered} (client-go drops them silently).</li>
 * <li>An update (count &gt; 1) is a PATCH; a 404 on PATCH (the Event expired or was deleted) falls back to a
 * CREATE with resourceVersion cleared, in the same attempt.</li>
 * <li>Transport and unexpected-response failures are retried up to {@link RetryPolicy#maxAttempts()} attempts;
 * any HTTP status drops the event at once ({@code rejected_by_server}); 409 AlreadyExists and
 * NamespaceTerminating are logged at DEBUG only.</li>
 * <li>After a successful write, the correlator learns what the server stored.</li>
 * <li>After {@link #cancel()} (shutdown) each pending event gets at most one attempt, and a retry sleep in
 * progress ends at once ({@code shutdown}).</li>
 * </ul>
 *
 * <p>Runs on one subscriber thread; {@link #cancel()}, {@link #abort()} and {@link #stats()} may be called from
 * any thread.
 */
final class CoreV1Recording implements SubscriberQueue.MaintainedHandler {

	private static final Logger logger = LoggerFactory.getLogger(CoreV1Recording.class);

	private final EventSink sink;

	private final EventCorrelator correlator;

	private final RetryPolicy retryPolicy;

	private final Sleeper sleeper;

	private final DoubleSupplier jitter;

	private final EventCounters counters;

	private final SinkRequestListener listener;

	private final LongAdder created = new LongAdder();

	private final LongAdder patched = new LongAdder();

	private final LongAdder retried = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private volatile boolean cancelled;

	CoreV1Recording(EventSink sink, EventCorrelator correlator, RetryPolicy retryPolicy, Sleeper sleeper,
			DoubleSupplier jitter, EventCounters counters, SinkRequestListener listener) {
		this.sink = Objects.requireNonNull(sink, "sink");
		this.correlator = Objects.requireNonNull(correlator, "correlator");
		this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
		this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
		this.jitter = Objects.requireNonNull(jitter, "jitter");
		this.counters = Objects.requireNonNull(counters, "counters");
		this.listener = Objects.requireNonNull(listener, "listener");
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
		CorrelationResult result = this.correlator.correlate(CoreV1Events.of(recorded));
		if (result.skip()) {
			this.counters.drop(DropReason.SPAM_FILTERED, recorded);
			return;
		}
		for (int attempt = 1;; attempt++) {
			if (tryWrite(result, recorded, attempt)) {
				return;
			}
			if (attempt >= this.retryPolicy.maxAttempts()) {
				this.failed.increment();
				this.counters.dropAndLog(DropReason.RETRIES_EXHAUSTED, recorded,
						"Unable to write event (retry limit of " + this.retryPolicy.maxAttempts() + " attempts exceeded!)",
						false);
				return;
			}
			if (!sleepBeforeRetry(attempt, recorded)) {
				return;
			}
			this.retried.increment();
		}
	}

	private boolean sleepBeforeRetry(int attempt, RecordedEvent recorded) {
		if (!this.cancelled) {
			Duration delay = this.retryPolicy.delayBeforeRetry(attempt, this.jitter.getAsDouble());
			try {
				this.sleeper.sleep(delay);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.cancelled = true;
			}
		}
		if (this.cancelled) {
			this.failed.increment();
			this.counters.drop(DropReason.SHUTDOWN, recorded);
			return false;
		}
		return true;
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
				if (this.cancelled || attempt >= this.retryPolicy.maxAttempts()) {
					if (logger.isDebugEnabled()) {
						logger.debug("Unable to write event (attempt {}/{}, will not retry): {}: {}", attempt,
								this.retryPolicy.maxAttempts(), recorded.describe(), ex.getMessage());
					}
				}
				else {
					logger.warn("Unable to write event (attempt {}/{}, may retry after sleeping): {}: {}", attempt,
							this.retryPolicy.maxAttempts(), recorded.describe(), ex.getMessage());
				}
				return false;
			}
			this.failed.increment();
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
				CoreV1Event stored = this.sink.patch(event, result.patch());
				completed("patch", "success", start);
				this.patched.increment();
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
			CoreV1Event stored = this.sink.create(event);
			completed("create", "success", start);
			this.created.increment();
			return stored;
		}
		catch (EventSinkException ex) {
			completed("create", SinkRequestListener.resultOf(ex), start);
			throw ex;
		}
	}

	private void completed(String verb, String result, long startNanos) {
		this.listener.requestCompleted("core/v1", verb, result, Duration.ofNanos(System.nanoTime() - startNanos));
	}

	/** Stops retrying: a sleep in progress ends, and each later event gets one attempt only. Idempotent. */
	@Override
	public void cancel() {
		this.cancelled = true;
		this.sleeper.cancel();
		this.sink.cancel();
	}

	@Override
	public void abort() {
		cancel();
		this.sink.abort();
	}

	SinkStats stats() {
		return new SinkStats(this.created.sum(), this.patched.sum(), this.retried.sum(), this.failed.sum());
	}

	EventCorrelator correlator() {
		return this.correlator;
	}

}
