package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import ch.qos.logback.classic.Level;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The recorder's clock against the creation timestamp the API server stamps while a create is in flight. */
class ClockSkewTests {

	private static final Instant SENT = Instant.parse("2026-12-06T03:00:10.400Z");

	private final ClockSkew skew = new ClockSkew();

	private static CoreV1Event createdAt(String serverTime) {
		return new CoreV1Event().metadata(new V1ObjectMeta().creationTimestamp(OffsetDateTime.parse(serverTime)));
	}

	@Test
	void clocksThatAgreeWithinTheRequestAndTheWholeSecondShowNoSkew() {
		LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO);
		Instant answered = SENT.plusMillis(30);
		assertThat(this.skew.observe(SENT, answered, createdAt("2026-12-06T03:00:10Z"))).isEqualTo(Duration.ZERO);
		assertThat(this.skew.observe(SENT, answered, createdAt("2026-12-06T03:00:09Z")))
			.as("the server's second ended 0.4 s before sending: 0.4 s certain, within the threshold")
			.isEqualTo(Duration.ofMillis(400));
		log.close();
		assertThat(log.lines()).isEmpty();
	}

	@Test
	void aSkewBeyondTheRequestIsMeasuredAsItsCertainPart() {
		Instant answered = SENT.plusMillis(30);
		assertThat(this.skew.observe(SENT, answered, createdAt("2026-12-06T03:00:05Z")))
			.as("ahead: sent 10.4, server at most 06.0")
			.isEqualTo(Duration.ofMillis(4400));
		assertThat(this.skew.observe(SENT, answered, createdAt("2026-12-06T03:00:14Z")))
			.as("behind: answered 10.43, server at least 14.0")
			.isEqualTo(Duration.ofMillis(-3570));
		assertThat(this.skew.observe(SENT, answered,
				new EventsV1Event().metadata(new V1ObjectMeta().creationTimestamp(
						OffsetDateTime.of(2026, 12, 6, 3, 0, 0, 0, ZoneOffset.UTC)))))
			.as("events.k8s.io/v1 answers too")
			.isEqualTo(Duration.ofMillis(9400));
	}

	@Test
	void anAnswerWithoutACreationTimestampSaysNothing() {
		assertThat(this.skew.observe(SENT, SENT, new CoreV1Event())).isNull();
		assertThat(this.skew.observe(SENT, SENT, "not an object")).isNull();
		assertThat(this.skew.observe(SENT, SENT, null)).isNull();
	}

	@Test
	void aSkewIsWarnedOnceUntilTheClocksAgreeAgain() {
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			Instant answered = SENT.plusMillis(30);
			this.skew.observe(SENT, answered, createdAt("2026-12-06T03:00:05Z"));
			this.skew.observe(SENT, answered, createdAt("2026-12-06T03:00:04Z"));
			this.skew.observe(SENT, answered, createdAt("2026-12-06T03:00:10Z"));
			this.skew.observe(SENT, answered, createdAt("2026-12-06T03:00:20Z"));
			assertThat(log.warnings()).hasSize(2);
			DocOutputs.check("docs/observability.md", "clock-skew-line", log.warnings().get(0));
			assertThat(log.warnings().get(0)).startsWith("The recorder's clock is at least 4400 ms ahead of the API server's")
				.contains("kubernetes-event-exporter drops Events more than 5 s old");
			assertThat(log.warnings().get(1)).startsWith("The recorder's clock is at least 9570 ms behind the API server's");
			assertThat(log.messages(Level.INFO))
				.containsExactly("The recorder's clock agrees with the API server's again (within 1 s)");
		}
	}

	/** A true skew of 2.5 s measures 1.5–2.5 s by the sub-second phase: one WARN, no INFO until below 1 s. */
	@Test
	void aSkewNearTheThresholdDoesNotFlap() {
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			for (int i = 0; i < 10; i++) {
				Instant sent = Instant.parse("2026-12-06T03:00:12.000Z").plusMillis(100 * i);
				this.skew.observe(sent, sent, createdAt("2026-12-06T03:00:09Z"));
				this.skew.observe(sent.plusMillis(800), sent.plusMillis(800), createdAt("2026-12-06T03:00:10Z"));
			}
			assertThat(log.warnings()).hasSize(1);
			assertThat(log.messages(Level.INFO)).isEmpty();
			this.skew.observe(SENT, SENT, createdAt("2026-12-06T03:00:10Z"));
			assertThat(log.messages(Level.INFO))
				.containsExactly("The recorder's clock agrees with the API server's again (within 1 s)");
		}
	}

	@Test
	void twoSecondsAreWithinTheThreshold() {
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			Instant sent = Instant.parse("2026-12-06T03:00:13.000Z");
			assertThat(this.skew.observe(sent, sent, createdAt("2026-12-06T03:00:10Z"))).isEqualTo(Duration.ofSeconds(2));
			assertThat(log.warnings()).isEmpty();
		}
	}

}
