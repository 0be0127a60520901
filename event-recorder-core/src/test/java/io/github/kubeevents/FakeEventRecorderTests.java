package io.github.kubeevents;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** client-go's two FakeRecorders' strings (record's and events'). */
class FakeEventRecorderTests {

	private final V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("foo").namespace("baz"));

	@Test
	void rendersClientGoStrings() {
		FakeEventRecorder recorder = new FakeEventRecorder();
		recorder.eventf(this.pod, EventType.WARNING, "FailedCreate", "Error creating: %s", "boom");
		recorder.annotatedEventf(this.pod, Map.of("b", "2", "a", "1"), EventType.NORMAL, "Created", "ok");
		assertThat(recorder.events()).containsExactly("Warning FailedCreate Error creating: boom",
				"Normal Created ok map[a:1 b:2]");
		assertThat(recorder.recordedEvents().get(0).regarding().kind()).isEqualTo("Pod");
		assertThat(recorder.recordedEvents().get(0).source()).isEqualTo(FakeEventRecorder.DEFAULT_SOURCE);
	}

	@Test
	void includesTheObjectWhenAsked() {
		FakeEventRecorder recorder = new FakeEventRecorder();
		recorder.event(this.pod, EventType.NORMAL, "Started", "up");
		assertThat(recorder.events(FakeEventRecorder.Format.RECORD_WITH_OBJECT))
			.containsExactly("Normal Started up involvedObject{kind=Pod,apiVersion=v1}");
	}

	@Test
	void rendersTheEventsLibrarysStringsWithActionAndRelated() {
		FakeEventRecorder recorder = new FakeEventRecorder();
		V1Node node = new V1Node().metadata(new V1ObjectMeta().name("node-1"));
		recorder.about(this.pod).related(node).action("Scheduling").withAnnotation("k", "v")
			.warning("FailedScheduling", "%d nodes available", 0);
		assertThat(recorder.events(FakeEventRecorder.Format.EVENTS))
			.containsExactly("Warning FailedScheduling 0 nodes available map[k:v]");
		assertThat(recorder.events(FakeEventRecorder.Format.EVENTS_VERBOSE)).containsExactly(
				"Warning FailedScheduling Scheduling 0 nodes available {kind=Pod,apiVersion=v1} {kind=Node,apiVersion=v1} map[k:v]");
	}

	@Test
	void usesTheGivenSourceAndClock() {
		Instant time = Instant.parse("2026-11-30T12:00:00Z");
		FakeEventRecorder recorder = new FakeEventRecorder(new EventSource("c", "h"), TickingClock.fixed(time));
		recorder.event(this.pod, EventType.NORMAL, "R", "m");
		assertThat(recorder.recordedEvents()).singleElement().satisfies((event) -> {
			assertThat(event.source()).isEqualTo(new EventSource("c", "h"));
			assertThat(event.timestamp()).isEqualTo(time);
		});
	}

	@Test
	void listsInvalidInputInsteadOfCapturingIt() {
		FakeEventRecorder recorder = new FakeEventRecorder();
		recorder.event(this.pod, null, "R", "m");
		recorder.event((V1Pod) null, EventType.NORMAL, "R", "m");
		recorder.event(this.pod, EventType.NORMAL, "", "m");
		assertThat(recorder.events()).isEmpty();
		assertThat(recorder.invalidInputs()).containsExactly("event type is null (must be Normal or Warning)",
				"involved object is null", "reason is empty");
		recorder.clear();
		assertThat(recorder.invalidInputs()).isEmpty();
	}

	@Test
	void appliesTheRecordersMessageLimit() {
		FakeEventRecorder recorder = new FakeEventRecorder(FakeEventRecorder.DEFAULT_SOURCE, Clock.systemUTC(), 10);
		recorder.eventf(this.pod, EventType.WARNING, "Full", "Disk %s", "full!");
		recorder.eventf(this.pod, EventType.WARNING, "Full", "Disk %s", "\u00e4\u00e4 full");
		assertThat(recorder.recordedEvents()).extracting(RecordedEvent::message).containsExactly("Disk full!");
		assertThat(recorder.invalidInputs())
			.containsExactly("message is 14 UTF-8 bytes, more than the limit of 10");
		FakeEventRecorder byDefault = new FakeEventRecorder();
		byDefault.event(this.pod, EventType.NORMAL, "Big", "x".repeat(1024 * 1024));
		byDefault.event(this.pod, EventType.NORMAL, "Big", "x".repeat(1024 * 1024 + 1));
		assertThat(byDefault.recordedEvents()).hasSize(1);
		assertThat(byDefault.invalidInputs())
			.containsExactly("message is 1048577 UTF-8 bytes, more than the limit of 1048576");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new FakeEventRecorder(FakeEventRecorder.DEFAULT_SOURCE, Clock.systemUTC(), 0));
	}

	@Test
	void adapterThrowingACheckedExceptionIsListedNotThrown() {
		FakeEventRecorder recorder = new FakeEventRecorder();
		InvolvedObject.Adapter<String> sneaky = (s) -> {
			throw FakeEventRecorderTests.<RuntimeException>sneakyThrow(new IOException("metadata not readable"));
		};
		recorder.about("widget-1", sneaky).normal("R", "m");
		assertThat(recorder.invalidInputs()).singleElement()
			.isEqualTo("the InvolvedObject.Adapter failed on java.lang.String: java.io.IOException: metadata not readable");
	}

	@SuppressWarnings("unchecked")
	private static <E extends Throwable> E sneakyThrow(Throwable ex) throws E {
		throw (E) ex;
	}

}
