package io.github.kubeevents;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** A recorded event's text is what the API server stores: unpaired surrogates are U+FFFD from the start. */
class RecordedEventTests {

	private static final InvolvedObject POD = TestEvents.object("Pod", "web-0", "shop");

	@Test
	void unpairedSurrogatesInTheTextBecomeUFFFD() {
		Map<String, String> annotations = new LinkedHashMap<>();
		annotations.put("example.com/plain", "v");
		annotations.put("example.com/lone", "v\uDC00\uD800");
		RecordedEvent event = new RecordedEvent(POD, null, EventType.WARNING, "Full\uD800", "Check\uDC00",
				"disk \uD800 full \uD83D\uDE00", annotations, new EventSource("ctl\uD800", "node\uDC00"),
				TestEvents.TIME);
		assertThat(event.reason()).isEqualTo("Full\uFFFD");
		assertThat(event.action()).isEqualTo("Check\uFFFD");
		assertThat(event.message()).isEqualTo("disk \uFFFD full \uD83D\uDE00");
		assertThat(event.annotations())
			.isEqualTo(Map.of("example.com/plain", "v", "example.com/lone", "v\uFFFD\uFFFD"));
		assertThat(event.source()).isEqualTo(new EventSource("ctl\uFFFD", "node\uFFFD"));
	}

	@Test
	void wellFormedTextIsKeptAsItIs() {
		String reason = "BackOff";
		String message = "Back-off restarting failed container \uD83D\uDE00";
		RecordedEvent event = new RecordedEvent(POD, null, EventType.WARNING, reason, null, message,
				Map.of("example.com/k", "v"), TestEvents.SOURCE, TestEvents.TIME);
		assertThat(event.reason()).isSameAs(reason);
		assertThat(event.message()).isSameAs(message);
		assertThat(event.action()).isNull();
	}

	@Test
	void theRecordersMessageLimitCountsAnUnpairedSurrogateAsThreeBytes() {
		EventSpec spec = EventSpec.of(POD, EventType.NORMAL, "R", "\uD800".repeat(4));
		assertThat(spec.toRecordedEvent(TestEvents.SOURCE, TestEvents.TIME, 12).message()).isEqualTo("\uFFFD".repeat(4));
		assertThatIllegalArgumentException().isThrownBy(() -> spec.toRecordedEvent(TestEvents.SOURCE, TestEvents.TIME, 11))
			.withMessage("message is 12 UTF-8 bytes, more than the limit of 11");
	}

}
