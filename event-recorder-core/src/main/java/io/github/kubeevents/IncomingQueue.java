package io.github.kubeevents;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.jctools.queues.atomic.MpscAtomicArrayQueue;

/**
 * The broadcaster's incoming queue (apimachinery's {@code incoming} channel): many recording threads put events
 * in, one distribution thread takes events and commands out in FIFO order, and a recording thread does not wake
 * the distribution thread for each event.
 *
 * <p><b>Why.</b> At the rates controllers record (thousands per second, not millions) a queue that signals its
 * consumer on every put ({@code LinkedBlockingQueue}) makes almost every caller pay a thread wake-up, a
 * {@code futex} system call of 5–10 µs on a loaded machine, because the consumer is always asleep between two
 * events. Here a put is one CAS into an array ring plus one volatile read, and the consumer is woken by a
 * producer only in two cases:
 * <ul>
 * <li>it is in a <em>deep sleep</em>: nothing arrived for {@link #DEFAULT_QUIET_NANOS} (20 ms), so it parks
 * until its timeout and needs a wake-up. The first event after a quiet period pays one {@code unpark}, as with
 * any blocking queue; the events that follow within the quiet period do not.</li>
 * <li>it <em>naps</em> (after the queue ran empty, during the quiet period: it parks for
 * {@link #DEFAULT_NAP_NANOS}, 1 ms, and then drains what came in meanwhile, in a batch) and the queue has reached
 * the fill threshold, by default the capacity: the put that fills the last slot wakes it, and so does a put the
 * full queue refuses (the consumer may have begun its nap only after the queue filled). Rates below the
 * capacity per ms (10 million events a second by default) never reach it.</li>
 * </ul>
 *
 * <p><b>Why not wake it earlier.</b> A thread woken by another is placed by the Linux scheduler beside its waker,
 * on the waker's core, and runs there at once. Until 2026-12 a producer woke a napping consumer when the queue was
 * an eighth full: under a caller that records without pause (JMH's {@code CallerPathBenchmark}) that caller woke
 * the distribution thread every ~110 µs, the distribution thread took the caller's core for its drain while the
 * other core had idle time ({@code perf sched timehist}), and the caller's p99.9 was 76–106 µs. Woken by its own
 * nap timer, a consumer stays on the core it ran on. The price is paid by bursts faster than the capacity per
 * nap: the 10,000 slots hold 1.4 ms of one caller that does nothing else (about 7 million events a second
 * here), more than a nap, but two such callers fill them within one, and what comes while the woken consumer
 * gets going (10–100 µs) is dropped as {@code queue_full}, where the eighth-full wake-up left it 8,750 slots.
 * Such rates are three orders of magnitude above what a controller records; a larger capacity is the remedy.
 * So an event waits at most about a nap (1 ms, plus the timer's slack) before distribution starts, which costs
 * nothing next to an API server write, and while events flow the consumer wakes about once a millisecond whatever
 * the rate (well under 1 % of a core); after 20 quiet milliseconds it sleeps until its timeout.
 *
 * <p><b>No lost wake-up.</b> Before a deep sleep the consumer publishes {@code SLEEPING} (a volatile write) and
 * then checks the ring again (a volatile read of the producer index); a producer first claims its slot (a CAS of
 * the producer index) and then reads the state (a volatile read). Volatile accesses are totally ordered, so at
 * least one side sees the other: the consumer finds the event and does not park, or the producer finds
 * {@code SLEEPING}, switches it to {@code RUNNING} by CAS (so only one producer pays) and unparks the consumer,
 * whose permit makes a park that comes later return at once. A nap needs no handshake: it ends by itself.
 *
 * <p><b>Bounds.</b> Events are admitted while fewer than {@code capacity} items are queued (exact: the
 * producer's CAS and the size check are one step, {@link MpscAtomicArrayQueue#offerIfBelowThreshold}), and
 * dropped otherwise ({@link #offer} returns {@code false}). Commands (subscribe, unsubscribe, shutdown: opaque
 * objects, run by the consumer in order with the events, as apimachinery's {@code blockQueue} does) count
 * toward the same bound as in apimachinery, where they share the 1000-slot channel, but may also use the ring's
 * headroom above {@code capacity} (at least 16 slots), so a full queue delays a command instead of dropping it:
 * {@link #putCommand} waits for room.
 *
 * <p><b>Why JCTools.</b> {@code MpscAtomicArrayQueue} (JCTools, Apache 2.0, no dependencies; the queue family
 * Netty and Caffeine build on) is a bounded lock-free multi-producer single-consumer array ring with exactly the
 * operations needed: a threshold offer for an exact bound, a relaxed poll for the consumer's fast path, a strict
 * poll for the drain after close, and a cheap size. The {@code atomic} variant uses
 * {@code AtomicReferenceArray} and field updaters instead of {@code sun.misc.Unsafe}, so it raises no warning on
 * JDKs that deprecate Unsafe's memory access, at the cost of a bounds check per access. The JDK has no bounded
 * lock-free MPSC queue ({@code ConcurrentLinkedQueue} is unbounded and allocates a node per event;
 * {@code ArrayBlockingQueue} takes a lock and signals per put).
 *
 * <p><b>Closing.</b> When the consumer leaves for good it calls {@link #close(Consumer)}: every item still
 * queued goes to the given handler (to be counted as a {@code shutdown} drop or cancelled), and so does any item
 * a producer puts in a race with the close, handed over by that producer. A lock makes whoever drains after the
 * close the single consumer, so each item is handed over exactly once.
 *
 * <p>Thread-safe for any number of producers ({@link #offer}, {@link #putCommand}, {@link #wake}, {@link #size})
 * and one consumer at a time ({@link #poll}, {@link #close}). Another thread may become the consumer once the
 * previous one has stopped polling and a happens-before edge links them (for example a stop and a new start of
 * the distribution thread).
 */
final class IncomingQueue {

	/** How long the consumer parks between two drains while events flow. */
	static final long DEFAULT_NAP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/** How long the queue must stay empty before the consumer sleeps until a producer wakes it. */
	static final long DEFAULT_QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	/** Ring slots above the capacity, for commands when events fill the queue. */
	static final int MIN_COMMAND_HEADROOM = 16;

	private static final int RUNNING = 0;

	private static final int NAPPING = 1;

	private static final int SLEEPING = 2;

	private static final int CLOSED = 3;

	private static final long COMMAND_RETRY_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

	private static final int SPINS_BEFORE_YIELD = 100;

	private static final VarHandle STATE;

	static {
		try {
			STATE = MethodHandles.lookup().findVarHandle(IncomingQueue.class, "state", int.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final MpscAtomicArrayQueue<Object> ring;

	private final int capacity;

	private final int wakeThreshold;

	private final long napNanos;

	private final long quietNanos;

	private final Object closeLock = new Object();

	/** The consumer's state; producers switch NAPPING or SLEEPING to RUNNING when they wake it. */
	private volatile int state = RUNNING;

	private volatile Thread consumer;

	private volatile boolean wakeRequested;

	/** Set once by {@link #close}; read under {@link #closeLock}. */
	private Consumer<Object> leftovers;

	/** Test hook: runs on the consumer just before it publishes SLEEPING (the handshake's window). */
	private Runnable beforeSleep;

	/** Consumer-only: whether the last poll found the queue empty, and since when. */
	private boolean idle;

	private long idleSince;

	/**
	 * A queue with the default nap (1 ms), quiet period (20 ms) and fill threshold (the capacity: a napping
	 * consumer is woken by a producer only when the queue is full).
	 */
	IncomingQueue(int capacity) {
		this(capacity, DEFAULT_NAP_NANOS, DEFAULT_QUIET_NANOS);
	}

	/**
	 * A queue with its own nap and quiet period and the default fill threshold (the capacity), for tests of the
	 * default wake-up policy.
	 */
	IncomingQueue(int capacity, long napNanos, long quietNanos) {
		this(capacity, napNanos, quietNanos, capacity);
	}

	/**
	 * A queue with its own wait parameters (for tests and measurements).
	 * @param capacity the most events queued at once
	 * @param napNanos how long the consumer parks between drains while events flow
	 * @param quietNanos how long the queue stays empty before the consumer sleeps deeply ({@code 0}: at once)
	 * @param wakeThreshold the depth at which a producer wakes a napping consumer
	 */
	IncomingQueue(int capacity, long napNanos, long quietNanos, int wakeThreshold) {
		if (capacity < 1) {
			throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
		}
		if (napNanos <= 0 || quietNanos < 0 || wakeThreshold < 1) {
			throw new IllegalArgumentException("nap " + napNanos + " ns, quiet " + quietNanos + " ns, threshold "
					+ wakeThreshold + ": nap and threshold must be positive, quiet not negative");
		}
		// the ring's capacity is a power of two, at least the event capacity plus the command headroom
		this.ring = new MpscAtomicArrayQueue<>(Math.max(capacity + MIN_COMMAND_HEADROOM, 2));
		this.capacity = capacity;
		this.wakeThreshold = wakeThreshold;
		this.napNanos = napNanos;
		this.quietNanos = quietNanos;
	}

	/**
	 * Puts an event in without blocking and, in the common case, without a system call.
	 * @return {@code false} when {@code capacity} items are queued (the event is not queued); {@code true}
	 * otherwise, also when the queue was closed meanwhile: the event then went to the close's handler
	 */
	boolean offer(Object event) {
		if (!this.ring.offerIfBelowThreshold(event, this.capacity)) {
			// a consumer that found the ring empty just before it filled up may nap on beside a full queue
			if (this.state == NAPPING) {
				afterPut(NAPPING, true);
			}
			return false;
		}
		int current = this.state;
		if (current != RUNNING) {
			afterPut(current, false);
		}
		return true;
	}

	/**
	 * Puts a command in, using the headroom above the capacity, and wakes the consumer. Waits while the ring is
	 * completely full, which takes more than the headroom's worth of commands queued beside a full load of events.
	 * @param command the command (any object the consumer recognises)
	 * @param timeoutNanos how long to wait for room
	 * @return {@code true} when queued (or, in a race with {@link #close}, handed to its handler); {@code false}
	 * when closed before, or still full at the timeout
	 * @throws InterruptedException when interrupted while waiting for room
	 */
	boolean putCommand(Object command, long timeoutNanos) throws InterruptedException {
		long deadline = System.nanoTime() + timeoutNanos;
		while (this.state != CLOSED) {
			if (this.ring.offer(command)) {
				afterPut(this.state, true);
				return true;
			}
			wake();
			if (System.nanoTime() - deadline >= 0) {
				return false;
			}
			LockSupport.parkNanos(this, COMMAND_RETRY_NANOS);
			if (Thread.interrupted()) {
				throw new InterruptedException();
			}
		}
		return false;
	}

	/**
	 * Takes the oldest event or command, waiting while the queue is empty: in naps while events came recently,
	 * then in a deep sleep that a producer ends. Consumer only.
	 * @param timeoutNanos the longest wait
	 * @return the item, or {@code null} when the timeout passed or {@link #wake()} was called with nothing queued
	 * @throws InterruptedException when the consumer thread is interrupted (checked first, as
	 * {@code BlockingQueue.poll} does, so a shutdown deadline stops a consumer that never finds the queue empty)
	 */
	Object poll(long timeoutNanos) throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException();
		}
		Object item = this.ring.relaxedPoll();
		if (item != null) {
			this.idle = false;
			return item;
		}
		return await(timeoutNanos);
	}

	/**
	 * Takes the oldest item without waiting and without looking at the interrupt flag, for a consumer that has
	 * been interrupted and counts what is left up to an end marker. An item whose producer has claimed its slot
	 * but not yet written it is waited for (a few instructions), so nothing queued before a marker is skipped.
	 * Consumer only.
	 * @return the item, or {@code null} when the queue is empty
	 */
	Object pollNow() {
		return this.ring.poll();
	}

	/**
	 * Ends the consumer's current wait, or its next one, with {@code null} (for a stop or a shutdown that the
	 * consumer should notice before its timeout). Items queued are still returned first. Any thread.
	 */
	void wake() {
		this.wakeRequested = true;
		Thread thread = this.consumer;
		if (thread != null) {
			LockSupport.unpark(thread);
		}
	}

	/**
	 * The consumer leaves for good: every item still queued, and every item a producer adds in a race with the
	 * close, goes to {@code handler}, exactly once, on whichever thread drains it. Consumer only; idempotent.
	 * @param handler takes the items left (events to count as dropped, commands to cancel)
	 */
	void close(Consumer<Object> handler) {
		synchronized (this.closeLock) {
			if (this.leftovers == null) {
				this.leftovers = handler;
			}
		}
		this.state = CLOSED;
		drainClosed();
	}

	boolean isClosed() {
		return this.state == CLOSED;
	}

	/**
	 * Undoes {@link #close}: the queue takes items again, and what is put in from now on is no longer handed to
	 * the close's handler. For a consumer that is restarted (a subscriber's thread after an aborted stop); call it
	 * while no producer or consumer uses the queue. Does nothing when the queue is not closed.
	 */
	void reopen() {
		synchronized (this.closeLock) {
			if (this.state != CLOSED) {
				return;
			}
			this.leftovers = null;
			this.state = RUNNING;
		}
	}

	/** Events and commands queued (cheap; for gauges). */
	int size() {
		return this.ring.size();
	}

	int capacity() {
		return this.capacity;
	}

	/** Whether the consumer is in a deep sleep that only a producer or {@link #wake()} ends (for tests). */
	boolean consumerSleeping() {
		return this.state == SLEEPING;
	}

	/** Whether the consumer is napping (for tests). */
	boolean consumerNapping() {
		return this.state == NAPPING;
	}

	/**
	 * For tests: runs {@code hook} on the consumer thread each time it has found the queue empty and is about to
	 * publish SLEEPING, the moment at which a put must still reach it. Set before the consumer starts.
	 */
	void beforeDeepSleep(Runnable hook) {
		this.beforeSleep = hook;
	}

	private void afterPut(int current, boolean always) {
		while (current != RUNNING) {
			if (current == CLOSED) {
				drainClosed();
				return;
			}
			if (current == NAPPING && !always && this.ring.size() < this.wakeThreshold) {
				return;
			}
			if (STATE.compareAndSet(this, current, RUNNING)) {
				LockSupport.unpark(this.consumer);
				return;
			}
			current = this.state;
		}
	}

	private Object await(long timeoutNanos) throws InterruptedException {
		long now = System.nanoTime();
		long deadline = now + timeoutNanos;
		if (!this.idle) {
			this.idle = true;
			this.idleSince = now;
		}
		Thread self = Thread.currentThread();
		if (this.consumer != self) {
			this.consumer = self;
		}
		int spins = 0;
		while (true) {
			Object item = this.ring.relaxedPoll();
			if (item != null) {
				this.idle = false;
				return item;
			}
			if (this.wakeRequested) {
				this.wakeRequested = false;
				return null;
			}
			if (Thread.interrupted()) {
				throw new InterruptedException();
			}
			if (!this.ring.isEmpty()) {
				// a producer has claimed a slot and is about to fill it
				if (++spins < SPINS_BEFORE_YIELD) {
					Thread.onSpinWait();
				}
				else {
					Thread.yield();
				}
				continue;
			}
			long remaining = deadline - now;
			if (remaining <= 0) {
				return null;
			}
			// compare-and-set, not a plain write: a queue closed by another thread (a subscriber's abandoned
			// consumer) stays closed, and the waiting consumer returns
			int parked = (now - this.idleSince < this.quietNanos) ? NAPPING : SLEEPING;
			if (parked == NAPPING) {
				if (!STATE.compareAndSet(this, RUNNING, NAPPING)) {
					return null;
				}
				LockSupport.parkNanos(this, Math.min(this.napNanos, remaining));
			}
			else {
				if (this.beforeSleep != null) {
					this.beforeSleep.run();
				}
				if (!STATE.compareAndSet(this, RUNNING, SLEEPING)) {
					return null;
				}
				if (this.ring.isEmpty() && !this.wakeRequested) {
					LockSupport.parkNanos(this, remaining);
				}
			}
			// a failed compare-and-set means a producer woke us (RUNNING) or the queue was closed
			if (!STATE.compareAndSet(this, parked, RUNNING) && this.state == CLOSED) {
				return null;
			}
			now = System.nanoTime();
		}
	}

	private void drainClosed() {
		synchronized (this.closeLock) {
			if (this.leftovers == null) {
				return;
			}
			Object item;
			while ((item = this.ring.poll()) != null) {
				this.leftovers.accept(item);
			}
		}
	}

}
