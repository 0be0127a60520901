package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

import com.github.benmanes.caffeine.cache.Cache;
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
 * and its error classes, in one place. A write's requests are the writer's ({@link Writer}, made through the
 * sink's {@link SinkRequests}); this class attempts them and accounts for how the write ends:
 * <ul>
 * <li><b>Attempts.</b> A write is attempted until it succeeds, is refused, or the retry policy's attempts are used
 * up, waiting before each retry by the rule of its API ({@link RetryPolicy#recordDelay} for core/v1,
 * {@link RetryPolicy#eventsV1Delay} for events.k8s.io/v1). A stop ({@link SinkRun#stopping()}) ends the retries:
 * each pending write gets its current attempt only (client-go's rule after {@code Shutdown}).</li>
 * <li><b>Classification.</b> Retryable (a transport failure, an unexpected answer, a server still busy after its
 * Retry-After waits) → retried; refused (any other HTTP status) → dropped as {@code rejected_by_server}, at DEBUG
 * only for the expected 409 AlreadyExists and writes into a namespace that is gone; a request that cannot be built
 * → dropped as {@code invalid_input}; attempts used up → {@code retries_exhausted}; cancelled by stop or shutdown
 * → {@code shutdown}. Each drop counts every occurrence the write stood for.</li>
 * <li><b>A refusal with 403</b> is first offered to the {@link ForbiddenHandler} (the switch of {@code auto} to
 * core/v1), which may take the write's occurrences over.</li>
 * <li><b>Health.</b> Every failed attempt, whatever its class (but the expected refusals), is counted until the
 * next written event ({@link #failedInARow()}) and the latest is kept ({@link #lastFailure()}), with the API server
 * written to: what the health indicator reads. Refusals alone are counted too ({@link #rejectedInARow()}).</li>
 * </ul>
 *
 * <p>Thread-safe: the sink's writer threads run writes concurrently.
 */
final class WriteAttempts {

	/**
	 * One write's requests across its attempts, on its writer thread: the occurrence whose trace context they run
	 * in, and the verb of the one the server refused last. Not thread-safe: one write's requests run on one thread,
	 * one after the other.
	 */
	static final class Context {

		private final @Nullable RecordedEvent traced;

		private @Nullable EventSinkException failure;

		private String failedVerb = "create";

		Context(@Nullable RecordedEvent traced) {
			this.traced = traced;
		}

		/** The occurrence whose trace context the requests run in, or {@code null}. */
		@Nullable RecordedEvent traced() {
			return this.traced;
		}

		/** A request of the write failed with {@code ex}. */
		void failed(EventSinkException ex, String verb) {
			this.failure = ex;
			this.failedVerb = verb;
		}

		/** The verb of the request that failed with {@code ex}; {@code create} for a failure no request threw. */
		String verbOf(EventSinkException ex) {
			return (ex == this.failure) ? this.failedVerb : "create";
		}

	}

	/**
	 * The requests of one attempt of a write, made through the sink's {@link SinkRequests} in the write's context.
	 *
	 * @param <W> the write
	 * @param <R> what the writer answers when it wrote
	 */
	@FunctionalInterface
	interface Writer<W, R> {

		R write(W write, Context context) throws EventSinkException;

	}

	/** Told about a write refused with HTTP 403, before it is dropped (the events API switch of {@code auto}). */
	@FunctionalInterface
	interface ForbiddenHandler {

		/**
		 * @param recorded the event of the write
		 * @param occurrences how many recorded occurrences the write stood for
		 * @param verb the refused request's verb: {@code create} or {@code patch}
		 * @param refusal the server's answer
		 * @return {@code true} when the handler took the occurrences over (no drop is counted)
		 */
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
	 * How a write ended, and what the writer answered when it was written.
	 * @param <R> the writer's answer
	 */
	record Outcome<R>(State state, @Nullable R written) {
	}

	private static final Logger logger = LoggerFactory.getLogger(WriteAttempts.class);

	private final EventsApi api;

	private final String server;

	private final RetryPolicy policy;

	private final DoubleSupplier jitter;

	private final Clock clock;

	private final EventCounters counters;

	private final SinkRequests<?, ?> requests;

	private final SinkRun<?, ?> run;

	private final LongAdder retried = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private final AtomicLong rejectedInARow = new AtomicLong();

	private final AtomicLong failedInARow = new AtomicLong();

	private volatile RecorderStats.@Nullable Failure lastFailure;

	private volatile @Nullable Instant lastWritten;

	/**
	 * Namespaces whose refusal as gone (deleted or terminating) was logged at WARN within the last drop summary
	 * interval; later refusals there are logged at DEBUG until it has passed. Bounded, since namespaces come from
	 * the caller's objects.
	 */
	private final Cache<String, Boolean> namespacesGoneLogged;

	private volatile @Nullable ForbiddenHandler forbiddenHandler;

	/**
	 * @param api the API the sink writes: its retry delay rule
	 * @param server the API server written to, for {@link #lastFailure()}; empty when unknown
	 * @param settings the broadcaster's settings shared by its sinks
	 * @param counters the broadcaster's counters
	 * @param requests the sink's requests, whose waits the retries share
	 * @param run the run whose stop ends the retries
	 */
	WriteAttempts(EventsApi api, String server, SinkSettings settings, EventCounters counters,
			SinkRequests<?, ?> requests, SinkRun<?, ?> run) {
		this.api = api;
		this.server = server;
		this.policy = settings.retryPolicy();
		this.jitter = settings.jitter();
		this.clock = settings.clock();
		this.counters = counters;
		this.requests = requests;
		this.run = run;
		this.namespacesGoneLogged = Caches.expiring(1024, counters.summaryInterval(), this.clock);
	}

	/**
	 * Runs a write with the retry policy's attempts.
	 * @param write the write
	 * @param recorded the event the write is about (for drops, log lines and its trace context)
	 * @param occurrences how many recorded occurrences the write stands for (1, or a series' new occurrences)
	 * @param writer the requests of one attempt
	 * @return how it ended
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
		Context context = new Context((this.requests.tracing() && recorded.traceContext() != null) ? recorded : null);
		for (int n = 1;; n++) {
			R answer;
			try {
				answer = writer.write(write, context);
			}
			catch (EventSinkException ex) {
				if (!ex.isRetryable()) {
					return refused(recorded, occurrences, ex, context.verbOf(ex), counted);
				}
				failedAttempt(ex, context.verbOf(ex), counted && (n >= maxAttempts || this.run.stopping()));
				if (!counted) {
					if (logger.isDebugEnabled()) {
						logger.debug("Unable to write event series (one attempt): {}: {}", recorded.describe(),
								LogText.oneLine(ex.getMessage()));
					}
					return new Outcome<>(State.NOT_WRITTEN, null);
				}
				if (n >= maxAttempts) {
					this.failed.increment();
					this.counters.dropAndLog(DropReason.RETRIES_EXHAUSTED, recorded,
							"Unable to write event" + carrying(occurrences) + " (retry limit of " + maxAttempts
									+ " attempts exceeded!)",
							false, occurrences);
					return new Outcome<>(State.DROPPED, null);
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
			written();
			return new Outcome<>(State.WRITTEN, answer);
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
		return new Outcome<>(State.DROPPED, null);
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
			return new Outcome<>(State.DROPPED, null);
		}
		boolean namespaceGone = namespaceGone(ex, verb);
		boolean expected = ex.isAlreadyExists() || namespaceGone;
		if (!expected && ex.kind() != EventSinkException.Kind.REQUEST_CONSTRUCTION) {
			this.rejectedInARow.incrementAndGet();
			failedAttempt(ex, verb, false);
		}
		if (!counted) {
			logger.atLevel(expected ? Level.DEBUG : Level.WARN)
				.log("Unable to write event series (one attempt; its {} new occurrence(s) wait for the series' next"
						+ " write): {}: {}", occurrences, recorded.describe(), LogText.oneLine(ex.getMessage()));
			return new Outcome<>(State.NOT_WRITTEN, null);
		}
		this.failed.increment();
		if (ex.kind() == EventSinkException.Kind.REQUEST_CONSTRUCTION) {
			this.counters.dropAndLog(DropReason.INVALID_INPUT, recorded,
					"Unable to construct event" + carrying(occurrences) + " (will not retry!): " + ex.getMessage(),
					false, occurrences);
		}
		else if (namespaceGone) {
			namespaceGoneDrop(recorded, occurrences, ex);
		}
		else {
			this.counters.dropAndLog(DropReason.REJECTED_BY_SERVER, recorded,
					"Server rejected event" + carrying(occurrences) + " (will not retry!): " + ex.getMessage(),
					expected, occurrences);
		}
		return new Outcome<>(State.DROPPED, null);
	}

	/**
	 * Whether a refusal says the Event's namespace is gone: terminating (a 403 with the NamespaceTerminating cause)
	 * or deleted (a CREATE answered 404: an Event is created only in an existing namespace). One situation, so one
	 * behaviour: counted as {@code rejected_by_server}, not a refusal of the recorder (health unchanged), one WARN
	 * per namespace per drop summary interval.
	 */
	private static boolean namespaceGone(EventSinkException ex, String verb) {
		return ex.namespaceTerminating() || (ex.isNotFound() && "create".equals(verb));
	}

	private void namespaceGoneDrop(RecordedEvent recorded, int occurrences, EventSinkException ex) {
		String namespace = recorded.eventNamespace();
		this.counters.drop(DropReason.REJECTED_BY_SERVER, recorded, occurrences);
		if (this.namespacesGoneLogged.asMap().putIfAbsent(namespace, Boolean.TRUE) == null) {
			logger.warn("Dropped event (rejected_by_server): namespace '{}' is gone (deleted or terminating); its"
					+ " Events are counted as rejected_by_server, and logged at DEBUG for the next {}: {}: {}",
					LogText.oneLine(namespace), this.counters.summaryInterval(), recorded.describe(),
					LogText.oneLine(ex.getMessage()));
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Dropped event (rejected_by_server): namespace '{}' is gone: {}", LogText.oneLine(namespace),
					recorded.describe());
		}
	}

	/** How a drop's log line names the occurrences of a write that carried other than one. */
	private static String carrying(int occurrences) {
		return (occurrences == 1) ? "" : " carrying " + occurrences + " occurrences";
	}

	private void written() {
		this.rejectedInARow.set(0);
		this.failedInARow.set(0);
		this.lastFailure = null;
		this.lastWritten = this.clock.instant();
	}

	/**
	 * One attempt failed, for health: counted until the next written event, and kept as the latest failure.
	 * @param givenUp whether a retryable failure ends the write (its attempts are used up, or a stop ends them)
	 */
	private void failedAttempt(EventSinkException ex, String verb, boolean givenUp) {
		this.failedInARow.incrementAndGet();
		this.lastFailure = new RecorderStats.Failure(this.clock.instant(), this.api.value(), verb,
				Sink.RequestListener.resultOf(ex), LogText.oneLine(ex.getMessage()), this.server, givenUp);
	}

	void onForbidden(@Nullable ForbiddenHandler handler) {
		this.forbiddenHandler = handler;
	}

	/** Refusals (other than the expected AlreadyExists and namespaces gone) since the last written event. */
	long rejectedInARow() {
		return this.rejectedInARow.get();
	}

	/** Failed attempts of any class (but the expected refusals) since the last written event. */
	long failedInARow() {
		return this.failedInARow.get();
	}

	/** The latest failed attempt since the last written event, or {@code null}. */
	RecorderStats.@Nullable Failure lastFailure() {
		return this.lastFailure;
	}

	/** When an event was last written, or {@code null} before the first. */
	@Nullable Instant lastWritten() {
		return this.lastWritten;
	}

	/** The writes so far: the requests' creates and patches, and the retries and failures here. */
	RecorderStats.Writes stats() {
		return new RecorderStats.Writes(this.requests.created(), this.requests.patched(), this.retried.sum(),
				this.failed.sum());
	}

}
