package io.github.kubeevents;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subscriber of the {@link Fanout} (a watcher of apimachinery's {@code watch.Broadcaster}): a bounded queue
 * filled by the distribution thread and a daemon thread ({@code kubeevents-subscriber-<name>}) that hands each
 * event to the handler, in order. When the queue is full the event is dropped for this subscriber alone and
 * counted ({@link SubscriberOptions.FullQueuePolicy#DROP}), or the distribution thread waits
 * ({@link SubscriberOptions.FullQueuePolicy#WAIT}).
 *
 * <p>The thread runs from {@link #start()} until its input is closed ({@link #closeInput(boolean)}: it finishes
 * the queue, then ends); a later {@link #start()} runs a new thread on the same queue, so a stopped recorder
 * resumes where it was. {@link #abort()} (the stop or shutdown deadline) makes it count what is left as
 * {@code shutdown} drops instead.
 *
 * <p>A handler that is a {@link SinkSubscriber} gets its lifecycle calls from here and is ticked at least once a
 * second of real time for its periodic work.
 *
 * <p>Thread-safe: {@link #offer} is called by the distribution thread only.
 */
final class SubscriberQueue implements Subscription {

	private static final Logger logger = LoggerFactory.getLogger(SubscriberQueue.class);

	private static final Object END = new Object();

	private static final long IDLE_TICK_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** How long a handler without periodic work waits at most before it looks at its queue's state again. */
	private static final long IDLE_WAIT_NANOS = TimeUnit.MINUTES.toNanos(1);

	/** How long the distribution thread waits between two tries while the queue is full (FullQueuePolicy.WAIT). */
	private static final long FULL_RETRY_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

	private final String name;

	private final EventHandler handler;

	private final @Nullable SinkSubscriber sink;

	private final SubscriberOptions options;

	private final EventCounters counters;

	private final Clock clock;

	private final Fanout fanout;

	/**
	 * The events, bounded to the capacity, and the {@link #END} marker (in the ring's headroom). The same lock-free
	 * hand-off as the broadcaster's incoming queue: the distribution thread does not wake this subscriber's
	 * thread for each event, and neither side takes a lock. Closed (its leftovers counted as {@code shutdown}
	 * drops) when an abort ends the thread, and opened again by the next {@link #start()}.
	 */
	private final IncomingQueue queue;

	/**
	 * Who takes from {@link #queue}: the ring has room for one consumer at a time, and two would corrupt it (a
	 * taker could spin forever on a slot the other emptied, or an event be counted twice). The subscriber thread
	 * holds it while it polls (and keeps it when it closes the queue on its way out); {@link #drainAbandoned()}
	 * takes it for good when the thread is in its handler; {@link #start()} gives it back to the new thread.
	 */
	private final AtomicBoolean queueHeld = new AtomicBoolean();

	private final LongAdder dropped = new LongAdder();

	/** The current thread; guarded by {@code this}. */
	private @Nullable Thread thread;

	/** Whether the current thread was told to end; guarded by {@code this}. */
	private boolean endQueued;

	/** Whether {@link #drainAbandoned()} took the queue from an abandoned thread; guarded by {@code this}. */
	private boolean queueTaken;

	/** Whether a start waits for the abandoned thread to end; guarded by {@code this}. */
	private boolean restartPending;

	/** Whether the input was closed (a stop) while a start waited; guarded by {@code this}. */
	private boolean endAfterRestart;

	/**
	 * Whether a thread runs the queue and has not yet finished its sink's {@code stopped()}; guarded by
	 * {@code this}. It and {@link #closedByUser} decide, under the one lock, which of the ending thread and
	 * {@link #close()} tells a sink that it is closed: exactly one does.
	 */
	private boolean consuming;

	private volatile boolean finalStop;

	private volatile boolean closedByUser;

	private volatile boolean terminated;

	private volatile boolean aborted;

	SubscriberQueue(String name, EventHandler handler, SubscriberOptions options, EventCounters counters, Clock clock,
			Fanout fanout) {
		this.name = Objects.requireNonNull(name, "name");
		this.handler = Objects.requireNonNull(handler, "handler");
		this.sink = (handler instanceof SinkSubscriber subscriber) ? subscriber : null;
		this.options = Objects.requireNonNull(options, "options");
		this.counters = counters;
		this.clock = clock;
		this.fanout = fanout;
		this.queue = new IncomingQueue(options.queueCapacity());
	}

	/** Hands one event to this subscriber; called by the distribution thread only. */
	void offer(RecordedEvent event) throws InterruptedException {
		if (this.closedByUser || this.terminated) {
			return;
		}
		// once aborted the queue is closed, so an event put in now is counted as a shutdown drop by the queue
		boolean admitted = this.queue.offer(event);
		if (!admitted && this.options.fullQueuePolicy() == SubscriberOptions.FullQueuePolicy.WAIT) {
			while (!admitted && !this.aborted && !this.closedByUser) {
				LockSupport.parkNanos(this, FULL_RETRY_NANOS);
				if (Thread.interrupted()) {
					throw new InterruptedException();
				}
				admitted = this.queue.offer(event);
			}
		}
		if (!admitted) {
			this.dropped.increment();
			this.counters.drop(DropReason.QUEUE_FULL, event);
		}
	}

	/**
	 * Starts a thread on the queue, unless one runs or the subscription ended. When the thread that the last stop
	 * abandoned at its deadline still runs (stuck in its handler), the new thread starts as soon as that one returns
	 * and ends, and events queue for it meanwhile ({@link #restartPending()}).
	 */
	synchronized void start() {
		if (this.closedByUser || this.terminated) {
			return;
		}
		// consuming, not isAlive(): the ending thread reads restartPending in the same locked step that clears it
		if (this.thread != null && this.consuming) {
			if (this.aborted && !this.restartPending) {
				this.restartPending = true;
				if (this.queueTaken) {
					// the stop counted the queue and closed it; it stays taken, so the old thread ends when it returns
					this.queue.reopen();
				}
				logger.warn("Event subscriber '{}' starts once its thread, abandoned by the last stop at its deadline,"
						+ " returns; events are queued for it until then", this.name);
			}
			return;
		}
		launch();
	}

	/** Starts the new thread; under the lock, with no other thread at the queue. */
	private void launch() {
		if (this.sink != null) {
			this.sink.resume();
		}
		// an abort closed the queue; no other thread uses it until the new thread starts
		this.queue.reopen();
		this.queueHeld.set(false);
		this.queueTaken = false;
		this.restartPending = false;
		this.aborted = false;
		this.endQueued = false;
		boolean stopWhilePending = this.endAfterRestart;
		this.endAfterRestart = false;
		if (stopWhilePending) {
			// a stop came while the start waited: the new thread handles what queued meanwhile, then ends
			this.endQueued = true;
			putEnd();
		}
		else {
			this.finalStop = false;
		}
		Thread started = new Thread(this::consume, "kubeevents-subscriber-" + this.name);
		started.setDaemon(true);
		this.thread = started;
		this.consuming = true;
		started.start();
	}

	/** Whether a start waits for the thread the last stop abandoned. */
	synchronized boolean restartPending() {
		return this.restartPending;
	}

	/**
	 * No more events for now: the thread finishes what is queued (a sink submits its final writes and waits for its
	 * writers), then ends. Idempotent until the next {@link #start()}.
	 * @param shutdown whether the broadcaster shuts down for good (the subscription is then over)
	 */
	synchronized void closeInput(boolean shutdown) {
		if (shutdown) {
			this.terminated = true;
		}
		this.finalStop = shutdown;
		if (this.restartPending) {
			// the queue may be closed or still hold the abandoning stop's end marker: the end is queued by launch()
			this.endAfterRestart = true;
			return;
		}
		if (!this.endQueued) {
			this.endQueued = true;
			putEnd();
		}
	}

	/** A stop or shutdown began: no more waiting in retries; each remaining event gets one attempt. */
	void cancel() {
		if (this.sink != null) {
			this.sink.cancel();
		}
	}

	/** The stop or shutdown deadline passed: stop handling, count what is left, and wake the thread. */
	void abort() {
		this.aborted = true;
		if (this.sink != null) {
			this.sink.abort();
		}
		Thread current = currentThread();
		if (current != null) {
			current.interrupt();
		}
	}

	/**
	 * The thread ignored the abort and is abandoned: count what is left in its queue as {@code shutdown} drops
	 * now, from the calling thread, which takes the queue over for good (so the thread ends if it ever returns).
	 */
	synchronized void drainAbandoned() {
		if (this.queueHeld.compareAndSet(false, true)) {
			// the thread is inside its handler; if it ever returns, it finds the queue taken and ends
			this.queueTaken = true;
			this.queue.close(this::countLeftOver);
		}
		// else it is at the queue after all: aborted, it counts what is left itself, or closes it when interrupted
	}

	/**
	 * Waits for the thread and a sink's writer threads until {@code deadlineNanos}.
	 * @return {@code true} when they all ended
	 */
	boolean join(long deadlineNanos) {
		Thread current = currentThread();
		boolean ended = true;
		while (current != null) {
			if (!Threads.join(current, deadlineNanos)) {
				ended = false;
				break;
			}
			// an abandoned thread that ended may have started the thread a start waited for
			Thread next = currentThread();
			current = (next != current) ? next : null;
		}
		if (this.sink != null) {
			ended &= this.sink.awaitTermination(deadlineNanos);
		}
		return ended;
	}

	boolean isAlive() {
		Thread current = currentThread();
		return current != null && current.isAlive();
	}

	private synchronized @Nullable Thread currentThread() {
		return this.thread;
	}

	@Nullable SinkSubscriber sink() {
		return this.sink;
	}

	SubscriberOptions options() {
		return this.options;
	}

	int depth() {
		return this.queue.size();
	}

	long droppedCount() {
		return this.dropped.sum();
	}

	private void consume() {
		SinkSubscriber subscriber = this.sink;
		if (subscriber != null) {
			subscriber.started();
		}
		long lastTick = System.nanoTime();
		try {
			while (true) {
				if (!this.queueHeld.compareAndSet(false, true)) {
					// abandoned by a stop that counted the queue (drainAbandoned), and back from the handler since
					break;
				}
				Object item = this.queue.poll((subscriber != null) ? IDLE_TICK_NANOS : IDLE_WAIT_NANOS);
				this.queueHeld.set(false);
				if (item == END) {
					break;
				}
				if (item != null) {
					handle((RecordedEvent) item);
				}
				if (subscriber != null && !this.aborted && System.nanoTime() - lastTick >= IDLE_TICK_NANOS) {
					lastTick = System.nanoTime();
					tick(subscriber);
				}
			}
			if (subscriber != null && !this.aborted) {
				subscriber.beforeStop(this.finalStop);
			}
		}
		catch (InterruptedException ex) {
			// thrown by poll, so this thread still holds the queue and keeps it: closing hands what is queued, and
			// whatever the distribution thread puts in later, to the count
			this.queue.close(this::countLeftOver);
		}
		finally {
			if (subscriber != null) {
				subscriber.stopped(this.finalStop);
			}
			boolean closed;
			synchronized (this) {
				this.consuming = false;
				closed = this.closedByUser;
				if (this.restartPending) {
					if (closed || this.terminated) {
						// the start that waited for this thread will not come: what queued for it is counted
						this.restartPending = false;
						this.queue.close(this::countLeftOver);
					}
					else {
						launch();
					}
				}
			}
			if (closed && subscriber != null) {
				subscriber.closed();
			}
		}
	}

	private void handle(RecordedEvent event) {
		if (this.aborted) {
			this.counters.drop(DropReason.SHUTDOWN, event);
			return;
		}
		try {
			this.handler.onEvent(event);
		}
		catch (Throwable ex) {
			this.counters.drop(DropReason.INVALID_INPUT, event);
			logger.error("Event subscriber '{}' failed on {} (dropped, counted as invalid_input)", this.name,
					event.describe(), ex);
		}
	}

	private void tick(SinkSubscriber subscriber) {
		try {
			subscriber.tick(this.clock.instant());
		}
		catch (Throwable ex) {
			logger.error("Periodic work of event subscriber '{}' failed", this.name, ex);
		}
	}

	private void countLeftOver(Object item) {
		if (item != END) {
			this.counters.drop(DropReason.SHUTDOWN, (RecordedEvent) item);
		}
	}

	private void putEnd() {
		try {
			// the ring keeps headroom above the capacity for markers, so this fails only when the queue is closed
			this.queue.putCommand(END, 0);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public boolean isActive() {
		return !this.closedByUser && !this.terminated;
	}

	@Override
	public void close() {
		boolean threadDone;
		synchronized (this) {
			if (this.closedByUser) {
				return;
			}
			this.closedByUser = true;
			threadDone = !this.consuming;
		}
		this.fanout.unsubscribe(this);
		if (threadDone) {
			// closed while stopped (or as its thread ended): no thread takes what waits for a restart, so it is
			// counted now, and the ending thread has left telling the sink to this call
			drainAbandoned();
			if (this.sink != null) {
				this.sink.closed();
			}
		}
	}

}
