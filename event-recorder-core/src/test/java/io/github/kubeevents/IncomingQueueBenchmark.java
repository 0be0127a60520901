package io.github.kubeevents;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The incoming hand-off alone (issue 14): one producer puts, one consumer takes, with {@code queue=lbq} (the
 * {@code LinkedBlockingQueue} and {@code AtomicInteger} bound that {@link Fanout} uses today) or
 * {@code queue=incoming} ({@link IncomingQueue}). The benchmark sits in the library's package because both
 * queues are package-private.
 *
 * <p>{@code gap=0}: the producer puts as fast as it can (saturated; most puts find the queue full and are
 * refused). {@code gap=4000}: the producer burns {@code Blackhole.consumeCPU(4000)} (≈ 10 µs here) before each
 * put, so the consumer runs dry between events, as at paced rates: with {@code lbq} nearly every put then wakes
 * the consumer. The score of {@code put} includes the gap; {@code gapOnly} measures the gap alone, so
 * {@code put - gapOnly} is the put's own cost. {@code SampleTime} gives the distribution (p50, p99, p99.9).
 */
@State(Scope.Group)
@BenchmarkMode({ Mode.AverageTime, Mode.SampleTime })
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Xms512m", "-Xmx512m" })
public class IncomingQueueBenchmark {

	private static final Object EVENT = new Object();

	private static final long POLL_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	@Param({ "lbq", "incoming" })
	public String queue;

	@Param({ "0", "4000" })
	public int gap;

	private Handoff handoff;

	@Setup(Level.Trial)
	public void setUp() {
		this.handoff = this.queue.equals("lbq") ? new LinkedHandoff(1000) : new RingHandoff(new IncomingQueue(1000));
	}

	@TearDown(Level.Iteration)
	public void wake() {
		this.handoff.wake();
	}

	@Benchmark
	@Group("handoff")
	@GroupThreads(1)
	public boolean put() {
		if (this.gap > 0) {
			Blackhole.consumeCPU(this.gap);
		}
		return this.handoff.offer(EVENT);
	}

	@Benchmark
	@Group("handoff")
	@GroupThreads(1)
	public Object take() throws InterruptedException {
		return this.handoff.poll(POLL_TIMEOUT_NANOS);
	}

	/** The producer's gap without a put, to subtract from {@code put}. */
	@Benchmark
	@Group("gapOnly")
	@GroupThreads(1)
	public void gapOnly() {
		if (this.gap > 0) {
			Blackhole.consumeCPU(this.gap);
		}
	}

	/** The operations both queues offer the distribution loop. */
	private interface Handoff {

		boolean offer(Object event);

		Object poll(long timeoutNanos) throws InterruptedException;

		void wake();

	}

	/** Fanout's hand-off before issue 14: an unbounded LinkedBlockingQueue bounded by a counter. */
	private static final class LinkedHandoff implements Handoff {

		private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();

		private final AtomicInteger queued = new AtomicInteger();

		private final int capacity;

		LinkedHandoff(int capacity) {
			this.capacity = capacity;
		}

		@Override
		public boolean offer(Object event) {
			if (this.queued.incrementAndGet() > this.capacity) {
				this.queued.decrementAndGet();
				return false;
			}
			this.queue.add(event);
			return true;
		}

		@Override
		public Object poll(long timeoutNanos) throws InterruptedException {
			Object item = this.queue.poll(timeoutNanos, TimeUnit.NANOSECONDS);
			if (item != null) {
				this.queued.decrementAndGet();
			}
			return item;
		}

		@Override
		public void wake() {
		}

	}

	private record RingHandoff(IncomingQueue queue) implements Handoff {

		@Override
		public boolean offer(Object event) {
			return this.queue.offer(event);
		}

		@Override
		public Object poll(long timeoutNanos) throws InterruptedException {
			return this.queue.poll(timeoutNanos);
		}

		@Override
		public void wake() {
			this.queue.wake();
		}

	}

}
