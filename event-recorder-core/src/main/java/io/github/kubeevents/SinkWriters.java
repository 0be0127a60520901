package io.github.kubeevents;

import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads that write one sink's events to the API server, and the sink's backlog: a fixed number of daemon
 * threads ({@code kubeevents-writer-<sink>-<n>}), each with a queue of its own. Writes are sharded by object, so the
 * writes about one object stay in order (a PATCH never overtakes its CREATE) while different objects are written in
 * parallel. With one thread every write is in recording order, as in client-go; the default is four.
 *
 * <p><b>The backlog is bounded and never waits.</b> The queues together hold at most {@code capacity} writes (any
 * queue may take all of them: a slow API server slows every writer of the sink alike). A write submitted while the
 * backlog is full is dropped at once and counted as {@code queue_full} for this sink alone: the distribution
 * thread that submits (see {@link InlineSink}) never waits here, so the logging handler, user handlers and other
 * sinks go on at full speed whatever this sink's API server does, as each watcher of client-go's broadcaster
 * drops its own events when its channel is full ({@code watch.DropIfChannelFull}). The default capacity (20,000
 * writes) holds 100 s of a 200 events/s stream of distinct objects, or a burst of 10,000 first events, while the
 * server is away or slow.
 *
 * <p>A thread starts with the first write of its queue in a run ({@link #open()}), so a sink that writes nothing
 * has no thread. {@link #closeAndJoin()} lets the threads finish their queues and end; the run's abort (the stop or
 * shutdown deadline, {@link SinkRun#aborted()}) makes them count what is left as {@code shutdown} drops instead.
 * The queues keep their writes across a stop. A thread that a stop abandoned (stuck in a call past the deadline)
 * keeps its queue and goes on with the next run's writes once it returns: a second thread would break the order of
 * an object's writes.
 *
 * <p>Thread-safe: the distribution thread submits, and the ending thread of a stop too.
 *
 * @param <W> a write of the sink's API
 */
final class SinkWriters<W> {

	/** What a writer thread does with each write. */
	interface Target<W> {

		/** Writes, with whatever retries the write allows. Must not throw. */
		void write(W write);

		/** The write will not run. */
		void dropped(W write, DropReason reason);

		/**
		 * Writes what the streams written by thread {@code thread} carry (deterministic names: occurrences that lost
		 * a race), behind the writes submitted before the stop.
		 */
		void writeCarried(int thread);

	}

	private static final Logger logger = LoggerFactory.getLogger(SinkWriters.class);

	/**
	 * The end marker a stop queues behind a queue's writes, stamped with the run ({@link #open()}) it ends. A writer
	 * that a stop abandoned may still be the thread of its queue after the next start; it then meets the marker of an
	 * earlier run before that run's writes, and goes on.
	 */
	private record End(int run) {
	}

	/** The marker that makes a thread write what its streams carry ({@link #submitCarried()}). */
	private static final Object CARRIED = new Object();

	/** How often a stop waiting for its writers looks whether the deadline passed (besides their end). */
	private static final long JOIN_CHECK_MILLIS = 100;

	/**
	 * How long a stop still waits for its writers once the deadline passed: they count what is left as soon as the
	 * abort interrupts them; one that ignores it (stuck in a call) is not waited for longer.
	 */
	private static final long ABORT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final String sinkName;

	private final LinkedBlockingQueue<Object>[] queues;

	private final Thread[] threads;

	/** The run in which the thread of each queue started or went on (-1: none yet); written under {@code this}. */
	private final AtomicIntegerArray startedIn;

	/** Whether the thread of each queue has taken its end marker and is ending; guarded by {@code this}. */
	private final boolean[] ending;

	/** The runs so far: each {@link #open()} begins one; written under {@code this}. */
	private volatile int run;

	private final int capacity;

	/** Writes in the queues, at most {@link #capacity}. */
	private final AtomicInteger queued = new AtomicInteger();

	/** Writes submitted and not yet finished (queued or running). */
	private final AtomicInteger pending = new AtomicInteger();

	private final LongAdder queueFull = new LongAdder();

	private final Target<W> target;

	private final SinkRun<?, ?> sinkRun;

	@SuppressWarnings("unchecked")
	SinkWriters(String sinkName, int threadCount, int capacity, Target<W> target, SinkRun<?, ?> sinkRun) {
		this.sinkName = sinkName;
		this.capacity = capacity;
		this.target = target;
		this.sinkRun = sinkRun;
		this.queues = new LinkedBlockingQueue[threadCount];
		this.threads = new Thread[threadCount];
		this.startedIn = new AtomicIntegerArray(threadCount);
		this.ending = new boolean[threadCount];
		for (int i = 0; i < threadCount; i++) {
			this.queues[i] = new LinkedBlockingQueue<>();
			this.startedIn.set(i, -1);
		}
	}

	/** The key that keeps one object's writes on one writer thread: kind, namespace and name. */
	static int shard(RecordedEvent event) {
		InvolvedObject object = event.regarding();
		return Objects.hash(object.kind(), object.namespace(), object.name());
	}

	/** The index of the thread that writes the writes of {@code event}'s object. */
	int threadOf(RecordedEvent event) {
		return Math.floorMod(shard(event), this.queues.length);
	}

	/** A run begins: each queue's thread starts with its first write (or goes on, if a stop abandoned it alive). */
	synchronized void open() {
		this.run++;
	}

	/**
	 * Queues a write on the thread of {@code event}'s object, never waiting.
	 * @return {@code false} when it was dropped: {@code queue_full} when the backlog is full, {@code shutdown} when
	 * the run was aborted (the target was told)
	 */
	boolean submit(RecordedEvent event, W write) {
		if (this.sinkRun.aborted()) {
			this.target.dropped(write, DropReason.SHUTDOWN);
			return false;
		}
		if (this.queued.incrementAndGet() > this.capacity) {
			this.queued.decrementAndGet();
			this.queueFull.increment();
			if (logger.isDebugEnabled()) {
				logger.debug("Backlog of sink '{}' is full ({} writes): write dropped as queue_full", this.sinkName,
						this.capacity);
			}
			this.target.dropped(write, DropReason.QUEUE_FULL);
			return false;
		}
		int index = threadOf(event);
		this.pending.incrementAndGet();
		LinkedBlockingQueue<Object> queue = this.queues[index];
		queue.offer(write);
		if (this.startedIn.get(index) != this.run) {
			startThread(index);
		}
		if (this.sinkRun.aborted() && queue.remove(write)) {
			// aborted meanwhile: its thread may already have counted what was left, so count this one here
			this.queued.decrementAndGet();
			this.pending.decrementAndGet();
			this.target.dropped(write, DropReason.SHUTDOWN);
			return false;
		}
		return true;
	}

	/**
	 * Queues, on every thread that ran in this run, the work of writing what its streams carry, behind what each has
	 * queued: a write queued before may still lose its race and carry. Not a write of the backlog: never dropped.
	 */
	synchronized void submitCarried() {
		for (int i = 0; i < this.queues.length; i++) {
			if (this.startedIn.get(i) == this.run && !this.ending[i]) {
				this.pending.incrementAndGet();
				this.queues[i].offer(CARRIED);
			}
		}
	}

	private synchronized void startThread(int index) {
		if (this.startedIn.get(index) == this.run) {
			return;
		}
		this.startedIn.set(index, this.run);
		Thread current = this.threads[index];
		if (current != null && current.isAlive() && !this.ending[index]) {
			// abandoned by a stop and still running: it keeps its queue
			return;
		}
		this.ending[index] = false;
		Thread thread = new Thread(() -> drain(index),
				"kubeevents-writer-" + this.sinkName + ((this.threads.length > 1) ? "-" + index : ""));
		thread.setDaemon(true);
		this.threads[index] = thread;
		thread.start();
	}

	/** Writes submitted and not yet finished (queued or running). */
	int pending() {
		return this.pending.get();
	}

	/** Writes dropped because the backlog was full. */
	long queueFullCount() {
		return this.queueFull.sum();
	}

	/** How many writes the backlog holds at most. */
	int capacity() {
		return this.capacity;
	}

	/** Writes waiting in the backlog. */
	int depth() {
		return this.queued.get();
	}

	/**
	 * Each thread finishes its queue and ends; waits for them. Once the run is aborted the threads count what is left
	 * and end; a thread that ignores the abort for a second is not waited for.
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
				else {
					running[i] = null;
				}
			}
		}
		long abortedAt = 0;
		for (Thread thread : running) {
			while (thread != null && thread != Thread.currentThread() && thread.isAlive()) {
				if (this.sinkRun.aborted()) {
					long now = System.nanoTime();
					abortedAt = (abortedAt == 0) ? now : abortedAt;
					if (now - abortedAt > ABORT_GRACE_NANOS) {
						return;
					}
				}
				try {
					thread.join(JOIN_CHECK_MILLIS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
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

	/** The run was aborted (the stop or shutdown deadline): the threads stop writing and count what is left. */
	void abort() {
		for (Thread thread : threads()) {
			if (thread != null) {
				thread.interrupt();
			}
		}
	}

	private synchronized Thread[] threads() {
		return this.threads.clone();
	}

	@SuppressWarnings("unchecked")
	private void drain(int index) {
		LinkedBlockingQueue<Object> queue = this.queues[index];
		try {
			while (true) {
				Object item;
				try {
					item = queue.take();
				}
				catch (InterruptedException ex) {
					if (endsAtAbort(index)) {
						// what is left is counted below
						break;
					}
					// the interrupt of an abort that a start has lifted since (this thread outlived that stop)
					continue;
				}
				if (item instanceof End end) {
					if (endsHere(index, end)) {
						break;
					}
					continue;
				}
				try {
					if (item == CARRIED) {
						if (!this.sinkRun.aborted()) {
							guarded(() -> this.target.writeCarried(index));
						}
						continue;
					}
					this.queued.decrementAndGet();
					W write = (W) item;
					if (this.sinkRun.aborted()) {
						guarded(() -> this.target.dropped(write, DropReason.SHUTDOWN));
					}
					else {
						run(write);
					}
				}
				finally {
					this.pending.decrementAndGet();
				}
			}
		}
		finally {
			dropLeftovers(queue, this.run);
		}
	}

	private void run(W write) {
		try {
			this.target.write(write);
		}
		catch (Throwable ex) {
			logger.error("Event write failed unexpectedly (dropped, counted as invalid_input)", ex);
			this.target.dropped(write, DropReason.INVALID_INPUT);
		}
	}

	/** Runs what a write's target does besides writing: a failure of it is logged, and the thread goes on. */
	private static void guarded(Runnable work) {
		try {
			work.run();
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			logger.error("A writer thread's bookkeeping failed unexpectedly", ex);
		}
	}

	/** Interrupted: whether the thread ends (aborted), or goes on because a start has lifted the abort since. */
	private synchronized boolean endsAtAbort(int index) {
		if (!this.sinkRun.aborted()) {
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
		if (end.run() != this.run) {
			return false;
		}
		this.ending[index] = true;
		return true;
	}

	/** Drops what is left in an aborted run's queue, until a start (which leaves the rest to its thread). */
	@SuppressWarnings("unchecked")
	private void dropLeftovers(LinkedBlockingQueue<Object> queue, int endedIn) {
		while (true) {
			Object left;
			synchronized (this) {
				left = (this.run == endedIn && this.sinkRun.aborted()) ? queue.poll() : null;
			}
			if (left == null) {
				return;
			}
			if (left instanceof End) {
				continue;
			}
			this.pending.decrementAndGet();
			if (left != CARRIED) {
				this.queued.decrementAndGet();
				W write = (W) left;
				guarded(() -> this.target.dropped(write, DropReason.SHUTDOWN));
			}
		}
	}

}
