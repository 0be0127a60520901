package io.github.kubeevents;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.Sink;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The retry loop of one sink's writes, for both APIs: client-go's {@code recordToSink} / {@code attemptRecording}
 * and its error classes. A write's requests are its writer's ({@link Writer}, through the sink's
 * {@link SinkRequests}, sharing a {@link WriteContext}); this class attempts them until one succeeds, is refused, or the retry policy's attempts are
 * used up, waiting before each retry by the rule of its API ({@link RetryPolicy#recordDelay},
 * {@link RetryPolicy#eventsV1Delay}); a stop ({@link SinkRun#stopping()}) leaves each pending write its current
 * attempt (client-go's rule after {@code Shutdown}). Retryable (a transport failure, an unexpected answer, a server
 * still busy after its Retry-After waits) is retried; any other HTTP status is {@code rejected_by_server} (at DEBUG
 * for the expected 409 AlreadyExists; a namespace that is gone by {@link EventCounters#dropNamespaceGone}); a
 * request that cannot be built {@code invalid_input}; attempts used up {@code retries_exhausted}; a stop
 * {@code shutdown}: each drop counts every occurrence the write stood for. A 403 is first offered to the
 * {@link ForbiddenHandler} (the switch of {@code auto}), which may take the occurrences over. Every failed attempt
 * is reported to the sink's {@link WriteHealth} (its requests report what is written).
 *
 * <p>Thread-safe: the sink's writer threads run writes concurrently.
 */
final class WriteAttempts {

	/** The requests of one attempt of a write {@code W}, answering {@code R} when it wrote. */
	@FunctionalInterface
	interface Writer<W, R> {

		R write(W write, WriteContext context) throws EventSinkException;

	}

	/**
	 * Told about a write refused with HTTP 403, before it is dropped (the events API switch of {@code auto}): the
	 * write's occurrences, the refused request's verb ({@code create} or {@code patch}) and the server's answer;
	 * answers {@code true} when it took the occurrences over (no drop is counted).
	 */
	@FunctionalInterface
	interface ForbiddenHandler {

		boolean forbidden(RecordedEvent recorded, int occurrences, String verb, EventSinkException refusal);

	}

	/** How a write ended. */
	enum State {

		/** Written. */
		WRITTEN,

		/** Dropped (refused, attempts used up, cancelled), counted; or taken over by the 403 handler. */
		DROPPED,

		/** A single-attempt write failed with a retryable error or was refused; nothing was counted as dropped. */
		NOT_WRITTEN

	}

	/**
	 * How a write ended: what the writer answered when it was written; when {@link State#NOT_WRITTEN}, the reason its
	 * occurrences are dropped for if no later write carries them ({@code retries_exhausted} after its one attempt,
	 * {@code rejected_by_server} after a refusal).
	 */
	record Outcome<R>(State state, @Nullable R written, @Nullable DropReason lostAs) {
	}

	private static final Logger logger = LoggerFactory.getLogger(WriteAttempts.class);

	private final EventsApi api;

	private final RetryPolicy policy;

	private final DoubleSupplier jitter;

	private final EventCounters counters;

	private final SinkRequests<?, ?> requests;

	private final SinkRun<?, ?> run;

	/** Whether events carry trace context: each request of a write then runs in its occurrence's. */
	private final boolean tracing;

	private final LongAdder retried = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private final WriteHealth health;

	private volatile @Nullable ForbiddenHandler forbiddenHandler;

	/**
	 * @param api the API the sink writes: its retry delay rule
	 * @param health where every failed attempt is reported ({@code requests} reports what is written)
	 * @param run the run whose stop ends the retries; {@code requests}, its requests, whose waits the retries share
	 */
	WriteAttempts(EventsApi api, SinkSettings settings, EventCounters counters, WriteHealth health,
			SinkRequests<?, ?> requests, SinkRun<?, ?> run) {
		this.api = api;
		this.health = health;
		this.policy = settings.retryPolicy();
		this.jitter = settings.jitter();
		this.counters = counters;
		this.requests = requests;
		this.run = run;
		this.tracing = settings.tracing();
	}

	/**
	 * Runs {@code write} with the retry policy's attempts, each one the {@code writer}'s requests.
	 * @param recorded the event the write is about (for drops, log lines and its trace context)
	 * @param occurrences how many recorded occurrences the write stands for (1, or a series' new occurrences)
	 */
	<W, R> Outcome<R> write(W write, RecordedEvent recorded, int occurrences, Writer<W, R> writer) {
		return run(write, recorded, occurrences, writer, this.policy.maxAttempts(), true);
	}

	/**
	 * Runs a write once (a series heartbeat: the next heartbeat or the series' end writes the count again): a
	 * failure is {@link State#NOT_WRITTEN}, not a drop (a refusal is logged), unless the 403 handler took the
	 * occurrences over ({@link State#DROPPED}).
	 */
	<W, R> Outcome<R> writeOnce(W write, RecordedEvent recorded, int occurrences, Writer<W, R> writer) {
		return run(write, recorded, occurrences, writer, 1, false);
	}

	private <W, R> Outcome<R> run(W write, RecordedEvent recorded, int occurrences, Writer<W, R> writer,
			int maxAttempts, boolean counted) {
		WriteContext context = new WriteContext((this.tracing && recorded.traceContext() != null) ? recorded : null);
		for (int n = 1;; n++) {
			R answer;
			try {
				answer = writer.write(write, context);
			}
			catch (EventSinkException ex) {
				if (!ex.isRetryable()) {
					return refused(recorded, occurrences, ex, context.verbOf(ex), counted);
				}
				this.health.failed(ex, context.verbOf(ex), false, counted && (n >= maxAttempts || this.run.stopping()));
				if (!counted) {
					if (logger.isDebugEnabled()) {
						logger.debug("Unable to write event series (one attempt): {}: {}", recorded.describe(),
								LogText.oneLine(ex.getMessage()));
					}
					return new Outcome<>(State.NOT_WRITTEN, null, DropReason.RETRIES_EXHAUSTED);
				}
				if (n >= maxAttempts) {
					this.failed.increment();
					this.counters.dropAndLog(DropReason.RETRIES_EXHAUSTED, recorded,
							"Unable to write event" + carrying(occurrences) + " (retry limit of " + maxAttempts
									+ " attempts exceeded!)",
							false, occurrences);
					return new Outcome<>(State.DROPPED, null, null);
				}
				if (this.run.stopping()) {
					// stop or shutdown ends the retries: the drop is counted and summarised, not announced as a retry
					if (logger.isDebugEnabled()) {
						logger.debug("Unable to write event (attempt {}/{}, will not retry): {}: {}", n, maxAttempts,
								recorded.describe(), LogText.oneLine(ex.getMessage()));
					}
					return cancelledDrop(recorded, occurrences);
				}
				logger.warn("Unable to write event (attempt {}/{}, may retry after sleeping): {}: {}", n, maxAttempts,
						recorded.describe(), LogText.oneLine(ex.getMessage()));
				if (!this.requests.pause(retryDelay(n))) {
					return cancelledDrop(recorded, occurrences);
				}
				this.retried.increment();
				continue;
			}
			catch (RuntimeException ex) {
				// not a sink failure (those arrive as EventSinkException): building the write failed
				return refused(recorded, occurrences, EventSinkException.of(
						EventSinkException.Kind.REQUEST_CONSTRUCTION, ex.toString(), ex), "create", counted);
			}
			return new Outcome<>(State.WRITTEN, answer, null);
		}
	}

	private Duration retryDelay(int retry) {
		double uniform = this.jitter.getAsDouble();
		return (this.api == EventsApi.EVENTS_V1) ? this.policy.eventsV1Delay(uniform)
				: this.policy.recordDelay(retry, uniform);
	}

	private <R> Outcome<R> cancelledDrop(RecordedEvent recorded, int occurrences) {
		this.failed.increment();
		this.counters.drop(DropReason.SHUTDOWN, recorded, occurrences);
		return new Outcome<>(State.DROPPED, null, null);
	}

	/**
	 * A refusal: dropped and counted once per occurrence the write carried, or taken over by the 403 handler; a
	 * write that is not {@code counted} (a heartbeat) is only logged and leaves its occurrences to the next write,
	 * whose count includes them.
	 * @param verb the verb of the request the server refused
	 */
	private <R> Outcome<R> refused(RecordedEvent recorded, int occurrences, EventSinkException ex, String verb,
			boolean counted) {
		ForbiddenHandler handler = this.forbiddenHandler;
		if (ex.isForbidden() && !ex.namespaceTerminating() && handler != null
				&& handler.forbidden(recorded, occurrences, verb, ex)) {
			return new Outcome<>(State.DROPPED, null, null);
		}
		boolean namespaceGone = namespaceGone(ex, verb);
		boolean expected = ex.isAlreadyExists() || namespaceGone;
		if (!expected && ex.kind() != EventSinkException.Kind.REQUEST_CONSTRUCTION) {
			this.health.failed(ex, verb, true, false);
		}
		if (!counted) {
			logger.atLevel(expected ? Level.DEBUG : Level.WARN)
				.log("Unable to write event series (one attempt; its {} new occurrence(s) wait for the series' next"
						+ " write): {}: {}", occurrences, recorded.describe(), LogText.oneLine(ex.getMessage()));
			return new Outcome<>(State.NOT_WRITTEN, null, (ex.kind() == EventSinkException.Kind.REQUEST_CONSTRUCTION)
					? DropReason.INVALID_INPUT : DropReason.REJECTED_BY_SERVER);
		}
		this.failed.increment();
		if (ex.kind() == EventSinkException.Kind.REQUEST_CONSTRUCTION) {
			this.counters.dropAndLog(DropReason.INVALID_INPUT, recorded,
					"Unable to construct event" + carrying(occurrences) + " (will not retry!): " + ex.getMessage(),
					false, occurrences);
		}
		else if (namespaceGone) {
			this.counters.dropNamespaceGone(recorded, occurrences, ex.getMessage());
		}
		else {
			this.counters.dropAndLog(DropReason.REJECTED_BY_SERVER, recorded,
					"Server rejected event" + carrying(occurrences) + " (will not retry!): " + ex.getMessage(),
					expected, occurrences);
		}
		return new Outcome<>(State.DROPPED, null, null);
	}

	/**
	 * Whether a refusal says the Event's namespace is gone: terminating (a 403 with the NamespaceTerminating cause)
	 * or deleted (a CREATE answered 404: an Event is created only in an existing namespace). One situation, so one
	 * behaviour: not a refusal of the recorder (health unchanged), {@link EventCounters#dropNamespaceGone}.
	 */
	private static boolean namespaceGone(EventSinkException ex, String verb) {
		return ex.namespaceTerminating() || (ex.isNotFound() && "create".equals(verb));
	}

	/** How a drop's log line names the occurrences of a write that carried other than one. */
	private static String carrying(int occurrences) {
		return (occurrences == 1) ? "" : " carrying " + occurrences + " occurrences";
	}

	void onForbidden(@Nullable ForbiddenHandler handler) {
		this.forbiddenHandler = handler;
	}

	/** The writes so far: the requests' creates and patches, and the retries and failures here. */
	RecorderStats.Writes stats() {
		return new RecorderStats.Writes(this.requests.created(), this.requests.patched(), this.retried.sum(),
				this.failed.sum());
	}

}
