package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.Sink;
import io.github.kubeevents.tracing.TraceContext.RequestSpan;
import io.github.kubeevents.tracing.TraceContext;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The write attempts of one sink, for both APIs: client-go's retry loop ({@code recordToSink} /
 * {@code attemptRecording}) and its error classes, in one place. The sink subscribers only build the requests of a
 * write; this class runs them:
 * <ul>
 * <li><b>Attempts.</b> A write is attempted until it succeeds, is refused, or the retry policy's attempts are used
 * up, waiting before each retry by the rule of its API ({@link RetryPolicy#recordDelay} for core/v1,
 * {@link RetryPolicy#eventsV1Delay} for events.k8s.io/v1).</li>
 * <li><b>Classification.</b> Retryable (a transport failure, an unexpected answer, a server still busy after its
 * Retry-After waits) → retried; refused (any other HTTP status) → dropped as {@code rejected_by_server}, at DEBUG
 * only for the expected 409 AlreadyExists and writes into a terminating namespace; a request that cannot be built
 * → dropped as {@code invalid_input}; attempts used up → {@code retries_exhausted}; cancelled by stop or shutdown
 * → {@code shutdown}.</li>
 * <li><b>Server throttling.</b> Every 429 answer is counted by its source ({@link ServerThrottle}: with
 * Retry-After API Priority and Fairness, without it the EventRateLimit admission plugin) and retried on the retry
 * policy (client-go drops a 429 without Retry-After).</li>
 * <li><b>Retry-After.</b> A 429 or 5xx answer with {@code Retry-After} holds back <em>every</em> writer of the sink
 * until the wait the server asked for has passed (so a throttled server does not get one request per writer),
 * then the request is repeated, up to {@value EventSinkException#MAX_RETRY_AFTER_REPEATS} times (client-go's REST
 * layer); still busy after that, the write is retried on the retry policy.</li>
 * <li><b>The write budget</b> (optional, shared by every sink of a broadcaster): each request first takes a token,
 * waiting for it when there is none.</li>
 * <li><b>Timing and counters.</b> Every request is timed for the {@link Sink.RequestListener}; created, patched,
 * retried and failed writes, and the refusals since the last successful write, are counted.</li>
 * <li><b>Trace context.</b> With tracing, each request of a write runs in the trace context captured when its
 * event was recorded ({@link TraceContext#startRequest}), so the HTTP span is a child of the caller's.</li>
 * <li><b>Stop and shutdown</b> ({@link #cancel()}): nothing waits any more (a wait in progress ends); each
 * pending write gets its current attempt only (client-go's rule after {@code Shutdown}), until {@link #resume()}.</li>
 * </ul>
 *
 * <p>Thread-safe: the sink's writer threads run writes concurrently.
 */
final class WriteAttempts {

	/** One attempt of a write: one or more requests (a PATCH that falls back to a CREATE), made through {@code requests}. */
	@FunctionalInterface
	interface Attempt {

		void run(Requests requests) throws EventSinkException;

	}

	/** One request to the API server. */
	@FunctionalInterface
	interface Request<T> {

		T send() throws EventSinkException;

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
	enum Outcome {

		/** Written. */
		WRITTEN,

		/** Dropped (refused, attempts used up, cancelled), counted; or taken over by the 403 handler. */
		DROPPED,

		/** A single-attempt write failed with a retryable error; nothing was counted as dropped. */
		NOT_WRITTEN

	}

	private static final Logger logger = LoggerFactory.getLogger(WriteAttempts.class);

	private final EventsApi api;

	private final RetryPolicy policy;

	private final Sleeper sleeper;

	private final DoubleSupplier jitter;

	private final Sink.RequestListener listener;

	private final @Nullable TokenBucket budget;

	private final Clock clock;

	private final ClockSkew clockSkew = new ClockSkew();

	private final EventCounters counters;

	/** {@link System#nanoTime()}, or a test's ticker: times requests and Retry-After holds. */
	private final LongSupplier nanoTime;

	private final LongAdder created = new LongAdder();

	private final LongAdder patched = new LongAdder();

	private final LongAdder retried = new LongAdder();

	private final LongAdder failed = new LongAdder();

	private final AtomicLong rejectedInARow = new AtomicLong();

	/** The {@link #nanoTime} until which a server's Retry-After holds every writer back. */
	private final AtomicLong holdUntilNanos;

	private volatile boolean cancelled;

	private final AtomicBoolean listenerFailureLogged = new AtomicBoolean();

	/**
	 * Namespaces whose refusal as gone (deleted or terminating) was logged at WARN within the last drop summary
	 * interval; later refusals there are logged at DEBUG until it has passed. Bounded, since namespaces come from
	 * the caller's objects.
	 */
	private final Cache<String, Boolean> namespacesGoneLogged;

	private volatile @Nullable ForbiddenHandler forbiddenHandler;

	/** Whether events carry trace context (else no request starts a span). */
	private final boolean tracing;

	private final AtomicBoolean spanFailureLogged = new AtomicBoolean();

	/**
	 * The attempts of one sink.
	 * @param api the API the sink writes ({@link EventsApi#CORE_V1} or {@link EventsApi#EVENTS_V1}): its retry
	 * delay rule and the listener's {@code api} tag
	 * @param settings the broadcaster's settings shared by its sinks
	 * @param counters the broadcaster's counters
	 */
	WriteAttempts(EventsApi api, SinkSettings settings, EventCounters counters) {
		this(api, settings, counters, System::nanoTime);
	}

	/**
	 * The attempts of one sink, timed by {@code nanoTime} (tests step it exactly).
	 * @param api the API the sink writes
	 * @param settings the broadcaster's settings shared by its sinks
	 * @param counters the broadcaster's counters
	 * @param nanoTime a monotonic time in nanoseconds, like {@link System#nanoTime()}
	 */
	WriteAttempts(EventsApi api, SinkSettings settings, EventCounters counters, LongSupplier nanoTime) {
		this.api = api;
		this.policy = settings.retryPolicy();
		this.sleeper = settings.sleeper();
		this.jitter = settings.jitter();
		this.listener = settings.requestListener();
		this.budget = settings.writeBudget();
		this.clock = settings.clock();
		this.counters = counters;
		this.nanoTime = nanoTime;
		this.tracing = settings.tracing();
		this.holdUntilNanos = new AtomicLong(nanoTime.getAsLong());
		this.namespacesGoneLogged = Caches.expiring(1024, counters.summaryInterval(), this.clock);
	}

	/**
	 * Runs a write with the retry policy's attempts.
	 * @param recorded the event the write is about (for drops and log lines)
	 * @param occurrences how many recorded occurrences the write stands for (1, or a series' new occurrences)
	 * @param attempt one attempt
	 * @return how it ended
	 */
	Outcome write(RecordedEvent recorded, int occurrences, Attempt attempt) {
		return run(recorded, occurrences, attempt, this.policy.maxAttempts(), true);
	}

	/**
	 * Runs a write once (a series heartbeat: the next heartbeat or the series' end writes the count again).
	 * @param recorded the event the write is about
	 * @param occurrences how many recorded occurrences the write newly carries (those the 403 handler takes over
	 * when the sink switches APIs)
	 * @param attempt the attempt
	 * @return how it ended: a failure is {@link Outcome#NOT_WRITTEN}, not a drop (a refusal is logged), unless the
	 * 403 handler took the occurrences over ({@link Outcome#DROPPED})
	 */
	Outcome writeOnce(RecordedEvent recorded, int occurrences, Attempt attempt) {
		return run(recorded, occurrences, attempt, 1, false);
	}

	private Outcome run(RecordedEvent recorded, int occurrences, Attempt attempt, int maxAttempts, boolean counted) {
		Requests requests = new Requests((this.tracing && recorded.traceContext() != null) ? recorded : null);
		for (int n = 1;; n++) {
			try {
				attempt.run(requests);
				this.rejectedInARow.set(0);
				return Outcome.WRITTEN;
			}
			catch (RuntimeException ex) {
				// not a sink failure (those arrive as EventSinkException from request): building the write failed
				return refused(recorded, occurrences, EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
						ex.toString(), ex), "create", counted);
			}
			catch (EventSinkException ex) {
				if (!ex.isRetryable()) {
					return refused(recorded, occurrences, ex, requests.verbOf(ex), counted);
				}
				if (!counted) {
					if (logger.isDebugEnabled()) {
						logger.debug("Unable to write event series (one attempt): {}: {}", recorded.describe(),
								LogText.oneLine(ex.getMessage()));
					}
					return Outcome.NOT_WRITTEN;
				}
				if (n >= maxAttempts) {
					this.failed.increment();
					this.counters.dropAndLog(DropReason.RETRIES_EXHAUSTED, recorded,
							"Unable to write event" + carrying(occurrences) + " (retry limit of " + maxAttempts
									+ " attempts exceeded!)",
							false, occurrences);
					return Outcome.DROPPED;
				}
				if (this.cancelled) {
					// stop or shutdown ends the retries: the drop is counted and summarised, not announced as a retry
					if (logger.isDebugEnabled()) {
						logger.debug("Unable to write event (attempt {}/{}, will not retry): {}: {}", n, maxAttempts,
								recorded.describe(), LogText.oneLine(ex.getMessage()));
					}
					return cancelledDrop(recorded, occurrences);
				}
				logger.warn("Unable to write event (attempt {}/{}, may retry after sleeping): {}: {}", n, maxAttempts,
						recorded.describe(), LogText.oneLine(ex.getMessage()));
				if (!pause(retryDelay(n))) {
					return cancelledDrop(recorded, occurrences);
				}
				this.retried.increment();
			}
		}
	}

	private Duration retryDelay(int retry) {
		double uniform = this.jitter.getAsDouble();
		return (this.api == EventsApi.EVENTS_V1) ? this.policy.eventsV1Delay(uniform)
				: this.policy.recordDelay(retry, uniform);
	}

	private Outcome cancelledDrop(RecordedEvent recorded, int occurrences) {
		this.failed.increment();
		this.counters.drop(DropReason.SHUTDOWN, recorded, occurrences);
		return Outcome.DROPPED;
	}

	/**
	 * A refusal: dropped and counted once per occurrence the write carried, or taken over by the 403 handler; a
	 * write that is not {@code counted} (a heartbeat) is only logged and leaves its occurrences to the next write,
	 * whose count includes them.
	 * @param verb the verb of the request the server refused ({@link Requests#verbOf})
	 */
	private Outcome refused(RecordedEvent recorded, int occurrences, EventSinkException ex, String verb,
			boolean counted) {
		ForbiddenHandler handler = this.forbiddenHandler;
		if (ex.isForbidden() && !ex.namespaceTerminating() && handler != null
				&& handler.forbidden(recorded, occurrences, verb, ex)) {
			return Outcome.DROPPED;
		}
		boolean namespaceGone = namespaceGone(ex, verb);
		boolean expected = ex.isAlreadyExists() || namespaceGone;
		if (!expected && ex.kind() != EventSinkException.Kind.REQUEST_CONSTRUCTION) {
			this.rejectedInARow.incrementAndGet();
		}
		if (!counted) {
			logger.atLevel(expected ? Level.DEBUG : Level.WARN)
				.log("Unable to write event series (one attempt; its {} new occurrence(s) wait for the series' next"
						+ " write): {}: {}", occurrences, recorded.describe(), LogText.oneLine(ex.getMessage()));
			return Outcome.NOT_WRITTEN;
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
		return Outcome.DROPPED;
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

	/**
	 * The requests of one write, made on its writer thread: each in the write's trace context, and the verb of the
	 * one the server refused travels with its failure to the 403 handler and the namespace-gone rule. Not
	 * thread-safe: one write's requests run on one thread, one after the other.
	 */
	final class Requests {

		/** The write's occurrence, when its requests run in its trace context. */
		private final @Nullable RecordedEvent traced;

		/** The failure the last failed request threw, and that request's verb. */
		private @Nullable EventSinkException failure;

		private String failedVerb = "create";

		private Requests(@Nullable RecordedEvent traced) {
			this.traced = traced;
		}

		/**
		 * Makes one request of the write ({@link WriteAttempts#request(String, RecordedEvent, Request)}).
		 * @param verb {@code create}, {@code patch} or {@code get}
		 * @param request the request
		 * @return the server's answer
		 * @throws EventSinkException the classified failure
		 */
		<T> T request(String verb, Request<T> request) throws EventSinkException {
			try {
				return WriteAttempts.this.request(verb, this.traced, request);
			}
			catch (EventSinkException ex) {
				this.failure = ex;
				this.failedVerb = verb;
				throw ex;
			}
		}

		/**
		 * The verb of the request that failed with {@code ex}; {@code create} for a failure no request of this
		 * write threw (a write that could not be built).
		 */
		String verbOf(EventSinkException ex) {
			return (ex == this.failure) ? this.failedVerb : "create";
		}

	}

	/**
	 * Makes one request: waits for a Retry-After hold and the write budget, times it, counts a successful create
	 * or patch and a 429 answer (by source), and repeats it after a 429/5xx answer's Retry-After.
	 * @param verb {@code create}, {@code patch} or {@code get} (a read of the deterministic-names mode, timed but
	 * not counted as a write)
	 * @param traced the occurrence whose trace context the request runs in, {@code null} for none
	 * @param request the request
	 * @return the server's answer
	 * @throws EventSinkException the classified failure ({@link EventSinkException.Kind#UNAVAILABLE} when the
	 * server stayed busy through every Retry-After wait)
	 */
	<T> T request(String verb, @Nullable RecordedEvent traced, Request<T> request) throws EventSinkException {
		awaitHold();
		for (int repeat = 0;; repeat++) {
			awaitBudget();
			long start = this.nanoTime.getAsLong();
			boolean create = "create".equals(verb);
			Instant sentAt = create ? this.clock.instant() : null;
			RequestSpan span = (traced != null) ? startSpan(traced, verb) : null;
			try {
				T answer = (span != null) ? send(request, span) : request.send();
				completed(verb, "success", start);
				if (create) {
					this.created.increment();
					this.clockSkew.observe(sentAt, this.clock.instant(), answer);
				}
				else if ("patch".equals(verb)) {
					this.patched.increment();
				}
				return answer;
			}
			catch (RuntimeException ex) {
				// a sink that breaks its contract: retried like an error client-go cannot classify
				EventSinkException failure = EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
						"The sink threw " + ex, ex);
				completed(verb, Sink.RequestListener.resultOf(failure), start);
				throw failure;
			}
			catch (EventSinkException ex) {
				completed(verb, Sink.RequestListener.resultOf(ex), start);
				ServerThrottle throttle = ServerThrottle.of(ex);
				if (throttle != null) {
					this.counters.throttled(throttle);
				}
				Duration wait = ex.retryAfter();
				if (wait == null || ex.kind() != EventSinkException.Kind.HTTP_STATUS || this.cancelled) {
					throw ex;
				}
				if (repeat >= EventSinkException.MAX_RETRY_AFTER_REPEATS) {
					throw EventSinkException.unavailable(ex);
				}
				hold(wait);
				if (!pause(wait)) {
					// stop or shutdown ended the wait: the request fails with the server's answer
					throw ex;
				}
			}
		}
	}

	/** Sends in the write's trace context, ending the request's span with its result. */
	private <T> T send(Request<T> request, RequestSpan span) throws EventSinkException {
		String result = "unexpected_response";
		try {
			T answer = request.send();
			result = "success";
			return answer;
		}
		catch (EventSinkException ex) {
			result = Sink.RequestListener.resultOf(ex);
			throw ex;
		}
		finally {
			try {
				span.end(result);
			}
			catch (RuntimeException ex) {
				spanFailed(ex);
			}
		}
	}

	private @Nullable RequestSpan startSpan(RecordedEvent traced, String verb) {
		TraceContext context = traced.traceContext();
		try {
			return (context != null) ? context.startRequest(traced, this.api.value(), verb) : null;
		}
		catch (RuntimeException ex) {
			// the request is made without context: tracing never costs a write
			spanFailed(ex);
			return null;
		}
	}

	private void spanFailed(RuntimeException ex) {
		if (this.spanFailureLogged.compareAndSet(false, true)) {
			logger.warn("The trace context of a write failed (logged once; the write is not affected)", ex);
		}
	}

	/** Every writer of the sink waits until {@code wait} from now before its next request. */
	private void hold(Duration wait) {
		long until = this.nanoTime.getAsLong() + wait.toNanos();
		this.holdUntilNanos.accumulateAndGet(until, (current, proposed) -> (proposed - current > 0) ? proposed : current);
	}

	/** Waits for what is left of a Retry-After another writer of the sink received. */
	private void awaitHold() {
		long remaining = this.holdUntilNanos.get() - this.nanoTime.getAsLong();
		if (remaining > 0) {
			pause(Duration.ofNanos(remaining));
		}
	}

	private void awaitBudget() {
		if (this.budget != null && !this.cancelled) {
			Duration wait = this.budget.reserve(this.clock.instant());
			if (!wait.isZero()) {
				pause(wait);
			}
		}
	}

	/**
	 * Waits, unless stop or shutdown cancelled the waiting.
	 * @return {@code false} when cancelled (before or during the wait) or interrupted
	 */
	boolean pause(Duration delay) {
		try {
			return this.sleeper.sleepUnless(delay, () -> this.cancelled);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private void completed(String verb, String result, long startNanos) {
		try {
			this.listener.requestCompleted(this.api.value(), verb, result,
					Duration.ofNanos(this.nanoTime.getAsLong() - startNanos));
		}
		catch (RuntimeException ex) {
			// the request is done: a failing listener must not turn a written event into a retry or a drop
			if (this.listenerFailureLogged.compareAndSet(false, true)) {
				logger.warn("The sink request listener failed (logged once; the write is not affected)", ex);
			}
		}
	}

	/** Stop or shutdown began: nothing waits any more, each pending write gets its current attempt only. */
	void cancel() {
		this.cancelled = true;
		this.sleeper.wakeAll();
	}

	/** The recorder starts again after a stop: writes wait and retry as usual again. */
	void resume() {
		this.cancelled = false;
	}

	void onForbidden(@Nullable ForbiddenHandler handler) {
		this.forbiddenHandler = handler;
	}

	/** Refusals (other than the expected AlreadyExists and terminating namespaces) since the last written event. */
	long rejectedInARow() {
		return this.rejectedInARow.get();
	}

	RecorderStats.Writes stats() {
		return new RecorderStats.Writes(this.created.sum(), this.patched.sum(), this.retried.sum(), this.failed.sum());
	}

}
