package io.github.kubeevents.sink;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventCounters;
import io.github.kubeevents.EventHandler;
import io.github.kubeevents.Events;
import io.github.kubeevents.correlator.CorrelationResult;
import io.github.kubeevents.correlator.EventCorrelator;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink subscriber (client-go's {@code recordToSink}): correlates each event, then writes it with retries.
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
 * <p>Runs on one subscriber thread; {@link #cancel()} and {@link #stats()} may be called from any thread.
 */
public final class SinkRecordingHandler implements EventHandler {

	private static final Logger logger = LoggerFactory.getLogger(SinkRecordingHandler.class);

	private final EventSink sink;

	private final EventCorrelator correlator;

	private final RetryPolicy retryPolicy;

	private final Sleeper sleeper;

	private final DoubleSupplier jitter;

	private final EventCounters counters;

	private final LongAdder created = new LongAdder();

	private final LongAdder patched = new LongAdder();

	private final LongAdder retried = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private volatile boolean cancelled;

	/**
	 * A handler writing to {@code sink}.
	 * @param sink where to write
	 * @param correlator this sink's own correlator
	 * @param retryPolicy attempts and delays
	 * @param sleeper waits between attempts
	 * @param jitter uniform random numbers in [0, 1) for the first retry's delay
	 * @param counters where drops are counted
	 */
	public SinkRecordingHandler(EventSink sink, EventCorrelator correlator, RetryPolicy retryPolicy, Sleeper sleeper,
			DoubleSupplier jitter, EventCounters counters) {
		this.sink = Objects.requireNonNull(sink, "sink");
		this.correlator = Objects.requireNonNull(correlator, "correlator");
		this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
		this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
		this.jitter = Objects.requireNonNull(jitter, "jitter");
		this.counters = Objects.requireNonNull(counters, "counters");
	}

	@Override
	public void onEvent(CoreV1Event event) {
		// the correlator never modifies its input (the observer copies before it changes anything)
		CorrelationResult result = this.correlator.correlate(event);
		if (result.skip()) {
			this.counters.drop(DropReason.SPAM_FILTERED, Events.describe(result.event()));
			return;
		}
		for (int attempt = 1;; attempt++) {
			if (tryWrite(result, attempt)) {
				return;
			}
			if (attempt >= this.retryPolicy.maxAttempts()) {
				this.failed.increment();
				this.counters.drop(DropReason.RETRIES_EXHAUSTED, "Unable to write event (retry limit of "
						+ this.retryPolicy.maxAttempts() + " attempts exceeded!): " + Events.describe(result.event()));
				return;
			}
			if (!sleepBeforeRetry(attempt, result)) {
				return;
			}
			this.retried.increment();
		}
	}

	private boolean sleepBeforeRetry(int attempt, CorrelationResult result) {
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
			this.counters.drop(DropReason.SHUTDOWN,
					"Unable to write event (broadcaster is shut down): " + Events.describe(result.event()));
			return false;
		}
		return true;
	}

	/** @return {@code true} when done with the event (written or dropped), {@code false} to retry */
	private boolean tryWrite(CorrelationResult result, int attempt) {
		CoreV1Event event = result.event();
		try {
			CoreV1Event stored = write(result);
			this.correlator.updateState(stored);
			return true;
		}
		catch (EventSinkException ex) {
			if (ex.isRetryable()) {
				logger.warn("Unable to write event (attempt {}/{}, may retry after sleeping): {}: {}", attempt,
						this.retryPolicy.maxAttempts(), Events.describe(event), ex.getMessage());
				return false;
			}
			this.failed.increment();
			if (ex.kind() == EventSinkException.Kind.REQUEST_CONSTRUCTION) {
				this.counters.drop(DropReason.INVALID_INPUT,
						"Unable to construct event (will not retry!): " + Events.describe(event) + ": " + ex.getMessage());
			}
			else if (ex.isAlreadyExists() || ex.namespaceTerminating()) {
				this.counters.dropQuietly(DropReason.REJECTED_BY_SERVER,
						"Server rejected event (will not retry!): " + Events.describe(event) + ": " + ex.getMessage());
			}
			else {
				this.counters.drop(DropReason.REJECTED_BY_SERVER,
						"Server rejected event (will not retry!): " + Events.describe(event) + ": " + ex.getMessage());
			}
			return true;
		}
	}

	private CoreV1Event write(CorrelationResult result) throws EventSinkException {
		CoreV1Event event = result.event();
		if (result.isUpdate() && result.patch() != null) {
			try {
				CoreV1Event stored = this.sink.patch(event, result.patch());
				this.patched.increment();
				return stored;
			}
			catch (EventSinkException ex) {
				if (!ex.isNotFound()) {
					throw ex;
				}
				logger.debug("Event {} no longer exists on the server (expired or deleted); creating it again",
						event.getMetadata().getName());
			}
		}
		event.getMetadata().setResourceVersion(null);
		CoreV1Event stored = this.sink.create(event);
		this.created.increment();
		return stored;
	}

	/**
	 * Stops retrying: a sleep in progress ends, and each later event gets one attempt only. Idempotent.
	 */
	public void cancel() {
		this.cancelled = true;
		this.sleeper.cancel();
		this.sink.cancel();
	}

	/**
	 * This sink's counters.
	 * @return a snapshot of the counters
	 */
	public SinkStats stats() {
		return new SinkStats(this.created.sum(), this.patched.sum(), this.retried.sum(), this.failed.sum());
	}

	/**
	 * This sink's correlator, for introspection.
	 * @return the correlator
	 */
	public EventCorrelator correlator() {
		return this.correlator;
	}

}
