package io.github.kubeevents.benchmarks;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@code recorder.eventf(pod, WARNING, "FailedCreate", "Error creating: %s", err)} costs the caller's thread
 * in a running broadcaster, as an average and as a distribution ({@code SampleTime}: p50, p99, p99.9): validation,
 * reference, formatting and the non-blocking enqueue, while the distribution and sink threads work beside it.
 *
 * <p>{@code sink=instant}: the sink answers at once (the spam filter soon drops most events, on the sink's
 * thread). {@code sink=stuck}: the sink never answers (a frozen API server), so the sink's queue is full and
 * every event is dropped downstream; the caller's path must stay as cheap. {@code -p sink=none} (not run by
 * default): no subscriber, so the distribution thread only drains the incoming queue (the hand-off alone). The
 * source compiles against the API before and after the 1.0 shape (2dc60cb and later), so both can be measured
 * with the same settings.
 *
 * <p>Each iteration also prints the calls it made ({@code [calls]}, from the broadcaster's counters): JMH's
 * {@code SampleTime} samples over-weight the slow calls here (docs/benchmarks.md), and the real cost per call
 * is the check.
 */
@State(Scope.Benchmark)
@BenchmarkMode({ Mode.AverageTime, Mode.SampleTime })
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = { "-Xms512m", "-Xmx512m" })
public class CallerPathBenchmark {

	@Param({ "instant", "stuck" })
	public String sink;

	private EventBroadcaster broadcaster;

	private EventRecorder recorder;

	private final CountDownLatch release = new CountDownLatch(1);

	private long iterationStart;

	private long callsBefore;

	private long acceptedBefore;

	private final V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("web-0").namespace("prod").uid("u1"));

	@Setup(Level.Trial)
	public void setUp() {
		this.broadcaster = EventBroadcaster.builder().build();
		if (!this.sink.equals("none")) {
			this.broadcaster.startRecordingToSink(new TestSink(this.sink.equals("stuck") ? this.release : null));
		}
		this.broadcaster.start();
		this.recorder = this.broadcaster.newRecorder(new EventSource("benchmark", "host"));
	}

	@Setup(Level.Iteration)
	public void startIteration() {
		this.callsBefore = calls();
		this.acceptedBefore = this.broadcaster.stats().accepted();
		this.iterationStart = System.nanoTime();
	}

	/**
	 * Prints the calls made in the iteration (every call is accepted or dropped at the incoming queue), so a
	 * {@code SampleTime} run shows the rate its samples come from.
	 */
	@TearDown(Level.Iteration)
	public void endIteration() {
		long elapsed = System.nanoTime() - this.iterationStart;
		long calls = calls() - this.callsBefore;
		long accepted = this.broadcaster.stats().accepted() - this.acceptedBefore;
		System.out.printf("%n[calls] %d calls in %d ms: %.0f ns per call; %d accepted (%.0f per second)%n", calls,
				elapsed / 1_000_000, (double) elapsed / Math.max(1, calls), accepted, accepted * 1e9 / elapsed);
	}

	private long calls() {
		RecorderStats stats = this.broadcaster.stats();
		long droppedDownstream = stats.subscribers().stream().mapToLong(RecorderStats.Subscriber::dropped).sum();
		return stats.accepted() + stats.dropped("queue_full") - droppedDownstream;
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.release.countDown();
		this.broadcaster.shutdown(Duration.ofSeconds(10));
	}

	@Benchmark
	@Threads(1)
	public void eventf() {
		this.recorder.eventf(this.pod, EventType.WARNING, "FailedCreate", "Error creating: %s", "quota exceeded");
	}

	/** A sink that answers at once, or blocks until released (a frozen server). */
	static final class TestSink implements EventSink {

		private final CountDownLatch block;

		TestSink(CountDownLatch block) {
			this.block = block;
		}

		@Override
		public CoreV1Event create(CoreV1Event event) {
			await();
			return event;
		}

		@Override
		public CoreV1Event patch(CoreV1Event event, EventSink.CountPatch patch) {
			await();
			return event;
		}

		private void await() {
			if (this.block != null) {
				try {
					this.block.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

}
