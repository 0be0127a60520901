package io.github.kubeevents.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.kubeevents.CorrelatorOptions;
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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * End-to-end events per second through recorder → broadcaster → sink subscriber (correlator + an in-memory sink
 * that answers instantly), in batches of 1000 (the queue capacity), so nothing is dropped: each invocation
 * records 1000 events and waits until the sink has written all of them.
 *
 * <p>{@code distinct}: every event about a different object (a create each); {@code repeated}: the same event
 * again and again (a patch each; spam filter off so every one is written).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PipelineBenchmark {

	private static final int BATCH = 1000;

	@Param({ "distinct", "repeated" })
	public String workload;

	private EventBroadcaster broadcaster;

	private EventRecorder recorder;

	private final AtomicLong written = new AtomicLong();

	private V1Pod[] pods;

	private long batches;

	@Setup(Level.Trial)
	public void setUp() {
		this.broadcaster = EventBroadcaster.builder()
			.correlatorOptions(CorrelatorOptions.builder().spamFilterEnabled(false).build())
			.build();
		this.broadcaster.startRecordingToSink(new InstantSink(this.written));
		this.broadcaster.start();
		this.recorder = this.broadcaster.newRecorder(new EventSource("benchmark", "host"));
		this.pods = new V1Pod[BATCH];
		for (int i = 0; i < BATCH; i++) {
			this.pods[i] = new V1Pod().metadata(new V1ObjectMeta().name("pod-" + i).namespace("ns").uid("uid-" + i));
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.broadcaster.shutdown(Duration.ofSeconds(10));
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public void recordAndWrite() {
		long target = this.written.get() + BATCH;
		boolean distinct = this.workload.equals("distinct");
		long batch = this.batches++;
		for (int i = 0; i < BATCH; i++) {
			if (distinct) {
				this.recorder.event(this.pods[i], EventType.NORMAL, "Reason" + batch, "message");
			}
			else {
				this.recorder.event(this.pods[0], EventType.NORMAL, "Repeated", "same message");
			}
		}
		while (this.written.get() < target) {
			Thread.onSpinWait();
		}
	}

	/** A sink that answers at once, like a server with zero latency. */
	static final class InstantSink implements EventSink {

		private final AtomicLong written;

		InstantSink(AtomicLong written) {
			this.written = written;
		}

		@Override
		public CoreV1Event create(CoreV1Event event) {
			this.written.incrementAndGet();
			return event;
		}

		@Override
		public CoreV1Event patch(CoreV1Event event, EventSink.CountPatch patch) {
			this.written.incrementAndGet();
			return event;
		}

	}

}
