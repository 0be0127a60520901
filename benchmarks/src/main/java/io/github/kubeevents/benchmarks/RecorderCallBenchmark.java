package io.github.kubeevents.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.Subscription;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a call to {@code EventRecorder.eventf} costs the caller's thread: validation, reference, name, format and
 * a non-blocking enqueue. The broadcaster is not started, so the queue fills and further calls take the
 * counted-drop path: {@code whenQueueFull} measures that path, the one taken during an event storm.
 * {@code whenAccepted} uses an effectively unbounded queue that is cleared between iterations.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RecorderCallBenchmark {

	private EventBroadcaster full;

	private EventRecorder fullRecorder;

	private EventBroadcaster large;

	private EventRecorder largeRecorder;

	private final V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("web-0").namespace("prod").uid("u1"));

	@Setup(org.openjdk.jmh.annotations.Level.Iteration)
	public void setUp() {
		this.full = EventBroadcaster.builder().incomingQueueCapacity(1).build();
		this.fullRecorder = this.full.newRecorder(new EventSource("benchmark", "host"));
		this.fullRecorder.event(this.pod, EventType.NORMAL, "Fill", "fill");
		this.large = EventBroadcaster.builder().incomingQueueCapacity(Subscription.Options.MAX_QUEUE_CAPACITY).build();
		this.largeRecorder = this.large.newRecorder(new EventSource("benchmark", "host"));
	}

	@TearDown(org.openjdk.jmh.annotations.Level.Iteration)
	public void tearDown() {
		this.full.shutdown(Duration.ofSeconds(10));
		this.large.shutdown(Duration.ofSeconds(30));
	}

	@Benchmark
	@Threads(1)
	public void whenAccepted() {
		this.largeRecorder.eventf(this.pod, EventType.WARNING, "FailedCreate", "Error creating: %s", "quota exceeded");
	}

	@Benchmark
	@Threads(1)
	public void whenQueueFull() {
		this.fullRecorder.eventf(this.pod, EventType.WARNING, "FailedCreate", "Error creating: %s", "quota exceeded");
	}

}
