package io.github.kubeevents.benchmarks;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
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
 * every event is dropped downstream; the caller's path must stay as cheap. The source compiles against the API
 * before and after the 1.0 shape (2dc60cb and later), so both can be measured with the same settings.
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

	private final V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("web-0").namespace("prod").uid("u1"));

	@Setup(Level.Trial)
	public void setUp() {
		this.broadcaster = EventBroadcaster.builder().build();
		this.broadcaster.startRecordingToSink(new TestSink(this.sink.equals("stuck") ? this.release : null));
		this.broadcaster.start();
		this.recorder = this.broadcaster.newRecorder(new EventSource("benchmark", "host"));
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
