package io.github.kubeevents;

import java.util.Map;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FakeEventRecorderTest {

	private final V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("foo").namespace("baz"));

	@Test
	void rendersClientGoStrings() {
		FakeEventRecorder recorder = new FakeEventRecorder();
		recorder.eventf(this.pod, EventType.WARNING, "FailedCreate", "Error creating: %s", "boom");
		recorder.annotatedEventf(this.pod, Map.of("b", "2", "a", "1"), EventType.NORMAL, "Created", "ok");
		assertThat(recorder.events()).containsExactly("Warning FailedCreate Error creating: boom",
				"Normal Created ok map[a:1 b:2]");
		assertThat(recorder.recordedEvents().get(0).involvedObject().getKind()).isEqualTo("Pod");
	}

	@Test
	void includesTheObjectWhenAsked() {
		FakeEventRecorder recorder = new FakeEventRecorder(true);
		recorder.event(this.pod, EventType.NORMAL, "Started", "up");
		assertThat(recorder.events()).containsExactly("Normal Started up involvedObject{kind=Pod,apiVersion=v1}");
	}

	@Test
	void listsInvalidInputInsteadOfCapturingIt() {
		FakeEventRecorder recorder = new FakeEventRecorder();
		recorder.event(this.pod, "Bogus", "R", "m");
		recorder.event((V1Pod) null, EventType.NORMAL, "R", "m");
		assertThat(recorder.events()).isEmpty();
		assertThat(recorder.invalidInputs()).containsExactly("unsupported event type 'Bogus'", "involved object is null");
		recorder.clear();
		assertThat(recorder.invalidInputs()).isEmpty();
	}

}
