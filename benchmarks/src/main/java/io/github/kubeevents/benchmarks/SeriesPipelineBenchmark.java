package io.github.kubeevents.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.ObjectRecorder;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.models.EventsV1Event;
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
 * Events per second through the events.k8s.io/v1 path: recorder → broadcaster → the sink subscriber's validation,
 * isomorphic key and series cache → an in-memory sink. {@code repeated}: one event again and again (after the
 * CREATE and the series PATCH, no request: only the cache counts); {@code distinct}: a new object each time (a
 * CREATE each, and the bounded cache evicting). Each invocation records 1000 events and then a marker about a
 * fresh object, and waits for the marker's CREATE: the sink subscriber handles events in order, so by then all
 * 1000 went through the series cache.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SeriesPipelineBenchmark {

	private static final int BATCH = 1000;

	@Param({ "repeated", "distinct" })
	public String workload;

	private EventBroadcaster broadcaster;

	private EventRecorder recorder;

	private ObjectRecorder repeated;

	private final AtomicLong creates = new AtomicLong();

	private long batches;

	@Setup(Level.Trial)
	public void setUp() {
		this.broadcaster = EventBroadcaster.builder().build();
		this.broadcaster.startRecordingToSink(new CountingSink(this.creates));
		this.broadcaster.start();
		this.recorder = this.broadcaster.newRecorder(new EventSource("benchmark", "host"));
		this.repeated = this.recorder.about(InvolvedObject.of("Pod", "v1", "ns", "web-0")).action("Pulling");
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		this.broadcaster.shutdown(Duration.ofSeconds(10));
	}

	@Benchmark
	@OperationsPerInvocation(BATCH)
	public void record() {
		long batch = this.batches++;
		// a dropped event (e.g. queue_full when the batch outruns the distributor) must not leave the loop spinning
		long target = handled() + 1 + (this.workload.equals("distinct") ? BATCH : 0);
		for (int i = 0; i < BATCH; i++) {
			if (this.workload.equals("distinct")) {
				this.recorder.about(InvolvedObject.of("Pod", "v1", "ns", "pod-" + batch + "-" + i))
					.normal("Started", "Started container");
			}
			else {
				this.repeated.warning("BackOff", "Back-off restarting failed container");
			}
		}
		this.recorder.about(InvolvedObject.of("Pod", "v1", "ns", "marker-" + batch)).normal("Marker", "marker");
		while (handled() < target) {
			Thread.onSpinWait();
		}
	}

	/** CREATEs plus drops of any reason but the spam filter (off here). */
	private long handled() {
		return this.creates.get() + this.broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())
				+ this.broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag());
	}

	/** Answers at once and counts CREATEs. */
	static final class CountingSink implements EventsV1Sink {

		private final AtomicLong creates;

		CountingSink(AtomicLong creates) {
			this.creates = creates;
		}

		@Override
		public EventsV1Event create(EventsV1Event event) {
			this.creates.incrementAndGet();
			return event;
		}

		@Override
		public EventsV1Event patch(EventsV1Event event, EventsV1Sink.SeriesPatch patch) {
			return event;
		}

	}

}
