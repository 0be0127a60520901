package io.github.kubeevents.test.example;

import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.test.autoconfigure.AutoConfigureFakeEventRecorder;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;

/** The example of docs/testing.md, "The fake recorder": a {@code @SpringBootTest} with the fake recorder. */
@SpringBootTest
@AutoConfigureFakeEventRecorder
class FakeRecorderExampleTests {

	@Autowired
	WidgetService widgets;

	@Autowired
	FakeEventRecorder events;

	@Test
	void reportsAFailedCreate() {
		this.widgets.create("w-1", 0);
		assertThat(this.events).hasRecorded(1).hasWarning("FailedCreate").doesNotHaveReason("Created");
		assertThat(this.events).onlyEvent().isAbout("Widget", "default", "w-1").hasAction("Create")
			.hasMessage("Error creating widget w-1: quota exceeded").hasComponent("widgets");
	}

}
