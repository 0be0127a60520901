package io.github.kubeevents;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.function.Consumer;

import ch.qos.logback.classic.Level;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The readers' shape of core/v1 creates: {@code eventTime} and {@code action} only where the API server's
 * validation of Events with an {@code eventTime} passes (spec §6.2 case B), a series for a count above 1.
 */
class ReadersShapeTests {

	private static final Instant OCCURRED = Instant.parse("2026-11-30T12:00:07.123456789Z");

	private static CoreV1Event single() {
		CoreV1Event event = TestEvents.event("Started", "Started container", TestEvents.ref("Pod", "p", "ns"));
		event.setReportingComponent("kubelet");
		event.setReportingInstance("node1");
		return event;
	}

	private static CoreV1Event with(Consumer<CoreV1Event> change) {
		CoreV1Event event = single();
		change.accept(event);
		return event;
	}

	@Test
	void aSingleOccurrenceGetsItsMicrosecondEventTimeAndTheReasonAsAction() {
		CoreV1Event event = single();
		CoreV1Event shaped = ReadersShape.create(event, OCCURRED, null);
		assertThat(shaped.getEventTime()).isEqualTo(OffsetDateTime.of(2026, 11, 30, 12, 0, 7, 123_456_000, ZoneOffset.UTC));
		assertThat(shaped.getAction()).isEqualTo("Started");
		assertThat(shaped.getSeries()).isNull();
		assertThat(shaped.getCount()).isEqualTo(1);
		assertThat(shaped.getLastTimestamp()).isEqualTo(event.getLastTimestamp());
		assertThat(event.getEventTime()).as("the correlator's event is not changed").isNull();
		assertThat(event.getAction()).isNull();
		assertThat(ReadersShape.create(event, OCCURRED, "Start").getAction()).as("a given action").isEqualTo("Start");
	}

	@Test
	void aClusterScopedObjectsEventInDefaultOrKubeSystemGetsAnEventTime() {
		CoreV1Event node = with((e) -> e.setInvolvedObject(TestEvents.ref("Node", "n1", null)));
		node.getMetadata().setNamespace("default");
		assertThat(ReadersShape.create(node, OCCURRED, null).getEventTime()).isNotNull();
		node.getMetadata().setNamespace("kube-system");
		assertThat(ReadersShape.create(node, OCCURRED, null).getEventTime()).isNotNull();
	}

	@Test
	void anEventTheServerWouldRefuseWithAnEventTimeIsWrittenAsClientGoWritesIt() {
		String chars129 = "a".repeat(129);
		assertClientGo("unqualified component", with((e) -> e.setReportingComponent("my controller")), null);
		assertClientGo("no component", with((e) -> e.setReportingComponent(null)), null);
		assertClientGo("empty instance", with((e) -> e.setReportingInstance("")), null);
		assertClientGo("instance over 128", with((e) -> e.setReportingInstance(chars129)), null);
		assertClientGo("reason over 128", with((e) -> e.setReason(chars129)), null);
		assertClientGo("action over 128", single(), chars129);
		assertClientGo("reason over 128 bytes in 65 characters", with((e) -> e.setReason("П".repeat(65))), null);
		assertClientGo("instance over 128 bytes", with((e) -> e.setReportingInstance("ü".repeat(65))), null);
		assertClientGo("message over 1024 bytes", with((e) -> e.setMessage("é".repeat(513))), null);
		CoreV1Event node = with((e) -> e.setInvolvedObject(TestEvents.ref("Node", "n1", null)));
		node.getMetadata().setNamespace("other");
		assertClientGo("cluster-scoped object outside default", node, null);
		assertThat(ReadersShape.create(with((e) -> e.setMessage("é".repeat(512))), OCCURRED, null).getEventTime())
			.as("1024 bytes fit")
			.isNotNull();
		assertThat(ReadersShape.create(single(), OCCURRED, "a".repeat(128)).getEventTime()).as("128 fit").isNotNull();
	}

	@Test
	void aFallbackToClientGosEventIsToldOncePerFieldWithWhatReadersLose() {
		ReadersShape.Fallbacks fallbacks = new ReadersShape.Fallbacks();
		RecordedEvent recorded = TestEvents.recorded("Started", "m", InvolvedObject.of("Pod", "v1", "ns", "p"));
		CoreV1Event emptyHost = with((e) -> e.setReportingInstance(""));
		CoreV1Event longMessage = with((e) -> e.setMessage("é".repeat(513)));
		try (LogCapture log = LogCapture.of(ReadersShape.class, Level.INFO)) {
			assertThat(ReadersShape.create(emptyHost, recorded, fallbacks)).isSameAs(emptyHost);
			assertThat(ReadersShape.create(emptyHost, recorded, fallbacks)).isSameAs(emptyHost);
			assertThat(ReadersShape.create(longMessage, recorded, fallbacks)).isSameAs(longMessage);
			assertThat(ReadersShape.create(single(), recorded, fallbacks).getEventTime()).isNotNull();
			assertThat(log.messages(Level.INFO)).containsExactly("A first occurrence is written without eventTime and"
					+ " action, as client-go writes it, because reportingInstance is empty (the host, kubeevents.host);"
					+ " the API server would refuse it with them (object=\"ns/p\" kind=\"Pod\" type=\"Normal\""
					+ " reason=\"Started\"). A reader of events.k8s.io/v1 that takes eventTime alone (OpenTelemetry"
					+ " #50962) shows such an Event with no time, and its events.k8s.io/v1 view has no action."
					+ " Logged once for the reportingInstance.",
					"A first occurrence is written without eventTime and action, as client-go writes it, because the"
							+ " message is longer than 1024 UTF-8 bytes; the API server would refuse it with them"
							+ " (object=\"ns/p\" kind=\"Pod\" type=\"Normal\" reason=\"Started\"). A reader of"
							+ " events.k8s.io/v1 that takes eventTime alone (OpenTelemetry #50962) shows such an Event"
							+ " with no time, and its events.k8s.io/v1 view has no action. Logged once for the"
							+ " message.");
		}
	}

	/** An unpaired surrogate is counted as the 3 bytes of U+FFFD, the text a recorded event carries instead. */
	@Test
	void theMessageRuleCountsAnUnpairedSurrogateAsThreeBytes() {
		assertThat(ReadersShape.create(with((e) -> e.setMessage("\uD800".repeat(341) + "x")), OCCURRED, null)
			.getEventTime()).as("1024 bytes fit").isNotNull();
		CoreV1Event over = with((e) -> e.setMessage("\uD800".repeat(342)));
		assertThat(ReadersShape.newStyleProblem(over, "Started"))
			.isEqualTo(new ReadersShape.Problem("message", "the message is longer than 1024 UTF-8 bytes"));
		assertThat(ReadersShape.create(over, OCCURRED, null)).as("written as client-go writes it").isSameAs(over);
		assertThat(ReadersShape.newStyleProblem(single(), "\uDC00".repeat(43)))
			.isEqualTo(new ReadersShape.Problem("action", "action is 129 UTF-8 bytes, more than 128"));
	}

	private static void assertClientGo(String problem, CoreV1Event event, String action) {
		assertThat(ReadersShape.newStyleProblem(event, (action != null) ? action : event.getReason())).as(problem)
			.isNotNull();
		assertThat(ReadersShape.create(event, OCCURRED, action)).as(problem).isSameAs(event);
	}

	@Test
	void aCreateOfACountAboveOneCarriesTheSeriesAndNoEventTime() {
		CoreV1Event event = with((e) -> {
			e.setCount(4);
			e.setEventTime(OffsetDateTime.of(2026, 11, 30, 12, 0, 0, 0, ZoneOffset.UTC));
		});
		CoreV1Event shaped = ReadersShape.create(event, OCCURRED, null);
		assertThat(shaped.getCount()).isEqualTo(4);
		assertThat(shaped.getEventTime()).isNull();
		assertThat(shaped.getAction()).isNull();
		assertThat(shaped.getSeries().getCount()).isEqualTo(4);
		assertThat(shaped.getSeries().getLastObservedTime())
			.isEqualTo(OffsetDateTime.of(2026, 11, 30, 12, 0, 7, 123_456_000, ZoneOffset.UTC));
		assertThat(event.getSeries()).isNull();
	}

}
