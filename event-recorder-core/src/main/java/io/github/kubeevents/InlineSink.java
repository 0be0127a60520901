package io.github.kubeevents;

import java.time.Clock;
import java.util.Objects;
import java.util.function.Consumer;

import io.github.kubeevents.introspect.RecorderStats;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sink subscribed to the {@link Fanout}, run on the distribution thread: no queue and no thread of its own. The
 * distribution thread runs the sink's step ({@link SinkSubscriber#onEvent}: correlation or series) for each event
 * and its {@link SinkSubscriber#tick} at least once a second; the step submits the writes to the sink's
 * {@link SinkRun}s, whose bounded backlog never makes it wait (a full one drops the write for this sink alone). So
 * no sink holds up the other subscribers, whatever its API server does.
 *
 * <p>The lifecycle is this class's, over the sink's runs: every start starts them; a stop cancels them; at the stop
 * marker (or when the subscription is closed while distribution goes on) the distribution thread submits the final
 * writes ({@link SinkSubscriber#beforeStop(boolean)}, unless the deadline passed) and a short-lived thread of the
 * sink ({@code kubeevents-sink-ending-<name>}) ends the runs ({@link SinkSubscriber#end(boolean)}, which waits for
 * their writers), so the distribution thread waits for no sink, at a stop either; the deadline aborts the runs;
 * {@link SinkSubscriber#closed()} comes once, after {@link #close()}, by whichever of the close and the end of the
 * run comes second. A start while the last run still ends waits for that end (the state is {@code starting}). What
 * a stop keeps for the next start (repeats held back, series, carried occurrences) is counted as {@code shutdown}
 * drops once a shutdown or close makes it lost, whether it comes during the stop's end or after
 * ({@link SinkSubscriber#countHeld()}).
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

	/** Whether a start came while the last run was ending: it starts at that end. Guarded by {@code this}. */
	private boolean startAfterEnd;

	/** The thread that ends the current run, once it ends; guarded by {@code this}. */
	private @Nullable Thread ending;

	/**
	 * Whether what the sink holds was counted for good (a shutdown's or a close's end, or one while idle): once
	 * only, by whichever comes first. Guarded by {@code this}.
	 */
	private boolean heldCounted;

	InlineSink(String name, SinkSubscriber sink, EventCounters counters, Clock clock,
			Consumer<Subscriber> unsubscribe) {
		super(name, unsubscribe, counters);
		this.sink = Objects.requireNonNull(sink, "sink");
		this.clock = clock;
	}

	@Override
	public synchronized void start() {
		if (this.closedByUser || this.terminated) {
			return;
		}
		if (this.phase == Phase.ENDING) {
			this.startAfterEnd = true;
			return;
		}
		if (this.phase == Phase.IDLE) {
			for (SinkRun<?, ?> run : this.sink.runs()) {
				run.start();
			}
			this.phase = Phase.RUNNING;
		}
	}

	@Override
	public void offer(RecordedEvent event) {
		if (!this.closedByUser && !this.terminated) {
			handle(this.sink, event);
		}
	}

	@Override
	boolean aborted() {
		return this.sink.current().aborted();
	}

	@Override
	public void tick() {
		if (aborted() || !running()) {
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
		if (beginEnd()) {
			endRun(shutdown || this.closedByUser);
		}
		else if (shutdown) {
			// stopped before: what the stop kept for the next start is lost now
			countHeldWhileIdle();
		}
	}

	/** Counts what the sink holds, once, if it is idle (the count runs outside the lock). */
	private void countHeldWhileIdle() {
		synchronized (this) {
			if (this.phase != Phase.IDLE || this.heldCounted) {
				return;
			}
			this.heldCounted = true;
		}
		this.sink.countHeld();
	}

	@Override
	public void removed(boolean onDistributor) {
		// off the distribution thread, a run still under way ends at its stop marker
		if (onDistributor && beginEnd()) {
			endRun(true);
		}
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

	/** On the distribution thread: the final writes are submitted here, the runs end on a thread of the sink. */
	private void endRun(boolean last) {
		if (!aborted()) {
			try {
				this.sink.beforeStop(last);
			}
			catch (Throwable ex) {
				logger.error("Final writes of event sink '{}' failed", name(), ex);
			}
		}
		Thread thread = new Thread(() -> end(last), "kubeevents-sink-ending-" + name());
		thread.setDaemon(true);
		synchronized (this) {
			this.ending = thread;
		}
		thread.start();
	}

	/** The runs end (or are aborted meanwhile); then the sink is idle, told if it was closed, started if asked. */
	private void end(boolean last) {
		try {
			this.sink.end(last);
		}
		catch (Throwable ex) {
			logger.error("Stopping event sink '{}' failed", name(), ex);
		}
		finally {
			boolean closed;
			boolean restart;
			boolean countHeld;
			synchronized (this) {
				this.phase = Phase.IDLE;
				closed = this.closedByUser;
				restart = this.startAfterEnd && !closed && !this.terminated;
				this.startAfterEnd = false;
				// a stop's end keeps what the sink holds; a shutdown or close that came meanwhile loses it
				countHeld = !last && (closed || this.terminated) && !this.heldCounted;
				this.heldCounted |= last || countHeld;
			}
			if (countHeld) {
				this.sink.countHeld();
			}
			if (closed) {
				this.sink.closed();
			}
			else if (restart) {
				start();
			}
		}
	}

	@Override
	public void cancel() {
		for (SinkRun<?, ?> run : this.sink.runs()) {
			run.cancel();
		}
	}

	@Override
	public void abort() {
		for (SinkRun<?, ?> run : this.sink.runs()) {
			run.abort();
		}
	}

	@Override
	public boolean join(long deadlineNanos) {
		Thread thread;
		synchronized (this) {
			thread = this.ending;
		}
		boolean ended = (thread == null) || Threads.join(thread, deadlineNanos);
		for (SinkRun<?, ?> run : this.sink.runs()) {
			ended &= run.join(deadlineNanos);
		}
		return ended;
	}

	/** The thread that ends the current or the last run, or {@code null} before the first end. */
	synchronized @Nullable Thread endingThread() {
		return this.ending;
	}

	@Override
	public synchronized boolean isAlive() {
		return this.phase != Phase.IDLE || (this.ending != null && this.ending.isAlive());
	}

	@Override
	public void drainAbandoned() {
		// nothing queued here: what the writers hold they count at their abort
	}

	@Override
	public synchronized boolean restartPending() {
		return this.startAfterEnd;
	}

	@Override
	public RecorderStats.Subscriber stats() {
		return this.sink.current().stats(name());
	}

	@Override
	public SinkSubscriber sink() {
		return this.sink;
	}

	@Override
	boolean runsLocked() {
		return this.phase != Phase.IDLE;
	}

	/**
	 * Closed while stopped (or never started): no end of a run will tell the sink, so this does, after counting what
	 * the last stop kept for a next start.
	 */
	@Override
	void closedWhileIdle() {
		countHeldWhileIdle();
		this.sink.closed();
	}

}
