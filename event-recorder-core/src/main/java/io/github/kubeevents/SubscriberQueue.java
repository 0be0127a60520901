package io.github.kubeevents;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import io.github.kubeevents.introspect.RecorderStats;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One user's {@link EventHandler} subscribed to the {@link Fanout} (a watcher of apimachinery's
 * {@code watch.Broadcaster}): a bounded queue filled by the distribution thread and a daemon thread
 * ({@code kubeevents-subscriber-<name>}) that hands each event to the handler, in order, so a slow handler holds up
 * nobody else. Sinks do not come here: they run on the distribution thread ({@link InlineSink}). When the queue is
 * full the event is dropped for this subscriber alone and counted ({@link Subscription.FullQueuePolicy#DROP}),
 * or the distribution thread waits ({@link Subscription.FullQueuePolicy#WAIT}).
 *
 * <p>The thread runs from {@link #start()} until its input is closed ({@link #closeInput(boolean)}: it finishes
 * the queue, then ends); a later {@link #start()} runs a new thread on the same queue, so a stopped recorder
 * resumes where it was. {@link #abort()} (the stop or shutdown deadline) makes it count what is left as
 * {@code shutdown} drops instead.
 *
 * <p>Thread-safe: {@link #offer} is called by the distribution thread only.
 */
final class SubscriberQueue extends Subscriber {

	private static final Logger logger = LoggerFactory.getLogger(SubscriberQueue.class);

	private static final Object END = new Object();

	/** How long the thread waits at most before it looks at its queue's state again. */
	private static final long IDLE_WAIT_NANOS = TimeUnit.MINUTES.toNanos(1);

	/** How long the distribution thread waits between two tries while the queue is full (FullQueuePolicy.WAIT). */
	private static final long FULL_RETRY_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

	private final EventHandler handler;

	private final Subscription.Options options;

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

	/** Whether the deadline of the current stop passed; cleared by the next start. */
	private volatile boolean aborted;

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
	 * Whether a thread runs the queue and has not yet ended; guarded by {@code this}. It and {@link #closedByUser}
	 * decide, under the one lock, which of the ending thread and {@link #close()} counts what a closed subscriber
	 * left queued: exactly one does.
	 */
	private boolean consuming;

	SubscriberQueue(String name, EventHandler handler, Subscription.Options options, EventCounters counters,
			Consumer<Subscriber> unsubscribe) {
		super(name, unsubscribe, counters);
		this.handler = Objects.requireNonNull(handler, "handler");
		this.options = Objects.requireNonNull(options, "options");
		this.queue = new IncomingQueue(options.queueCapacity());
	}

	@Override
	boolean aborted() {
		return this.aborted;
	}

	@Override
	public void offer(RecordedEvent event) throws InterruptedException {
		if (this.closedByUser || this.terminated) {
			return;
		}
		// once aborted the queue is closed, so an event put in now is counted as a shutdown drop by the queue
		boolean admitted = this.queue.offer(event);
		if (!admitted && this.options.fullQueuePolicy() == Subscription.FullQueuePolicy.WAIT) {
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
	@Override
	public synchronized void start() {
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
						+ " returns; events are queued for it until then", name());
			}
			return;
		}
		launch();
	}

	/** Starts the new thread; under the lock, with no other thread at the queue. */
	private void launch() {
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
		Thread started = new Thread(this::consume, "kubeevents-subscriber-" + name());
		started.setDaemon(true);
		this.thread = started;
		this.consuming = true;
		started.start();
	}

	@Override
	public synchronized boolean restartPending() {
		return this.restartPending;
	}

	/**
	 * No more events for now: the thread finishes what is queued, then ends. Idempotent until the next
	 * {@link #start()}.
	 * @param shutdown whether the broadcaster shuts down for good (the subscription is then over)
	 */
	@Override
	public synchronized void closeInput(boolean shutdown) {
		if (shutdown) {
			this.terminated = true;
		}
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

	/** The subscription was closed: the thread finishes what is queued, then ends, for good. */
	@Override
	public void removed(boolean onDistributor) {
		closeInput(true);
	}

	/** Nothing to do: the handler's calls have no retries to cut short. */
	@Override
	public void cancel() {
	}

	/** The stop or shutdown deadline passed: stop handling, count what is left, and wake the thread. */
	@Override
	public void abort() {
		this.aborted = true;
		Thread current = currentThread();
		if (current != null) {
			current.interrupt();
		}
	}

	/**
	 * The thread ignored the abort and is abandoned: count what is left in its queue as {@code shutdown} drops
	 * now, from the calling thread, which takes the queue over for good (so the thread ends if it ever returns).
	 */
	@Override
	public synchronized void drainAbandoned() {
		if (this.queueHeld.compareAndSet(false, true)) {
			// the thread is inside its handler; if it ever returns, it finds the queue taken and ends
			this.queueTaken = true;
			this.queue.close(this::countLeftOver);
		}
		// else it is at the queue after all: aborted, it counts what is left itself, or closes it when interrupted
	}

	@Override
	public boolean join(long deadlineNanos) {
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
		return ended;
	}

	@Override
	public boolean isAlive() {
		Thread current = currentThread();
		return current != null && current.isAlive();
	}

	private synchronized @Nullable Thread currentThread() {
		return this.thread;
	}

	/** Nothing periodic: a handler is only called with events. */
	@Override
	public void tick() {
	}

	@Override
	public @Nullable SinkSubscriber sink() {
		return null;
	}

	@Override
	public RecorderStats.Subscriber stats() {
		return new RecorderStats.Subscriber(name(), this.queue.size(), this.options.queueCapacity(),
				this.options.fullQueuePolicy().tag(), this.dropped.sum());
	}

	private void consume() {
		try {
			while (true) {
				if (!this.queueHeld.compareAndSet(false, true)) {
					// abandoned by a stop that counted the queue (drainAbandoned), and back from the handler since
					break;
				}
				Object item = this.queue.poll(IDLE_WAIT_NANOS);
				this.queueHeld.set(false);
				if (item == END) {
					break;
				}
				if (item != null) {
					handle(this.handler, (RecordedEvent) item);
				}
			}
		}
		catch (InterruptedException ex) {
			// thrown by poll, so this thread still holds the queue and keeps it: closing hands what is queued, and
			// whatever the distribution thread puts in later, to the count
			this.queue.close(this::countLeftOver);
		}
		finally {
			synchronized (this) {
				this.consuming = false;
				if (this.restartPending) {
					if (this.closedByUser || this.terminated) {
						// the start that waited for this thread will not come: what queued for it is counted
						this.restartPending = false;
						this.queue.close(this::countLeftOver);
					}
					else {
						launch();
					}
				}
			}
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
	boolean runsLocked() {
		return this.consuming;
	}

	/**
	 * Closed while stopped (or as its thread ended): no thread takes what waits for a restart, so it is counted
	 * now.
	 */
	@Override
	void closedWhileIdle() {
		drainAbandoned();
	}

}
