package io.github.kubeevents;

import java.time.Clock;
import java.util.Objects;

import io.github.kubeevents.introspect.RecorderStats;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sink subscribed to the {@link Fanout}, run on the distribution thread: no queue and no thread of its own. The
 * distribution thread runs the sink's step ({@link SinkSubscriber#onEvent}: correlation or series) for each event,
 * its {@link SinkSubscriber#tick} at least once a second and its end of a run at the stop marker; the sink's
 * {@link SinkWriters} take the writes from there. A sink never waits for anything but room in a full writer queue
 * (see {@link SinkWriters}), so the other subscribers are held up only while its API server is that slow.
 *
 * <p>The hooks, in this order: {@link SinkSubscriber#resume()} and {@link SinkSubscriber#started()} at every start
 * (the starting thread, before the distribution thread runs, or that thread for a sink added while running);
 * {@link SinkSubscriber#cancel()} when a stop begins; at the stop marker {@link SinkSubscriber#beforeStop(boolean)}
 * (unless the deadline passed) and {@link SinkSubscriber#stopped(boolean)}, which joins the writers, so the
 * distribution thread ends after them; {@link SinkSubscriber#abort()} at the deadline; {@link SinkSubscriber#closed()}
 * once, after {@link #close()}, by whichever of the close and the end of the run comes second. A sink closed while
 * distribution goes on gets its final {@code beforeStop(true)} on the distribution thread, behind the events
 * published before the close, and joins its writers on a short-lived thread ({@code kubeevents-sink-closing-<name>}),
 * so the distribution thread does not wait for them.
 *
 * <p>Thread-safe.
 */
final class InlineSink extends Subscriber {

	private static final Logger logger = LoggerFactory.getLogger(InlineSink.class);

	/** Where the sink is in its run. */
	private enum Phase {

		/** Not started, or stopped. */
		IDLE,

		/** Started: events and ticks reach the sink. */
		RUNNING,

		/** Its final hooks run (the stop marker, or its removal). */
		ENDING

	}

	private final SinkSubscriber sink;

	private final Clock clock;

	/** Guarded by {@code this}; with {@link #closedByUser} it decides who tells the sink {@code closed()}. */
	private Phase phase = Phase.IDLE;

	/** The thread that joins the writers of a sink removed while running; guarded by {@code this}. */
	private @Nullable Thread closer;

	InlineSink(String name, SinkSubscriber sink, EventCounters counters, Clock clock, Fanout fanout) {
		super(name, fanout, counters);
		this.sink = Objects.requireNonNull(sink, "sink");
		this.clock = clock;
	}

	@Override
	public synchronized void start() {
		if (this.closedByUser || this.terminated || this.phase != Phase.IDLE) {
			return;
		}
		this.aborted = false;
		this.sink.resume();
		this.sink.started();
		this.phase = Phase.RUNNING;
	}

	@Override
	public void offer(RecordedEvent event) {
		if (!this.closedByUser && !this.terminated) {
			handle(this.sink, event);
		}
	}

	@Override
	public void tick() {
		if (this.aborted || !running()) {
			return;
		}
		try {
			this.sink.tick(this.clock.instant());
		}
		catch (Throwable ex) {
			logger.error("Periodic work of event sink '{}' failed", name(), ex);
		}
	}

	@Override
	public void closeInput(boolean shutdown) {
		if (shutdown) {
			this.terminated = true;
		}
		if (!beginEnd()) {
			return;
		}
		boolean last = shutdown || this.closedByUser;
		beforeStop(last);
		end(last);
	}

	@Override
	public void removed(boolean onDistributor) {
		if (!onDistributor || !beginEnd()) {
			// off the distribution thread, a run still under way ends at its stop marker
			return;
		}
		beforeStop(true);
		Thread thread = new Thread(() -> end(true), "kubeevents-sink-closing-" + name());
		thread.setDaemon(true);
		synchronized (this) {
			this.closer = thread;
		}
		thread.start();
	}

	/** Whether this call moves a running sink to its end (exactly one caller does). */
	private synchronized boolean beginEnd() {
		if (this.phase != Phase.RUNNING) {
			return false;
		}
		this.phase = Phase.ENDING;
		return true;
	}

	private synchronized boolean running() {
		return this.phase == Phase.RUNNING;
	}

	private void beforeStop(boolean last) {
		if (this.aborted) {
			return;
		}
		try {
			this.sink.beforeStop(last);
		}
		catch (Throwable ex) {
			logger.error("Final writes of event sink '{}' failed", name(), ex);
		}
	}

	/** The writers finish and end (or are aborted meanwhile); then the sink is idle, and told if it was closed. */
	private void end(boolean last) {
		try {
			this.sink.stopped(last);
		}
		catch (Throwable ex) {
			// on the distribution thread, the other subscribers' ends still follow
			logger.error("Stopping event sink '{}' failed", name(), ex);
		}
		finally {
			boolean closed;
			synchronized (this) {
				this.phase = Phase.IDLE;
				closed = this.closedByUser;
			}
			if (closed) {
				this.sink.closed();
			}
		}
	}

	@Override
	public void cancel() {
		this.sink.cancel();
	}

	@Override
	public void abort() {
		this.aborted = true;
		this.sink.abort();
	}

	@Override
	public boolean join(long deadlineNanos) {
		Thread thread;
		synchronized (this) {
			thread = this.closer;
		}
		boolean ended = (thread == null) || Threads.join(thread, deadlineNanos);
		return this.sink.awaitTermination(deadlineNanos) && ended;
	}

	@Override
	public synchronized boolean isAlive() {
		return this.phase != Phase.IDLE || (this.closer != null && this.closer.isAlive());
	}

	@Override
	public void drainAbandoned() {
		// nothing queued here: what the writers hold they count at their abort
	}

	@Override
	public boolean restartPending() {
		return false;
	}

	@Override
	public RecorderStats.Subscriber stats() {
		SinkWriters writers = this.sink.writers();
		return new RecorderStats.Subscriber(name(), writers.depth(), writers.capacity(),
				Subscription.FullQueuePolicy.WAIT.tag(), writers.queueFullCount());
	}

	@Override
	public SinkSubscriber sink() {
		return this.sink;
	}

	@Override
	boolean runsLocked() {
		return this.phase != Phase.IDLE;
	}

	/** Closed while stopped (or never started): no end of a run will tell the sink, so this does. */
	@Override
	void closedWhileIdle() {
		this.sink.closed();
	}

}
