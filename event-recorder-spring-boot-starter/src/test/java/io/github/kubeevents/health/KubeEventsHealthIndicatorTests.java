package io.github.kubeevents.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.status.SinkMode;
import io.github.kubeevents.autoconfigure.TestStatuses;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsHealthIndicator}.
 */
class KubeEventsHealthIndicatorTests {

	private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

	private final InMemoryEventSink sink = new InMemoryEventSink();

	private final EventBroadcaster broadcaster = EventBroadcaster.builder()
		.clock(Clock.fixed(NOW, ZoneOffset.UTC))
		.build();

	private final KubeEventsHealthIndicator indicator = new KubeEventsHealthIndicator(this.broadcaster,
			TestStatuses.writing(SinkMode.AUTO, this.sink, "EventSink bean", null, false));

	@AfterEach
	void shutdown() {
		this.broadcaster.shutdown(Duration.ofSeconds(5));
	}

	private void start() {
		this.broadcaster.startRecordingToSink(this.sink);
		this.broadcaster.start();
	}

	private void recordBackOff() {
		this.broadcaster.newRecorder(EventSource.of("test"))
			.event(TestClusters.pod("web-1"), EventType.WARNING, "BackOff", "Back-off restarting failed container");
	}

	@Test
	void unknownBeforeStart() {
		Health health = this.indicator.health();
		assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
		assertThat(health.getDetails()).isEqualTo(Map.of("state", "not started", "sink", "kubernetes", "queueDepth", 0,
				"queueCapacity", 10000, "accepted", 0L, "dropped", 0L, "failedInARow", 0L, "rejectedInARow", 0L));
	}

	@Test
	void upWhileRunning() {
		start();
		recordBackOff();
		await().until(() -> this.sink.created().size() == 1);
		Health health = this.indicator.health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).isEqualTo(Map.of("sink", "kubernetes", "api", "core/v1", "apiReason",
				"configured", "queueDepth", 0, "queueCapacity", 10000, "accepted", 1L, "dropped", 0L, "failedInARow",
				0L, "rejectedInARow", 0L, "lastWritten", this.broadcaster.stats().lastWritten()));
		assertThat(this.broadcaster.stats().lastWritten()).isNotNull();
	}

	@Test
	void deterministicNamesShowTheNamingAndAFallbackWithItsReasonWithoutChangingTheStatus() {
		EventBroadcaster deterministic = EventBroadcaster.builder()
			.clock(Clock.fixed(NOW, ZoneOffset.UTC))
			.deterministicNames(true)
			.build();
		try {
			KubeEventsHealthIndicator indicator = new KubeEventsHealthIndicator(deterministic,
					TestStatuses.writing(SinkMode.AUTO, this.sink, "EventSink bean", null, false));
			assertThat(indicator.health().getDetails()).containsEntry("naming", "deterministic")
				.containsEntry("namingFallbacks", 0L)
				.doesNotContainKey("namingFallbackReason");
			// the in-memory sink cannot read Events: that sink keeps client-go's names
			deterministic.startRecordingToSink(this.sink);
			deterministic.start();
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("naming", "client-go-fallback")
				.containsEntry("namingFallbacks", 1L)
				.containsEntry("namingFallbackReason", "the sink cannot read Events (its supportsGet() is false)");
		}
		finally {
			deterministic.shutdown(Duration.ofSeconds(5));
		}
	}

	@Test
	void unknownWhileStoppedAndUpAgainAfterARestart() {
		start();
		this.broadcaster.stop(Duration.ofSeconds(5));
		Health stopped = this.indicator.health();
		assertThat(stopped.getStatus()).isEqualTo(Status.UNKNOWN);
		assertThat(stopped.getDetails()).containsEntry("state", "stopped");
		this.broadcaster.start();
		assertThat(this.indicator.health().getStatus()).isEqualTo(Status.UP);
	}

	@Test
	void downAfterShutdown() {
		start();
		this.broadcaster.shutdown(Duration.ofSeconds(5));
		Health health = this.indicator.health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("state", "shut down");
	}

	@Test
	void dropsDoNotMakeItDown() {
		start();
		this.broadcaster.newRecorder(EventSource.of("test")).event(TestClusters.pod("web-1"), EventType.NORMAL, "", "");
		Health health = this.indicator.health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("dropped", 1L).doesNotContainKey("lastRejection");
	}

	@Test
	void degradedWhenEveryWriteIsRefusedWithTheRejectionInTheDetails() {
		this.sink.failNext(EventSinkException.status(403, "Forbidden", "events is forbidden: User \"system:serviceaccount:"
				+ "shop:web\" cannot create resource \"events\" in API group \"\" in the namespace \"default\""));
		start();
		recordBackOff();
		await().until(() -> this.indicator.health().getDetails().containsKey("lastRejection"));
		Health health = this.indicator.health();
		assertThat(health.getStatus()).isEqualTo(KubeEventsHealthIndicator.DEGRADED);
		assertThat(health.getStatus().getCode()).isEqualTo("DEGRADED");
		assertThat(health.getDetails()).containsEntry("dropped", 1L)
			.containsEntry("rejectedInARow", 1L)
			.containsEntry("lastRejection", new RecorderStats.Rejection(NOW,
					"object=\"default/web-1\" kind=\"Pod\" type=\"Warning\" reason=\"BackOff\"",
					"Server rejected event (will not retry!): events is forbidden: User \"system:serviceaccount:shop:web\""
							+ " cannot create resource \"events\" in API group \"\" in the namespace \"default\""));
		// the next written event makes it UP again; the last rejection stays visible
		this.broadcaster.newRecorder(EventSource.of("test"))
			.event(TestClusters.pod("web-2"), EventType.WARNING, "BackOff", "Back-off restarting failed container");
		await().until(() -> this.sink.created().size() == 1);
		assertThat(this.indicator.health().getStatus()).isEqualTo(Status.UP);
	}

	@Test
	void oneRefusalAmongWrittenEventsIsUpThreeInARowAreDegraded() {
		start();
		recordBackOff();
		await().until(() -> this.sink.created().size() == 1);
		EventSinkException invalid = EventSinkException.status(422, "Invalid", "bad");
		for (int i = 1; i <= 3; i++) {
			this.sink.failNext(invalid);
			this.broadcaster.newRecorder(EventSource.of("test"))
				.event(TestClusters.pod("web-" + (i + 1)), EventType.WARNING, "BackOff", "m");
			long refused = i;
			await().until(() -> this.broadcaster.stats().rejectedInARow() == refused);
			assertThat(this.indicator.health().getStatus()).as("after %d refusals", i)
				.isEqualTo((i < 3) ? Status.UP : KubeEventsHealthIndicator.DEGRADED);
		}
	}

	/** Another's Event under the name (client-go refuses it too): dropped, expected, no failure of the recorder. */
	@Test
	void anAlreadyExistsIsAnExpectedRefusal() {
		this.sink.failNext(EventSinkException.status(409, "AlreadyExists", "events \"web-1.1886caf21c963200\" already exists"));
		start();
		recordBackOff();
		await().until(() -> this.broadcaster.stats().dropped().get("rejected_by_server") == 1L);
		Health health = this.indicator.health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("dropped", 1L)
			.containsEntry("failedInARow", 0L)
			.containsEntry("rejectedInARow", 0L)
			.doesNotContainKey("lastFailure");
	}

}
