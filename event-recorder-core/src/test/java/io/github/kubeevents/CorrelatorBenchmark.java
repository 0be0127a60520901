package io.github.kubeevents;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one {@link EventCorrelator#correlate} (aggregate → observe → spam filter) on the sink thread, over a
 * working set of {@code objects} distinct objects (4096 = one full LRU).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CorrelatorBenchmark {

	@Param({ "1", "4096", "20000" })
	public int objects;

	private EventCorrelator correlator;

	private CoreV1Event[] events;

	private int next;

	@Setup
	public void setUp() {
		this.correlator = new EventCorrelator(CorrelatorOptions.builder().spamFilterEnabled(false).build());
		this.events = new CoreV1Event[this.objects];
		Instant now = Instant.now();
		for (int i = 0; i < this.objects; i++) {
			V1ObjectReference ref = new V1ObjectReference().kind("Pod").apiVersion("v1").namespace("ns").name("pod-" + i).uid("u" + i);
			this.events[i] = new CoreV1Event().metadata(new V1ObjectMeta().name(EventNames.generate("pod-" + i, now)).namespace("ns"))
				.involvedObject(ref)
				.reason("BackOff")
				.message("Back-off restarting failed container")
				.type("Warning")
				.count(1)
				.firstTimestamp(CoreV1Events.timestamp(now))
				.lastTimestamp(CoreV1Events.timestamp(now))
				.source(new V1EventSource().component("benchmark").host("host"));
		}
	}

	@Benchmark
	public CorrelationResult correlate() {
		CoreV1Event event = this.events[this.next];
		this.next = (this.next + 1 == this.events.length) ? 0 : this.next + 1;
		CorrelationResult result = this.correlator.correlate(event);
		this.correlator.updateState(result.event());
		return result;
	}

}
