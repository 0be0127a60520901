package io.github.kubeevents.test.assertj;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.InvolvedObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link KubeEventsAssertions}, {@link FakeEventRecorderAssert} and {@link RecordedEventAssert}: each
 * assertion passes on a matching recorder and fails, with the recorded events in the message, on another.
 */
class KubeEventsAssertionsTests {

	private static final InvolvedObject POD = InvolvedObject.of("Pod", "v1", "shop", "web-0");

	private static final InvolvedObject NODE = InvolvedObject.of("Node", "v1", null, "node-1");

	private static final String LISTING = """
			  [0] Normal Scheduled about Pod shop/web-0 (action Binding, related Node node-1): "Assigned shop/web-0 to node-1"
			  [1] Warning BackOff about Pod shop/web-0 (annotations {team=payments}): "Back-off restarting failed container"
			  [2] Warning BackOff about Pod shop/web-0: "Back-off 20s"\
			""".replace("\n", System.lineSeparator());

	private final FakeEventRecorder recorder = new FakeEventRecorder(new EventSource("shop-controller", "pod-1"),
			Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC));

	@BeforeEach
	void record() {
		this.recorder.about(POD).related(NODE).action("Binding").normal("Scheduled", "Assigned %s to %s", "shop/web-0",
				"node-1");
		this.recorder.about(POD).withAnnotation("team", "payments").warning("BackOff", "Back-off restarting failed container");
		this.recorder.about(POD).warning("BackOff", "Back-off %ds", 20);
	}

	@Test
	void countsAndReasonsPass() {
		assertThatNoException().isThrownBy(() -> assertThat(this.recorder).hasRecorded(3)
			.hasNormal("Scheduled")
			.hasWarning("BackOff")
			.hasEvent(EventType.WARNING, "BackOff")
			.doesNotHaveReason("Killing")
			.hasEventCount("BackOff", 2)
			.hasEventCount("Killing", 0)
			.hasReasonsExactly("Scheduled", "BackOff", "BackOff")
			.hasNoInvalidInputs());
	}

	@Test
	void hasRecordedFailsWithTheRecordedEvents() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(this.recorder).hasRecorded(2))
			.withMessage("%nExpected the recorder to have recorded 2 events but it recorded 3 events:%n%s", LISTING);
	}

	@Test
	void hasNoEventsFails() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(this.recorder).hasNoEvents())
			.withMessage("%nExpected the recorder to have recorded no events but it recorded 3 events:%n%s", LISTING);
	}

	@Test
	void hasNoEventsPassesOnAnEmptyRecorderAndListsNothing() {
		FakeEventRecorder empty = new FakeEventRecorder();
		assertThatNoException().isThrownBy(() -> assertThat(empty).hasNoEvents().hasRecorded(0));
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(empty).hasWarning("BackOff"))
			.withMessage(("%nExpected a Warning event with reason \"BackOff\" but the recorder recorded 0 events:%n"
					+ "  (none)").formatted());
	}

	@Test
	void hasWarningFailsWhenOnlyANormalEventHasTheReason() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(this.recorder).hasWarning("Scheduled"))
			.withMessage("%nExpected a Warning event with reason \"Scheduled\" but the recorder recorded 3 events:%n%s",
					LISTING);
	}

	@Test
	void hasNormalFails() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(this.recorder).hasNormal("BackOff"))
			.withMessageStartingWith("%nExpected a Normal event with reason \"BackOff\"".formatted());
	}

	@Test
	void doesNotHaveReasonFails() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).doesNotHaveReason("BackOff"))
			.withMessage("%nExpected no event with reason \"BackOff\" but the recorder recorded 2 events with it,"
					+ " among:%n%s", LISTING);
	}

	@Test
	void hasEventCountFails() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).hasEventCount("BackOff", 1))
			.withMessage("%nExpected 1 event with reason \"BackOff\" but the recorder recorded 2 events with it,"
					+ " among:%n%s", LISTING);
	}

	@Test
	void hasReasonsExactlyFailsOnOrder() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).hasReasonsExactly("BackOff", "Scheduled", "BackOff"))
			.withMessageStartingWith("%nExpected the reasons [BackOff, Scheduled, BackOff], in this order".formatted());
	}

	@Test
	void hasNoInvalidInputsFailsWithTheReason() {
		this.recorder.about(POD).warning("", "no reason");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).hasNoInvalidInputs())
			.withMessageStartingWith("%nExpected every recorder call to be valid but 1 was rejected:%n  ".formatted());
	}

	@Test
	void navigatesToEvents() {
		assertThatNoException().isThrownBy(() -> {
			assertThat(this.recorder).event(0)
				.isNormal()
				.hasReason("Scheduled")
				.hasMessage("Assigned shop/web-0 to node-1")
				.hasMessageContaining("node-1")
				.isAbout("Pod", "shop", "web-0")
				.isAbout(POD)
				.hasAction("Binding")
				.hasRelated("Node", null, "node-1")
				.hasComponent("shop-controller");
			assertThat(this.recorder).event(1).isWarning().hasAnnotation("team", "payments").hasNoRelated();
			assertThat(this.recorder).lastEvent().hasMessage("Back-off 20s");
			assertThat(this.recorder).eventWithReason("Scheduled").hasType(EventType.NORMAL);
			assertThat(this.recorder).events().hasSize(3);
		});
	}

	@Test
	void navigationFailsClearly() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(this.recorder).event(3))
			.withMessage("%nExpected an event at index 3 but the recorder recorded 3 events:%n%s", LISTING);
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(this.recorder).onlyEvent())
			.withMessageStartingWith("%nExpected the recorder to have recorded 1 event but it recorded 3 events".formatted());
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).eventWithReason("BackOff"))
			.withMessage("%nExpected exactly one event with reason \"BackOff\" but the recorder recorded 2 events with"
					+ " it, among:%n%s", LISTING);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(new FakeEventRecorder()).lastEvent())
			.withMessage("%nExpected a last event but the recorder recorded no events".formatted());
	}

	@Test
	void eventAssertionsFailWithTheEvent() {
		String scheduled = "Normal Scheduled about Pod shop/web-0 (action Binding, related Node node-1):"
				+ " \"Assigned shop/web-0 to node-1\"";
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(0).isWarning())
			.withMessage("%nExpected a Warning event but was:%n  %s", scheduled);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(0).hasReason("Created"))
			.withMessage("%nExpected reason \"Created\" but was \"Scheduled\" in:%n  %s", scheduled);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(0).hasMessage("Assigned"))
			.withMessage("%nExpected message \"Assigned\" but was \"Assigned shop/web-0 to node-1\" in:%n  %s",
					scheduled);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(0).hasMessageContaining("node-2"))
			.withMessage("%nExpected the message to contain \"node-2\" but it was \"Assigned shop/web-0 to node-1\""
					+ " in:%n  %s", scheduled);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(0).isAbout("Pod", "default", "web-0"))
			.withMessage("%nExpected the event to be about Pod default/web-0 but it is about Pod shop/web-0:%n  %s",
					scheduled);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(0).hasAction("Scheduling"))
			.withMessage("%nExpected action \"Scheduling\" but was \"Binding\" in:%n  %s", scheduled);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(2).hasAction("Binding"))
			.withMessage("%nExpected action \"Binding\" but was none in:%n  %s",
					"Warning BackOff about Pod shop/web-0: \"Back-off 20s\"");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(2).hasRelated("Node", null, "node-1"))
			.withMessage("%nExpected the related object Node node-1 but it is nothing:%n  %s",
					"Warning BackOff about Pod shop/web-0: \"Back-off 20s\"");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(0).hasNoRelated())
			.withMessage("%nExpected no related object but it is Node node-1:%n  %s", scheduled);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(1).hasAnnotation("team", "checkout"))
			.withMessageStartingWith(
					"%nExpected annotation team=\"checkout\" but the annotations are {team=payments} in:".formatted());
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).event(0).hasComponent("other"))
			.withMessageStartingWith("%nExpected component \"other\" but was \"shop-controller\"".formatted());
	}

	@Test
	void messagesWithPercentSignsAreShownVerbatim() {
		FakeEventRecorder recorder = new FakeEventRecorder();
		recorder.about(POD).warning("DiskFull", "Disk 100% full, %s");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(recorder).onlyEvent().hasMessageContaining("99%"))
			.withMessage(("%nExpected the message to contain \"99%%\" but it was \"Disk 100%% full, %%s\" in:%n"
					+ "  Warning DiskFull about Pod shop/web-0: \"Disk 100%% full, %%s\"").formatted());
	}

	@Test
	void descriptionIsPrefixed() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(this.recorder).as("controller events").hasRecorded(0))
			.withMessageStartingWith("[controller events] ");
	}

	@Test
	void annotationsAreSortedInMessages() {
		FakeEventRecorder recorder = new FakeEventRecorder();
		recorder.about(POD).withAnnotations(Map.of("b", "2", "a", "1")).normal("Synced", "ok");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(recorder).hasRecorded(0))
			.withMessageEndingWith("[0] Normal Synced about Pod shop/web-0 (annotations {a=1, b=2}): \"ok\"");
	}

}
