package io.github.kubeevents;

import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.common.KubernetesObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sink's writing, from a start to its stop: the sink ({@link Sink}), its writer threads and their bounded backlog
 * ({@link SinkWriters}), its request gate ({@link SinkRequests}) and its retry loop ({@link WriteAttempts}), and the
 * two facts of a stop that all of them read: whether a stop began ({@link #stopping()}: nothing waits any more, each
 * pending write gets its current attempt) and whether its deadline passed ({@link #aborted()}: nothing is written
 * any more, what is left is counted). Both are written here and nowhere else; a {@link #start()} clears them.
 *
 * <p>A sink subscriber ({@link SinkSubscriber}) decides what to write and submits it here; its {@link InlineSink}
 * drives the lifecycle: {@link #start()} at every start, {@link #cancel()} when a stop begins, {@link #end()} (on the
 * sink's ending thread) when the writes before the stop were submitted, {@link #abort()} at the deadline.
 *
 * <p>Thread-safe.
 *
 * @param <E> the Event type of the API written
 * @param <P> its patch
 */
final class SinkRun<E extends KubernetesObject, P extends Sink.Patch> {

	private static final Logger logger = LoggerFactory.getLogger(SinkRun.class);

	private final String name;

	private final Sink<E, P> sink;

	private final SinkWriters<?> writers;

	private final SinkRequests<E, P> requests;

	private final WriteAttempts attempts;

	private final WriteHealth health;

	/** Whether a stop or shutdown began; cleared by {@link #start()}. */
	private volatile boolean stopping;

	/** Whether the deadline of the current stop passed; cleared by {@link #start()}. */
	private volatile boolean aborted;

	/**
	 * @param name the sink's subscriber name (its writer threads are {@code kubeevents-writer-<name>-<n>})
	 * @param api the API written: the retry delay rule and the {@code api} of every request's report
	 * @param sink where the Events go
	 * @param server the API server written to, for failures in health and stats; empty when unknown
	 * @param settings the broadcaster's settings shared by its sinks
	 * @param counters the broadcaster's counters
	 * @param target what a writer thread does with each write
	 */
	<W> SinkRun(String name, EventsApi api, Sink<E, P> sink, String server, SinkSettings settings,
			EventCounters counters, SinkWriters.Target<W> target) {
		this.name = name;
		this.sink = sink;
		this.health = new WriteHealth(api.value(), server, settings.clock());
		this.requests = new SinkRequests<>(api, sink, settings, counters, this.health, this);
		this.attempts = new WriteAttempts(api, settings, counters, this.health, this.requests, this);
		this.writers = new SinkWriters<>(name, settings.writers(), settings.backlogCapacity(), target, this);
	}

	/** Its requests, for the writer of each write. */
	SinkRequests<E, P> requests() {
		return this.requests;
	}

	/** Its retry loop. */
	WriteAttempts attempts() {
		return this.attempts;
	}

	/** Its writer threads and backlog. */
	@SuppressWarnings("unchecked")
	<W> SinkWriters<W> writers() {
		return (SinkWriters<W>) this.writers;
	}

	/** Whether a stop or shutdown began: waits end, each pending write gets its current attempt only. */
	boolean stopping() {
		return this.stopping;
	}

	/** Whether the deadline of the current stop passed: nothing more is written, what is left is counted. */
	boolean aborted() {
		return this.aborted;
	}

	/**
	 * A start, the first or after a stop: writes wait and retry as usual again, and the writer threads start with
	 * the first write of each (a run that never writes, e.g. the core/v1 fallback of a sink that never switches,
	 * starts none).
	 */
	void start() {
		// the new run first: a writer the last stop abandoned that sees the abort lifted goes on in this run
		this.writers.open();
		this.aborted = false;
		this.stopping = false;
		hook(this.sink::resume, "resume");
	}

	/** A stop or shutdown began: nothing waits any more; each pending write gets its current attempt. Any thread. */
	void cancel() {
		this.stopping = true;
		this.requests.wakeAll();
		hook(this.sink::cancel, "cancel");
	}

	/** The deadline passed: requests in flight are cancelled, what is left is counted. Any thread. */
	void abort() {
		this.aborted = true;
		cancel();
		this.writers.abort();
		hook(this.sink::abort, "abort");
	}

	/**
	 * The writes before the stop were submitted: the writer threads finish their backlog and end (or are aborted
	 * meanwhile), then the sink releases what is idle. Waits; never on the distribution thread.
	 */
	void end() {
		this.writers.closeAndJoin();
		hook(this.sink::stopped, "stopped");
	}

	/**
	 * Waits for the writer threads until the deadline.
	 * @param deadlineNanos the {@link System#nanoTime()} deadline
	 * @return {@code true} when they all ended
	 */
	boolean join(long deadlineNanos) {
		return this.writers.join(deadlineNanos);
	}

	/** Its writes so far. */
	RecorderStats.Writes writes() {
		return this.attempts.stats();
	}

	/** Its backlog, as the subscriber's gauges show it. */
	RecorderStats.Subscriber stats(String subscriber) {
		return new RecorderStats.Subscriber(subscriber, this.writers.depth(), this.writers.capacity(),
				Subscription.FullQueuePolicy.DROP.tag(), this.writers.queueFullCount());
	}

	/** Calls a hook of the sink's: one that fails is logged, and the run's own step goes on. */
	private void hook(Runnable hook, String name) {
		try {
			hook.run();
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.error("The {}() of event sink '{}' failed (the recorder goes on)", name, this.name, ex);
		}
	}

	/** How its writes fare, for health. */
	WriteHealth health() {
		return this.health;
	}

}
