package io.github.kubeevents;

import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.IntFunction;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads that write one sink's events to the API server: a fixed number of daemon threads
 * ({@code kubeevents-writer-<sink>-<n>}), each with a bounded queue. Writes are sharded by object, so the writes
 * about one object stay in order (a PATCH never overtakes its CREATE) while different objects are written in
 * parallel. With one thread every write is in recording order, as in client-go; the default is four.
 *
 * <p>Only the sink's subscriber thread submits (a single producer). A full queue drops the write and counts it
 * ({@code queue_full}). {@link #closeAndJoin()} lets the threads finish their queues and end; {@link #abort()} (the
 * stop or shutdown deadline) makes them count what is left as {@code shutdown} drops instead. {@link #start()}
 * starts new threads after a stop; the queues keep their writes across it.
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

	private static final Write END = new Write() {

		@Override
		public void run() {
		}

		@Override
		public void dropped(DropReason reason) {
		}

	};

	private final String sinkName;

	private final ArrayBlockingQueue<Write>[] queues;

	private final Thread[] threads;

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
		for (int i = 0; i < threadCount; i++) {
			// one slot more than the capacity, for the end marker
			this.queues[i] = new ArrayBlockingQueue<>(capacity + 1);
		}
	}

	/** The key that keeps one object's writes on one writer thread: kind, namespace and name. */
	static Object shard(RecordedEvent event) {
		InvolvedObject object = event.regarding();
		return Objects.hash(object.kind(), object.namespace(), object.name());
	}

	/** Starts a thread for every queue whose thread is not running (the first start, or after a stop). */
	synchronized void start() {
		this.aborted = false;
		for (int i = 0; i < this.threads.length; i++) {
			if (this.threads[i] == null || !this.threads[i].isAlive()) {
				ArrayBlockingQueue<Write> queue = this.queues[i];
				Thread thread = new Thread(() -> drain(queue),
						"kubeevents-writer-" + this.sinkName + ((this.threads.length > 1) ? "-" + i : ""));
				thread.setDaemon(true);
				this.threads[i] = thread;
				thread.start();
			}
		}
	}

	/**
	 * Queues a write on the thread of {@code shard} without blocking.
	 * @return {@code false} when that thread's queue is full, or the writers were aborted (the write was told it is
	 * dropped)
	 */
	boolean submit(Object shard, Write write) {
		if (this.aborted) {
			write.dropped(DropReason.SHUTDOWN);
			return false;
		}
		ArrayBlockingQueue<Write> queue = this.queues[threadOf(shard)];
		this.pending.incrementAndGet();
		if (queue.size() >= this.capacity || !queue.offer(write)) {
			this.pending.decrementAndGet();
			this.queueFull.increment();
			write.dropped(DropReason.QUEUE_FULL);
			return false;
		}
		if (this.aborted && queue.remove(write)) {
			// aborted meanwhile: its thread may already have counted what was left, so count this one here
			this.pending.decrementAndGet();
			write.dropped(DropReason.SHUTDOWN);
			return false;
		}
		return true;
	}

	/**
	 * Queues one write on every thread, behind what each has queued (a stop's work that must follow every write
	 * submitted before it, on the thread of each shard).
	 * @param write the write for the thread with the given index, from 0
	 */
	void submitToEach(IntFunction<Write> write) {
		for (int i = 0; i < this.queues.length; i++) {
			Write each = write.apply(i);
			if (this.aborted) {
				each.dropped(DropReason.SHUTDOWN);
				continue;
			}
			this.pending.incrementAndGet();
			// not an event's write: a full queue is not counted as a queue_full drop
			if (!this.queues[i].offer(each)) {
				this.pending.decrementAndGet();
				each.dropped(DropReason.QUEUE_FULL);
			}
			else if (this.aborted && this.queues[i].remove(each)) {
				this.pending.decrementAndGet();
				each.dropped(DropReason.SHUTDOWN);
			}
		}
	}

	/** The index of the thread that writes {@code shard}'s writes. */
	int threadOf(Object shard) {
		return Math.floorMod(shard.hashCode(), this.queues.length);
	}

	/** Writes submitted and not yet finished (queued or running). */
	int pending() {
		return this.pending.get();
	}

	/** Writes dropped because their thread's queue was full. */
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
			for (int i = 0; i < this.queues.length; i++) {
				if (running[i] != null && running[i].isAlive()) {
					this.queues[i].offer(END);
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

	private void drain(ArrayBlockingQueue<Write> queue) {
		try {
			while (true) {
				Write write = queue.take();
				if (write == END) {
					break;
				}
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
		catch (InterruptedException ex) {
			// aborted: what is left is counted below
		}
		finally {
			if (this.aborted) {
				dropLeftovers(queue);
			}
		}
	}

	private void dropLeftovers(ArrayBlockingQueue<Write> queue) {
		Write left;
		while ((left = queue.poll()) != null) {
			if (left != END) {
				this.pending.decrementAndGet();
				left.dropped(DropReason.SHUTDOWN);
			}
		}
	}

}
