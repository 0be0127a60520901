package io.github.kubeevents;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** events.k8s.io/v1 limits as the API server counts them: UTF-8 bytes (Go's len), not characters. */
class EventsV1EventsTests {

	private static RecordedEvent note(String note) {
		return new RecordedEvent(TestEvents.object("Pod", "web-0", "shop"), null, EventType.NORMAL, "Started", null,
				note, Map.of(), new EventSource("example.com/ctl", "h"), Instant.parse("2026-12-06T03:00:00Z"));
	}

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

	/** An unpaired surrogate is sent as U+FFFD, 3 bytes: counted as such, never 1 byte ({@code ?}). */
	@Test
	void unpairedSurrogatesCountAsTheThreeBytesTheServerStores() {
		assertThat(EventsV1Events.of(event("\uD800".repeat(42), null, "h"), "m").problem()).isNull();
		assertThat(EventsV1Events.of(event("\uD800".repeat(43), null, "h"), "m").problem())
			.isEqualTo("action is 129 UTF-8 bytes, more than 128");
		assertThat(EventsV1Events.of(event("\uDC00".repeat(43), "Start", "h"), "m").problem())
			.isEqualTo("reason is 129 UTF-8 bytes, more than 128");
		assertThat(EventsV1Events.of(event("Started", null, "\uD800".repeat(40)), "m").event().getReportingInstance())
			.as("16 bytes of component and '-', then 37 of the 40 U+FFFD (111 bytes)")
			.isEqualTo("example.com/ctl-" + "\uFFFD".repeat(37));
	}

	@Test
	void aNoteOfUnpairedSurrogatesAtTheLimitFitsAndOneOverIsCut() {
		// a reversed pair, then lone high surrogates: 341 unpaired, 1023 bytes, and one ASCII byte
		RecordedEvent atLimit = note("\uDC00\uD800" + "\uD800".repeat(339) + "x");
		EventsV1Events.Result fits = EventsV1Events.of(atLimit, atLimit.message());
		assertThat(fits.truncated()).isFalse();
		assertThat(fits.event().getNote()).isEqualTo("\uFFFD".repeat(341) + "x");
		RecordedEvent over = note("\uD800".repeat(342));
		EventsV1Events.Result cut = EventsV1Events.of(over, over.message());
		assertThat(cut.truncated()).isTrue();
		// 1024 - 31 bytes of the marker = 993 = 331 U+FFFD
		assertThat(cut.event().getNote()).isEqualTo("\uFFFD".repeat(331) + EventsV1Events.TRUNCATION_MARKER);
		assertThat(cut.event().getNote().getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSize(1024);
	}

	@Test
	void aCutNoteKeepsOrLeavesOutASurrogatePairWhole() {
		// 992 ASCII bytes, then a pair that would end at byte 996 of the 993 the marker leaves
		String note = "x".repeat(992) + "\uD83D\uDE00".repeat(20);
		assertThat(EventsV1Events.truncate(note)).isEqualTo("x".repeat(992) + EventsV1Events.TRUNCATION_MARKER);
		String fitting = "x".repeat(989) + "\uD83D\uDE00".repeat(20);
		assertThat(EventsV1Events.truncate(fitting))
			.isEqualTo("x".repeat(989) + "\uD83D\uDE00" + EventsV1Events.TRUNCATION_MARKER);
	}

	@Test
	void theInstanceIsCutTo128BytesAtACharacterBoundary() {
		// "example.com/ctl-" is 16 bytes; 60 two-byte letters make 136
		String instance = EventsV1Events.of(event("Started", null, "ü".repeat(60)), "m").event().getReportingInstance();
		assertThat(WireText.utf8Length(instance)).isEqualTo(128);
		assertThat(instance).isEqualTo("example.com/ctl-" + "ü".repeat(56));
		String odd = EventsV1Events.of(event("Started", null, "x" + "ü".repeat(60)), "m").event().getReportingInstance();
		assertThat(odd).as("a letter that does not fit whole is left out").isEqualTo("example.com/ctl-x" + "ü".repeat(55));
	}

}
