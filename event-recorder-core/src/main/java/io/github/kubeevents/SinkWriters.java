package io.github.kubeevents;

import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads that write one sink's events to the API server: a fixed number of daemon threads
 * ({@code kubeevents-writer-<sink>-<n>}), each with a bounded queue. Writes are sharded by object, so the writes
 * about one object stay in order (a PATCH never overtakes its CREATE) while different objects are written in
 * parallel. With one thread every write is in recording order, as in client-go; the default is four.
 *
 * <p>Only the broadcaster's distribution thread submits (a single producer: the sink's step runs there, see
 * {@link InlineSink}). <b>A full queue makes it wait for room</b> (backpressure) instead of dropping the write: a
 * writer queue fills only when the API server answers slowly, or a writer sleeps between attempts or waits for the
 * write budget, and the events behind it are better kept in the incoming queue, whose room the caller sees, than
 * dropped here although that queue has room. Loss can then only happen where the caller meets the full incoming
 * queue (counted there as {@code queue_full}, with the WARN summary of drops). The wait ends when a writer takes a
 * write from that queue, or at {@link #abort()} (the stop or shutdown deadline; the distribution thread is
 * interrupted too), when the write is counted as a {@code shutdown} drop; a stop's cancel does not end it, since the
 * writers then go on with one attempt per write and make room quickly. Writers never wait for the distribution
 * thread, so the wait cannot deadlock.
 *
 * <p><b>The cost, chosen deliberately:</b> while the distribution thread waits here, no subscriber gets events:
 * user {@link EventHandler}s (their queues and threads are their own, but they are fed by this thread) and other
 * sinks wait as long as this sink's API server is slow, and a frozen server fills the incoming queue, whose
 * {@code queue_full} drops then reach every subscriber. The alternative, dropping the write at a full writer queue
 * (a {@code queue_full} of this sink alone, the others unaffected), would lose a sink's events at the first burst
 * that a slow server meets although the incoming queue has room: the writers of a sink rarely fall behind for
 * another reason than their server, and an application has one sink in the common case, where the first policy
 * loses nothing the second would keep. An application whose own handlers must not wait for the API server can
 * run them on a broadcaster of their own.
 *
 * <p>The wait is head-of-line: while one queue is full, the distribution thread submits nothing to the others either
 * (and runs no periodic work). That is chosen over an overflow per queue, which would make the memory unbounded,
 * and over skipping ahead to other objects, which would reorder the sink's decisions: the writers of a sink share
 * one API server, its slowness, its Retry-After pauses and the write budget, so a queue is rarely full while the
 * others are not, and the others keep writing what they hold meanwhile. While the distribution thread waits, the
 * sink's depth ({@code stats().subscribers()}, the {@code kubeevents.queue.depth} gauge) stays at its writer queues'
 * capacity and the incoming queue's depth ({@code stats().queue()}) climbs.
 *
 * <p>{@link #closeAndJoin()} lets the threads finish their queues and end; {@link #abort()} (the stop or shutdown
 * deadline) makes them count what is left as {@code shutdown} drops instead. {@link #start()} starts new threads
 * after a stop; the queues keep their writes across it.
 *
 * <p>Thread-safe.
 */
final class SinkWriters {

	/** One write, run on a writer thread. */
	interface Write {

		/** Writes, with whatever retries the write allows. Must not throw. */
		void run();

		/** The write will not run. */
		void dropped(DropReason reason);

	}

	private static final Logger logger = LoggerFactory.getLogger(SinkWriters.class);

	/**
	 * The end marker a stop queues behind a queue's writes, stamped with the run ({@link #start()}) it ends. A writer
	 * that a stop abandoned (stuck in a call past the deadline) may still be the thread of its queue after the next
	 * start; it then meets the marker of an earlier run before that run's writes, and goes on.
	 */
	private static final class End implements Write {

		final int run;

		End(int run) {
			this.run = run;
		}

		@Override
		public void run() {
		}

		@Override
		public void dropped(DropReason reason) {
		}

	}

	/** How often the thread waiting for room looks whether the writers were aborted (besides its interrupt). */
	private static final long ROOM_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final String sinkName;

	private final ArrayBlockingQueue<Write>[] queues;

	/**
	 * The free slots of each queue: {@code capacity} less the writes it holds. The submitting thread takes one before
	 * it queues a write (waiting while there is none), the writer gives it back when it takes the write out.
	 */
	private final Semaphore[] room;

	private final Thread[] threads;

	/** Whether the thread of each queue has taken its end marker and is ending; guarded by {@code this}. */
	private final boolean[] ending;

	/** The runs so far: each {@link #start()} begins one; guarded by {@code this}. */
	private int run;

	private final int capacity;

	private final LongAdder queueFull = new LongAdder();

	/** Writes submitted and not yet run or dropped. */
	private final AtomicInteger pending = new AtomicInteger();

	private volatile boolean aborted;

	@SuppressWarnings("unchecked")
	SinkWriters(String sinkName, int threadCount, int capacity) {
		this.sinkName = sinkName;
		this.capacity = capacity;
		this.queues = new ArrayBlockingQueue[threadCount];
		this.threads = new Thread[threadCount];
		this.ending = new boolean[threadCount];
		this.room = new Semaphore[threadCount];
		for (int i = 0; i < threadCount; i++) {
			// one slot more than the capacity, for the end marker
			this.queues[i] = new ArrayBlockingQueue<>(capacity + 1);
			this.room[i] = new Semaphore(capacity);
		}
	}

	/** The key that keeps one object's writes on one writer thread: kind, namespace and name. */
	static Object shard(RecordedEvent event) {
		InvolvedObject object = event.regarding();
		return Objects.hash(object.kind(), object.namespace(), object.name());
	}

	/**
	 * Starts a thread for every queue whose thread is not running (the first start, or after a stop). A thread that
	 * the last stop abandoned and that still runs keeps its queue: a second one would break the order of an
	 * object's writes; it goes on with this run's writes once it returns.
	 */
	synchronized void start() {
		this.aborted = false;
		this.run++;
		for (int i = 0; i < this.threads.length; i++) {
			if (this.threads[i] == null || !this.threads[i].isAlive() || this.ending[i]) {
				this.ending[i] = false;
				int index = i;
				Thread thread = new Thread(() -> drain(index),
						"kubeevents-writer-" + this.sinkName + ((this.threads.length > 1) ? "-" + i : ""));
				thread.setDaemon(true);
				this.threads[i] = thread;
				thread.start();
			}
		}
	}

	/**
	 * Queues a write on the thread of {@code shard}, waiting while its queue is full (see the class comment).
	 * @return {@code false} when the writers were aborted, before or while it waited (the write was told it is
	 * dropped, as {@code shutdown})
	 */
	boolean submit(Object shard, Write write) {
		return enqueue(threadOf(shard), write, true);
	}

	/**
	 * Queues one write on every thread, behind what each has queued (a stop's work that must follow every write
	 * submitted before it, on the thread of each shard), waiting for room in a full queue as {@link #submit} does.
	 * @param write the write for the thread with the given index, from 0
	 */
	void submitToEach(IntFunction<Write> write) {
		for (int i = 0; i < this.queues.length; i++) {
			// not an event's write: a full queue is not counted as a queue_full drop
			enqueue(i, write.apply(i), false);
		}
	}

	/** The index of the thread that writes {@code shard}'s writes. */
	int threadOf(Object shard) {
		return Math.floorMod(shard.hashCode(), this.queues.length);
	}

	private boolean enqueue(int index, Write write, boolean countQueueFull) {
		if (this.aborted) {
			write.dropped(DropReason.SHUTDOWN);
			return false;
		}
		Semaphore room = this.room[index];
		if (!room.tryAcquire() && !awaitRoom(room, index)) {
			write.dropped(DropReason.SHUTDOWN);
			return false;
		}
		ArrayBlockingQueue<Write> queue = this.queues[index];
		this.pending.incrementAndGet();
		if (!queue.offer(write)) {
			// not while the queue holds one end marker at most (its extra slot); stops that abandoned a stuck thread
			// may have queued more
			room.release();
			this.pending.decrementAndGet();
			if (countQueueFull) {
				this.queueFull.increment();
			}
			write.dropped(DropReason.QUEUE_FULL);
			return false;
		}
		if (this.aborted && queue.remove(write)) {
			// aborted meanwhile: its thread may already have counted what was left, so count this one here
			room.release();
			this.pending.decrementAndGet();
			write.dropped(DropReason.SHUTDOWN);
			return false;
		}
		return true;
	}

	/**
	 * The queue is full: waits until a writer takes a write out of it.
	 * @return {@code true} with a slot taken; {@code false} when the writers were aborted or the submitting thread
	 * interrupted (the stop or shutdown deadline; the interrupt is kept)
	 */
	private boolean awaitRoom(Semaphore room, int index) {
		if (logger.isDebugEnabled()) {
			logger.debug("Writer queue {} of sink '{}' is full ({} writes): distribution waits for room", index,
					this.sinkName, this.capacity);
		}
		try {
			while (!this.aborted) {
				if (room.tryAcquire(ROOM_CHECK_NANOS, TimeUnit.NANOSECONDS)) {
					return true;
				}
			}
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** Writes submitted and not yet finished (queued or running). */
	int pending() {
		return this.pending.get();
	}

	/**
	 * Writes dropped because their thread's queue was full: none, since the submitter waits for room, unless a
	 * writer thread that a stop abandoned still holds its queue's end marker.
	 */
	long queueFullCount() {
		return this.queueFull.sum();
	}

	/** The capacity of all writer queues together. */
	int capacity() {
		return this.capacity * this.queues.length;
	}

	/** Writes waiting over every writer queue. */
	int depth() {
		int depth = 0;
		for (ArrayBlockingQueue<Write> queue : this.queues) {
			depth += queue.size();
		}
		return depth;
	}

	/**
	 * Each thread finishes its queue and ends; waits for them, unless {@link #abort()} interrupts the waiting
	 * thread meanwhile (then returns once they have noticed).
	 */
	void closeAndJoin() {
		Thread[] running;
		synchronized (this) {
			running = this.threads.clone();
			End end = new End(this.run);
			for (int i = 0; i < this.queues.length; i++) {
				if (running[i] != null && running[i].isAlive() && !this.ending[i]) {
					this.queues[i].offer(end);
				}
			}
		}
		for (Thread thread : running) {
			if (thread == null || thread == Thread.currentThread()) {
				continue;
			}
			try {
				thread.join();
			}
			catch (InterruptedException ex) {
				// the deadline passed: abort() interrupts the writers too
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	/**
	 * Waits for every writer thread to end, until {@code deadlineNanos}.
	 * @return {@code true} when all ended
	 */
	boolean join(long deadlineNanos) {
		boolean ended = true;
		for (Thread thread : threads()) {
			ended &= (thread == null) || Threads.join(thread, deadlineNanos);
		}
		return ended;
	}

	/** The stop or shutdown deadline passed: stop writing, count what is left. */
	void abort() {
		this.aborted = true;
		for (Thread thread : threads()) {
			if (thread != null) {
				thread.interrupt();
			}
		}
	}

	private synchronized Thread[] threads() {
		return this.threads.clone();
	}

	private void drain(int index) {
		ArrayBlockingQueue<Write> queue = this.queues[index];
		Semaphore room = this.room[index];
		try {
			while (true) {
				Write write;
				try {
					write = queue.take();
				}
				catch (InterruptedException ex) {
					if (endsAtAbort(index)) {
						// what is left is counted below
						break;
					}
					// the interrupt of an abort that a start has lifted since (this thread outlived that stop)
					continue;
				}
				if (write instanceof End end) {
					if (endsHere(index, end)) {
						break;
					}
					continue;
				}
				room.release();
				try {
					if (this.aborted) {
						write.dropped(DropReason.SHUTDOWN);
					}
					else {
						write.run();
					}
				}
				catch (Throwable ex) {
					logger.error("Event write failed unexpectedly (dropped, counted as invalid_input)", ex);
					write.dropped(DropReason.INVALID_INPUT);
				}
				finally {
					this.pending.decrementAndGet();
				}
			}
		}
		finally {
			if (this.aborted) {
				dropLeftovers(queue, room);
			}
		}
	}

	/** Interrupted: whether the thread ends (aborted), or goes on because a start has lifted the abort since. */
	private synchronized boolean endsAtAbort(int index) {
		if (!this.aborted) {
			return false;
		}
		this.ending[index] = true;
		return true;
	}

	/**
	 * At an end marker: whether the thread ends (the marker ends the current run), or goes on because a start has
	 * begun another run since, leaving this queue and the writes behind the marker to this thread.
	 */
	private synchronized boolean endsHere(int index, End end) {
		if (end.run != this.run) {
			return false;
		}
		this.ending[index] = true;
		return true;
	}

	private void dropLeftovers(ArrayBlockingQueue<Write> queue, Semaphore room) {
		Write left;
		while ((left = queue.poll()) != null) {
			if (!(left instanceof End)) {
				room.release();
				this.pending.decrementAndGet();
				left.dropped(DropReason.SHUTDOWN);
			}
		}
	}

}
