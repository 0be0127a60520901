package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 18 item 2: a 429 with Retry-After (API Priority and Fairness) and one without (the EventRateLimit admission
 * plugin) are counted apart, and both are retried on the retry policy (client-go drops the one without). A stub
 * server answers here; {@code EventRateLimitIT} in the starter shows the plugin's real answers.
 */
class ServerThrottleTests {

	private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

	private final TickingClock clock = TickingClock.fixed(Instant.parse("2026-12-02T12:00:00Z"));

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	private StubApiServer server;

	private Sink<CoreV1Event, EventSink.CountPatch> sink;

	@BeforeEach
	void start() throws Exception {
		this.server = new StubApiServer();
		this.sink = EventsClient.of(this.server.client()).coreV1Sink(Duration.ofSeconds(5));
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	private WriteAttempts.State write(RetryPolicy policy) {
		SinkRun<CoreV1Event, EventSink.CountPatch> run = new SinkRun<>("test", EventsApi.CORE_V1, this.sink, "",
				TestSinks.settings(policy, this.sleeps::add, (api, verb, result, duration) -> {
				}, this.clock), this.counters, new SinkWritersTests.NoTarget());
		run.start();
		RecordedEvent recorded = TestEvents.recorded("R", "m", TestEvents.object("Pod", "p", "ns"));
		return run.attempts()
			.write(recorded, recorded, 1,
					(write, context) -> run.requests().create(context, CoreV1Events.of(write)))
			.state();
	}

	@Test
	void a429WithoutRetryAfterIsCountedAsEventRateLimitAndRetriedOnThePolicy() {
		this.server.answer(new StubApiServer.Answer(429, null), new StubApiServer.Answer(429, null));
		assertThat(write(new RetryPolicy(3, Duration.ofSeconds(10)))).isEqualTo(WriteAttempts.State.WRITTEN);
		assertThat(this.server.requests()).hasSize(3);
		// jitter 0.5: the first retry waits half the sleep, the second the whole
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(10));
		assertThat(this.counters.throttledBySource()).containsExactly(java.util.Map.entry("api_priority_and_fairness", 0L),
				java.util.Map.entry("event_rate_limit", 2L));
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void a429WithRetryAfterIsCountedAsPriorityAndFairnessAndRepeatedAfterTheWait() {
		this.server.answer(new StubApiServer.Answer(429, "2"));
		assertThat(write(RetryPolicy.defaults())).isEqualTo(WriteAttempts.State.WRITTEN);
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(2));
		assertThat(this.counters.throttledBySource()).containsExactly(java.util.Map.entry("api_priority_and_fairness", 1L),
				java.util.Map.entry("event_rate_limit", 0L));
	}

	@Test
	void a429ThatOutlastsTheRetryBudgetIsRetriesExhaustedNotRejected() {
		this.server.answer(new StubApiServer.Answer(429, null), new StubApiServer.Answer(429, null));
		assertThat(write(new RetryPolicy(2, Duration.ofSeconds(1)))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.counters.dropped(DropReason.RETRIES_EXHAUSTED)).isEqualTo(1);
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isZero();
		assertThat(this.counters.throttledBySource().get("event_rate_limit")).isEqualTo(2);
	}

}
