package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The optional write budget: a token bucket of client-go clientset's shape (qps, burst) in front of every sink
 * request, on the injected clock.
 */
class WriteBudgetTests {

	private final TickingClock clock = TickingClock.fixed(Instant.parse("2026-11-30T12:00:00Z"));

	@Test
	void burstIsFreeThenEachRequestWaitsOneOverQps() {
		TokenBucket budget = new TokenBucket(10, 5, this.clock.instant());
		for (int i = 0; i < 10; i++) {
			assertThat(budget.reserve(this.clock.instant())).isZero();
		}
		assertThat(budget.reserve(this.clock.instant())).isEqualTo(Duration.ofMillis(200));
		assertThat(budget.reserve(this.clock.instant())).isEqualTo(Duration.ofMillis(400));
		this.clock.advance(Duration.ofMillis(400));
		// the two reservations are paid; the next waits one more interval
		assertThat(budget.reserve(this.clock.instant())).isEqualTo(Duration.ofMillis(200));
		assertThat(budget.throttledCount()).isEqualTo(3);
		assertThat(budget.totalWait()).isEqualTo(Duration.ofMillis(800));
	}

	@Test
	void refillsUpToTheBurstOnly() {
		TokenBucket budget = new TokenBucket(2, 5, this.clock.instant());
		budget.reserve(this.clock.instant());
		budget.reserve(this.clock.instant());
		this.clock.advance(Duration.ofMinutes(10));
		assertThat(budget.reserve(this.clock.instant())).isZero();
		assertThat(budget.reserve(this.clock.instant())).isZero();
		assertThat(budget.reserve(this.clock.instant())).isEqualTo(Duration.ofMillis(200));
	}

	@Test
	void sinkRequestsWaitForTheBudgetAndTheWaitsAreVisible() {
		List<Duration> sleeps = new CopyOnWriteArrayList<>();
		EventBroadcaster broadcaster = EventBroadcaster.builder()
			.clock(this.clock)
			.sleeper((duration) -> {
				sleeps.add(duration);
				this.clock.advance(duration);
			})
			.writeBudget(2, 3)
			// one writer: each wait is taken, and the clock advanced, before the next request reserves its token
			.sinkWriters(1)
			.build();
		List<String> written = new CopyOnWriteArrayList<>();
		broadcaster.startRecordingToSink(new EventSink() {

			@Override
			public CoreV1Event create(CoreV1Event event) {
				written.add(event.getReason());
				return event;
			}

			@Override
			public CoreV1Event patch(CoreV1Event event, EventSink.CountPatch patch) {
				written.add(event.getReason());
				return event;
			}

		});
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("budget"));
		for (int i = 0; i < 6; i++) {
			recorder.event(InvolvedObject.of("Pod", "v1", "ns", "pod-" + i), EventType.NORMAL, "R" + i, "m");
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> written.size() == 6);
		assertThat(sleeps).containsExactly(Duration.ofMillis(500), Duration.ofMillis(500), Duration.ofMillis(500));
		RecorderStats.WriteBudget snapshot = broadcaster.snapshot(0).writeBudget();
		assertThat(snapshot).isEqualTo(new RecorderStats.WriteBudget(2, 3, 3, Duration.ofMillis(1500)));
		broadcaster.shutdown(Duration.ofSeconds(5));
	}

}
