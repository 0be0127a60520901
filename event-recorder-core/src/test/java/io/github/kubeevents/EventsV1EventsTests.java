package io.github.kubeevents;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** events.k8s.io/v1 limits as the API server counts them: UTF-8 bytes (Go's len), not characters. */
class EventsV1EventsTests {

	private static RecordedEvent event(String reason, String action, String host) {
		return new RecordedEvent(TestEvents.object("Pod", "web-0", "shop"), null, EventType.NORMAL, reason, action, "m",
				Map.of(), new EventSource("example.com/ctl", host), Instant.parse("2026-12-06T03:00:00Z"));
	}

	@Test
	void reasonAndActionAreLimitedTo128Bytes() {
		assertThat(EventsV1Events.of(event("П".repeat(64), null, "h"), "m").problem()).isNull();
		assertThat(EventsV1Events.of(event("П".repeat(65), null, "h"), "m").problem())
			.isEqualTo("action is 130 UTF-8 bytes, more than 128");
		assertThat(EventsV1Events.of(event("Started", "П".repeat(65), "h"), "m").problem())
			.isEqualTo("action is 130 UTF-8 bytes, more than 128");
		assertThat(EventsV1Events.of(event("П".repeat(65), "Start", "h"), "m").problem())
			.isEqualTo("reason is 130 UTF-8 bytes, more than 128");
	}

	@Test
	void theInstanceIsCutTo128BytesAtACharacterBoundary() {
		// "example.com/ctl-" is 16 bytes; 60 two-byte letters make 136
		String instance = EventsV1Events.of(event("Started", null, "ü".repeat(60)), "m").event().getReportingInstance();
		assertThat(EventSpec.utf8Length(instance)).isEqualTo(128);
		assertThat(instance).isEqualTo("example.com/ctl-" + "ü".repeat(56));
		String odd = EventsV1Events.of(event("Started", null, "x" + "ü".repeat(60)), "m").event().getReportingInstance();
		assertThat(odd).as("a letter that does not fit whole is left out").isEqualTo("example.com/ctl-x" + "ü".repeat(55));
	}

}
