package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests of one sink's writes, each made through one gate: {@link #create}, {@link #patch} and {@link #get}
 * call the {@link Sink} directly, and around each call:
 * <ul>
 * <li><b>Retry-After.</b> A 429 or 5xx answer with {@code Retry-After} holds back <em>every</em> writer of the sink
 * until the wait the server asked for has passed (so a throttled server does not get one request per writer), then
 * the request is repeated, up to {@value EventSinkException#MAX_RETRY_AFTER_REPEATS} times (client-go's REST layer);
 * still busy after that, it fails as {@link EventSinkException.Kind#UNAVAILABLE} and the write is retried on the
 * retry policy. Every 429 is counted by its source ({@link ServerThrottle}).</li>
 * <li><b>The write budget</b> (optional, shared by every sink of a broadcaster): each request first takes a token,
 * waiting for it when there is none.</li>
 * <li><b>Timing and counters.</b> Every request is timed for the {@link Sink.RequestListener}; created and patched
 * Events are counted; each CREATE's answer tells the {@link ClockSkew}.</li>
 * <li><b>Trace context.</b> With tracing, each request runs in the trace context captured when its event was
 * recorded ({@link TraceContext#startRequest}), so the HTTP span is a child of the caller's.</li>
 * <li><b>Stop.</b> Once the run stops ({@link SinkRun#stopping()}) no wait is begun and one in progress ends.</li>
 * </ul>
 * What one write's requests share travels in its {@link WriteContext}: the occurrence whose trace context
 * they run in, and the verb of the request the server refused.
 *
 * <p>Thread-safe: the sink's writer threads make requests concurrently.
 *
 * @param <E> the Event type of the API
 * @param <P> its patch
 */
final class SinkRequests<E extends KubernetesObject, P extends Sink.Patch> {

	private static final Logger logger = LoggerFactory.getLogger(SinkRequests.class);

	private final EventsApi api;

	private final Sink<E, P> sink;

	private final Sleeper sleeper;

	private final Sink.RequestListener listener;

	private final @Nullable TokenBucket budget;

	private final Clock clock;

	private final ClockSkew clockSkew = new ClockSkew();

	private final EventCounters counters;

	private final SinkRun<?, ?> run;

	private final WriteHealth health;

	/** {@link System#nanoTime()}, or a test's ticker: times requests and Retry-After holds. */
	private final LongSupplier nanoTime;

	private final LongAdder created = new LongAdder();

	private final LongAdder patched = new LongAdder();

	/** The {@link #nanoTime} until which a server's Retry-After holds every writer back. */
	private final AtomicLong holdUntilNanos;

	private final AtomicBoolean listenerFailureLogged = new AtomicBoolean();

	private final AtomicBoolean spanFailureLogged = new AtomicBoolean();

	/** @param health told of each event written (the retry loop tells it of each failure) */
	SinkRequests(EventsApi api, Sink<E, P> sink, SinkSettings settings, EventCounters counters, WriteHealth health,
			SinkRun<?, ?> run) {
		this.api = api;
		this.sink = sink;
		this.sleeper = settings.sleeper();
		this.listener = settings.requestListener();
		this.budget = settings.writeBudget();
		this.clock = settings.clock();
		this.counters = counters;
		this.run = run;
		this.health = health;
		this.nanoTime = settings.nanoTime();
		this.holdUntilNanos = new AtomicLong(this.nanoTime.getAsLong());
	}

	/** Creates {@code body}. */
	E create(WriteContext context, E body) throws EventSinkException {
		return send(context, "create", body, null, null, null);
	}

	/** Patches {@code event} with {@code patch}. */
	E patch(WriteContext context, E event, P patch) throws EventSinkException {
		return send(context, "patch", event, patch, null, null);
	}

	/** Reads an Event (deterministic names): timed, but not counted as a write. */
	E get(WriteContext context, String namespace, String name) throws EventSinkException {
		return send(context, "get", null, null, namespace, name);
	}

	/** A CREATE whose answer was lost landed after all (a later one was answered AlreadyExists): count it. */
	void createdEarlier() {
		this.created.increment();
		this.health.written();
	}

	private E send(WriteContext context, String verb, @Nullable E event, @Nullable P patch,
			@Nullable String namespace, @Nullable String name) throws EventSinkException {
		awaitHold();
		for (int repeat = 0;; repeat++) {
			awaitBudget();
			long start = this.nanoTime.getAsLong();
			Instant sentAt = (patch == null && event != null) ? this.clock.instant() : null;
			TraceContext.RequestSpan span = (context.traced() != null) ? startSpan(context.traced(), verb) : null;
			String result = "unexpected_response";
			EventSinkException busy;
			try {
				E answer = (event == null) ? this.sink.get(namespace, name)
						: (patch == null) ? this.sink.create(event) : this.sink.patch(event, patch);
				result = "success";
				completed(verb, result, start);
				if (sentAt != null) {
					this.created.increment();
					this.clockSkew.observe(sentAt, this.clock.instant(), answer);
				}
				else if (patch != null) {
					this.patched.increment();
				}
				if (event != null) {
					this.health.written();
				}
				return answer;
			}
			catch (EventSinkException ex) {
				result = Sink.RequestListener.resultOf(ex);
				completed(verb, result, start);
				mayHaveStored(context, (sentAt != null) ? event : null, ex);
				ServerThrottle throttle = ServerThrottle.of(ex);
				if (throttle != null) {
					this.counters.throttled(throttle);
				}
				if (ex.retryAfter() == null || ex.kind() != EventSinkException.Kind.HTTP_STATUS || this.run.stopping()) {
					throw failed(context, verb, ex);
				}
				busy = ex;
			}
			catch (Throwable ex) {
				Throwables.rethrowIfFatal(ex);
				// a sink that breaks its contract: retried like an error client-go cannot classify
				completed(verb, result, start);
				EventSinkException failure = EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
						"The sink threw " + ex, ex);
				mayHaveStored(context, (sentAt != null) ? event : null, failure);
				throw failed(context, verb, failure);
			}
			finally {
				endSpan(span, result);
			}
			if (repeat >= EventSinkException.MAX_RETRY_AFTER_REPEATS) {
				throw failed(context, verb, EventSinkException.unavailable(busy));
			}
			hold(busy.retryAfter());
			if (!pause(busy.retryAfter())) {
				// stop or shutdown ended the wait: the request fails with the server's answer
				throw failed(context, verb, busy);
			}
		}
	}

	private static EventSinkException failed(WriteContext context, String verb, EventSinkException ex) {
		context.failed(ex, verb);
		return ex;
	}

	/**
	 * Marks a CREATE that failed after the server may have stored it (a timeout, a lost connection, an answer not
	 * read, a 5xx), not one it refused or throttled: an AlreadyExists of a later attempt is then this write's own.
	 */
	private static void mayHaveStored(WriteContext context, @Nullable KubernetesObject created,
			EventSinkException ex) {
		if (created != null && !ex.isTooManyRequests() && ex.kind() != EventSinkException.Kind.REQUEST_CONSTRUCTION
				&& (ex.kind() != EventSinkException.Kind.HTTP_STATUS || ex.statusCode() >= 500)) {
			context.lostCreate(created.getMetadata().getName());
		}
	}

	private TraceContext.@Nullable RequestSpan startSpan(RecordedEvent traced, String verb) {
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

	private void endSpan(TraceContext.@Nullable RequestSpan span, String result) {
		if (span == null) {
			return;
		}
		try {
			span.end(result);
		}
		catch (RuntimeException ex) {
			spanFailed(ex);
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
		if (this.budget != null && !this.run.stopping()) {
			Duration wait = this.budget.reserve(this.clock.instant());
			if (!wait.isZero()) {
				pause(wait);
			}
		}
	}

	/**
	 * Waits, unless the run stops (before or during the wait).
	 * @return {@code false} when stopped or interrupted
	 */
	boolean pause(Duration delay) {
		try {
			return this.sleeper.sleepUnless(delay, this.run::stopping);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** Ends every wait in progress (the run stops). */
	void wakeAll() {
		this.sleeper.wakeAll();
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

	/** Events created so far. */
	long created() {
		return this.created.sum();
	}

	/** Events patched so far. */
	long patched() {
		return this.patched.sum();
	}

}
