package io.github.kubeevents.metrics;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import io.github.kubeevents.CorrelatorOptions;
import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsMeterBinder}.
 */
class KubeEventsMeterBinderTests {

	private final InMemoryEventSink sink = new InMemoryEventSink(3);

	private final EventBroadcaster broadcaster = EventBroadcaster.builder()
		.incomingQueueCapacity(5)
		.retryPolicy(new RetryPolicy(2, Duration.ZERO))
		.correlatorOptions(CorrelatorOptions.builder().burst(2).build())
		.build();

	private final MeterRegistry registry = new SimpleMeterRegistry();

	@AfterEach
	void shutdown() {
		this.broadcaster.shutdown(Duration.ofSeconds(5));
	}

	private double counter(String name, String... tags) {
		return this.registry.get(name).tags(tags).functionCounter().count();
	}

	private double gauge(String name, String... tags) {
		return this.registry.get(name).tags(tags).gauge().value();
	}

	private void bindAndStart() {
		new KubeEventsMeterBinder(this.broadcaster, List.of("sink", "logging")).bindTo(this.registry);
		this.broadcaster.startRecordingToSink(this.sink);
		this.broadcaster.startLogging();
		this.broadcaster.start();
	}

	@Test
	void registersEveryMeterWithItsUnitAndDescription() {
		bindAndStart();
		assertThat(this.registry.getMeters()).extracting((meter) -> meter.getId().getName())
			.containsOnly("kubeevents.accepted", "kubeevents.dropped", "kubeevents.written", "kubeevents.sink.retries",
					"kubeevents.truncated", "kubeevents.unformatted", "kubeevents.queue.depth",
					"kubeevents.queue.capacity", "kubeevents.written.without.patch", "kubeevents.server.throttled");
		assertThat(this.registry.find("kubeevents.server.throttled").functionCounters())
			.extracting((counter) -> counter.getId().getTag("source"))
			.containsExactlyInAnyOrder("api_priority_and_fairness", "event_rate_limit");
		assertThat(this.registry.find("kubeevents.dropped").functionCounters())
			.extracting((counter) -> counter.getId().getTag("reason"))
			.containsExactlyInAnyOrder(Arrays.stream(DropReason.values()).map(DropReason::tag).toArray(String[]::new));
		assertThat(this.registry.find("kubeevents.written").functionCounters())
			.extracting((counter) -> counter.getId().getTag("result"))
			.containsExactlyInAnyOrder("created", "patched");
		assertThat(this.registry.find("kubeevents.queue.depth").gauges())
			.extracting((gauge) -> gauge.getId().getTag("queue"))
			.containsExactlyInAnyOrder("incoming", "sink", "logging");
		for (Meter meter : this.registry.getMeters()) {
			assertThat(meter.getId().getDescription()).as(meter.getId().getName()).isNotBlank();
			assertThat(meter.getId().getBaseUnit()).as(meter.getId().getName())
				.isEqualTo(List.of("kubeevents.sink.retries", "kubeevents.server.throttled")
					.contains(meter.getId().getName()) ? null : "events");
		}
	}

	@Test
	void startsAtZero() {
		bindAndStart();
		assertThat(counter("kubeevents.accepted")).isZero();
		for (DropReason reason : DropReason.values()) {
			assertThat(counter("kubeevents.dropped", "reason", reason.tag())).isZero();
		}
		assertThat(counter("kubeevents.written", "result", "created")).isZero();
		assertThat(counter("kubeevents.written", "result", "patched")).isZero();
		assertThat(counter("kubeevents.unformatted")).isZero();
		assertThat(counter("kubeevents.sink.retries")).isZero();
		assertThat(gauge("kubeevents.queue.depth", "queue", "incoming")).isZero();
		assertThat(gauge("kubeevents.queue.capacity", "queue", "incoming")).isEqualTo(5.0);
		// the sink's writer threads' queues (it has no subscriber queue: it runs on the distribution thread)
		assertThat(gauge("kubeevents.queue.capacity", "queue", "sink")).isEqualTo(20_000.0);
		assertThat(gauge("kubeevents.queue.capacity", "queue", "logging")).isEqualTo(10_000.0);
	}

	@Test
	void countsAcceptedWrittenRetriedAndDropped() {
		bindAndStart();
		EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("test"));
		// 3 transport failures: both attempts of the first event, then the first of the second (created on the
		// retry); the third event is patched, the fourth finds web-2's bucket (burst 2) empty
		recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "fails twice");
		recorder.event(TestClusters.pod("web-2"), EventType.NORMAL, "Started", "fails once, then created");
		recorder.event(TestClusters.pod("web-2"), EventType.NORMAL, "Started", "fails once, then created");
		recorder.event(TestClusters.pod("web-2"), EventType.NORMAL, "Started", "fails once, then created");
		recorder.event(TestClusters.pod("web-2"), EventType.NORMAL, "", "invalid");
		await().until(() -> counter("kubeevents.dropped", "reason", "spam_filtered") == 1.0);
		await().until(() -> counter("kubeevents.written", "result", "patched") == 1.0);
		assertThat(counter("kubeevents.accepted")).isEqualTo(4.0);
		assertThat(counter("kubeevents.written", "result", "created")).isEqualTo(1.0);
		assertThat(counter("kubeevents.sink.retries")).isEqualTo(2.0);
		assertThat(counter("kubeevents.dropped", "reason", "retries_exhausted")).isEqualTo(1.0);
		assertThat(counter("kubeevents.dropped", "reason", "invalid_input")).isEqualTo(1.0);
	}

	@Test
	void subscriberThatIsNotRunningReadsZero() {
		new KubeEventsMeterBinder(this.broadcaster, List.of("sink")).bindTo(this.registry);
		assertThat(gauge("kubeevents.queue.depth", "queue", "sink")).isZero();
		assertThat(gauge("kubeevents.queue.capacity", "queue", "sink")).isZero();
	}

}
