package io.github.kubeevents;

import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subscriber of the {@link Fanout} (a watcher of apimachinery's {@code watch.Broadcaster}): a bounded queue
 * filled by the distribution thread and a daemon thread ({@code kubeevents-subscriber-<name>}) that hands each
 * event to the handler, in order. When the queue is full the event is dropped for this subscriber alone and
 * counted ({@link FullQueuePolicy#DROP}), or the distribution thread waits ({@link FullQueuePolicy#WAIT}).
 *
 * <p>A handler that is a {@link MaintainedHandler} is also called at least once a second when idle, for its
 * periodic work. Closing the input lets the thread finish the queue and end; {@link #abort()} (the shutdown
 * deadline) makes it count what is left as {@code shutdown} drops instead.
 *
 * <p>Thread-safe: {@link #offer} is called by the distribution thread only.
 */
final class SubscriberQueue implements Subscription {

	private static final Logger logger = LoggerFactory.getLogger(SubscriberQueue.class);

	private static final Object END = new Object();

	private static final long IDLE_TICK_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final String name;

	private final EventHandler handler;

	private final SubscriberOptions options;

	private final EventCounters counters;

	private final Runnable unsubscribe;

	/** One slot more than the capacity, for the {@link #END} marker; {@link #permits} bound the events. */
	private final ArrayBlockingQueue<Object> queue;

	private final Semaphore permits;

	private final LongAdder dropped = new LongAdder();

	private final AtomicBoolean inputClosed = new AtomicBoolean();

	private final Thread thread;

	private volatile boolean closedByUser;

	private volatile boolean aborted;

	SubscriberQueue(String name, EventHandler handler, SubscriberOptions options, EventCounters counters,
			Runnable unsubscribe) {
		this.name = Objects.requireNonNull(name, "name");
		this.handler = Objects.requireNonNull(handler, "handler");
		this.options = Objects.requireNonNull(options, "options");
		this.counters = counters;
		this.unsubscribe = unsubscribe;
		this.queue = new ArrayBlockingQueue<>(options.queueCapacity() + 1);
		this.permits = new Semaphore(options.queueCapacity());
		this.thread = new Thread(this::consume, "kubeevents-subscriber-" + name);
		this.thread.setDaemon(true);
	}

	/** Hands one event to this subscriber; called by the distribution thread only. */
	void offer(RecordedEvent event) throws InterruptedException {
		if (this.inputClosed.get() || this.closedByUser) {
			return;
		}
		boolean admitted = this.permits.tryAcquire();
		if (!admitted && this.options.fullQueuePolicy() == FullQueuePolicy.WAIT) {
			while (!admitted && !this.aborted && !this.closedByUser) {
				admitted = this.permits.tryAcquire(50, TimeUnit.MILLISECONDS);
			}
		}
		if (admitted) {
			this.queue.add(event);
			if (this.aborted && this.queue.remove(event)) {
				// aborted meanwhile: the thread may already have counted what was left, so count this one here
				this.permits.release();
				this.counters.drop(DropReason.SHUTDOWN, event);
			}
		}
		else {
			this.dropped.increment();
			this.counters.drop(DropReason.QUEUE_FULL, event);
		}
	}

	void start() {
		this.thread.start();
	}

	/** No more events: the thread finishes what is queued, then ends. Idempotent. */
	void closeInput() {
		if (this.inputClosed.compareAndSet(false, true)) {
			this.queue.offer(END);
		}
	}

	/** The shutdown deadline passed: stop handling, count what is left, and wake the thread. */
	void abort() {
		this.aborted = true;
		if (this.handler instanceof MaintainedHandler maintained) {
			maintained.abort();
		}
		this.thread.interrupt();
	}

	/** Stop waiting in retries: each remaining event gets one attempt (client-go's shutdown rule). */
	void cancel() {
		if (this.handler instanceof MaintainedHandler maintained) {
			maintained.cancel();
		}
	}

	/**
	 * The thread ignored the abort and is abandoned: count what is left in its queue as {@code shutdown} drops
	 * now, from the calling thread (the end marker stays, so the thread still ends if it ever returns).
	 */
	void drainAbandoned() {
		boolean end = false;
		Object left;
		while ((left = this.queue.poll()) != null) {
			if (left == END) {
				end = true;
			}
			else {
				this.permits.release();
				this.counters.drop(DropReason.SHUTDOWN, (RecordedEvent) left);
			}
		}
		if (end) {
			this.queue.offer(END);
		}
	}

	boolean join(long deadlineNanos) {
		boolean ended = Threads.join(this.thread, deadlineNanos);
		if (this.handler instanceof MaintainedHandler maintained) {
			ended &= maintained.awaitTermination(deadlineNanos);
		}
		return ended;
	}

	boolean isAlive() {
		return this.thread.isAlive();
	}

	EventHandler handler() {
		return this.handler;
	}

	SubscriberOptions options() {
		return this.options;
	}

	int depth() {
		return this.options.queueCapacity() - this.permits.availablePermits();
	}

	long droppedCount() {
		return this.dropped.sum();
	}

	private void consume() {
		MaintainedHandler maintained = (this.handler instanceof MaintainedHandler m) ? m : null;
		if (maintained != null) {
			maintained.started();
		}
		long lastTick = System.nanoTime();
		try {
			while (true) {
				Object item = (maintained != null) ? this.queue.poll(IDLE_TICK_NANOS, TimeUnit.NANOSECONDS)
						: this.queue.take();
				if (item == END) {
					break;
				}
				if (item != null) {
					this.permits.release();
					handle((RecordedEvent) item);
				}
				if (maintained != null && !this.aborted && System.nanoTime() - lastTick >= IDLE_TICK_NANOS) {
					lastTick = System.nanoTime();
					tick(maintained);
				}
			}
		}
		catch (InterruptedException ex) {
			drainAfterAbort();
		}
		finally {
			if (maintained != null) {
				maintained.stopped();
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
			logger.error("Event subscriber '{}' failed on {}", this.name, event.describe(), ex);
		}
	}

	private void tick(MaintainedHandler maintained) {
		try {
			maintained.tick();
		}
		catch (Throwable ex) {
			logger.error("Periodic work of event subscriber '{}' failed", this.name, ex);
		}
	}

	private void drainAfterAbort() {
		Object left;
		while ((left = this.queue.poll()) != null) {
			if (left != END) {
				this.permits.release();
				this.counters.drop(DropReason.SHUTDOWN, (RecordedEvent) left);
			}
		}
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public boolean isActive() {
		return !this.closedByUser && !this.inputClosed.get();
	}

	@Override
	public void close() {
		if (!this.closedByUser) {
			this.closedByUser = true;
			this.unsubscribe.run();
		}
	}

	/** The handler's maintenance and shutdown hooks, for the library's own sink handlers. */
	interface MaintainedHandler extends EventHandler {

		/** The subscriber's thread started (on its own thread). */
		default void started() {
		}

		/** Called at least once a second of real time, on the subscriber's thread, for periodic work. */
		default void tick() {
		}

		/** Shutdown began: no more waiting between retries. Any thread. */
		default void cancel() {
		}

		/** The shutdown deadline passed: abandon in-flight requests. Any thread. */
		default void abort() {
		}

		/**
		 * Waits for the handler's own threads, if any, until the deadline (shutdown).
		 * @param deadlineNanos the {@link System#nanoTime()} deadline
		 * @return {@code true} when they all ended
		 */
		default boolean awaitTermination(long deadlineNanos) {
			return true;
		}

		/** The subscriber's thread is ending, its queue done (on its own thread); may wait for its own work. */
		default void stopped() {
		}

	}

}
