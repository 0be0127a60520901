package io.github.kubeevents;

import java.util.concurrent.ArrayBlockingQueue;
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
 * ({@code queue_full}). Closing lets the threads finish their queues; {@link #abort()} makes them count what is
 * left as {@code shutdown} drops.
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

	private final ArrayBlockingQueue<Write>[] queues;

	private final Thread[] threads;

	private final int capacity;

	private final LongAdder queueFull = new LongAdder();

	/** Writes submitted and not yet run or dropped. */
	private final AtomicInteger pending = new AtomicInteger();

	private volatile boolean closed;

	private volatile boolean aborted;

	@SuppressWarnings("unchecked")
	SinkWriters(String sinkName, int threadCount, int capacity) {
		this.capacity = capacity;
		this.queues = new ArrayBlockingQueue[threadCount];
		this.threads = new Thread[threadCount];
		for (int i = 0; i < threadCount; i++) {
			ArrayBlockingQueue<Write> queue = new ArrayBlockingQueue<>(capacity + 1);
			this.queues[i] = queue;
			this.threads[i] = new Thread(() -> drain(queue),
					"kubeevents-writer-" + sinkName + ((threadCount > 1) ? "-" + i : ""));
			this.threads[i].setDaemon(true);
		}
	}

	void start() {
		for (Thread thread : this.threads) {
			if (thread.getState() == Thread.State.NEW) {
				thread.start();
			}
		}
	}

	/**
	 * Queues a write on the thread of {@code shard} without blocking.
	 * @return {@code false} when that thread's queue is full or closed (the write was told it is dropped)
	 */
	boolean submit(Object shard, Write write) {
		ArrayBlockingQueue<Write> queue = this.queues[Math.floorMod(shard.hashCode(), this.queues.length)];
		if (this.closed) {
			write.dropped(DropReason.SHUTDOWN);
			return false;
		}
		this.pending.incrementAndGet();
		if (queue.size() >= this.capacity || !queue.offer(write)) {
			this.pending.decrementAndGet();
			this.queueFull.increment();
			write.dropped(DropReason.QUEUE_FULL);
			return false;
		}
		return true;
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

	/** Events waiting over every writer queue. */
	int depth() {
		int depth = 0;
		for (ArrayBlockingQueue<Write> queue : this.queues) {
			depth += queue.size();
		}
		return depth;
	}

	/**
	 * No more writes: each thread finishes its queue and ends. Waits for them, unless {@link #abort()} is called
	 * meanwhile (then returns once they have noticed).
	 */
	void closeAndJoin() {
		this.closed = true;
		for (ArrayBlockingQueue<Write> queue : this.queues) {
			queue.offer(END);
		}
		for (Thread thread : this.threads) {
			if (thread.getState() == Thread.State.NEW || thread == Thread.currentThread()) {
				continue;
			}
			try {
				thread.join();
			}
			catch (InterruptedException ex) {
				// the shutdown deadline passed: abort() interrupts the writers too
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
		for (Thread thread : this.threads) {
			ended &= Threads.join(thread, deadlineNanos);
		}
		return ended;
	}

	/** The shutdown deadline passed: stop writing, count what is left. */
	void abort() {
		this.aborted = true;
		this.closed = true;
		for (Thread thread : this.threads) {
			thread.interrupt();
		}
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
					logger.error("Event write failed unexpectedly", ex);
				}
				finally {
					this.pending.decrementAndGet();
				}
			}
		}
		catch (InterruptedException ex) {
			dropLeftovers(queue);
		}
		finally {
			dropLeftovers(queue);
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
