package io.github.kubeevents.test.autoconfigure;

import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.InvolvedObject;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;

/**
 * {@link AutoConfigureFakeEventRecorder#clearAfterEachTest()}: by default the second test method does not see the
 * first one's events; with {@code false} it does.
 */
class ClearAfterEachTestTests {

	private static final InvolvedObject POD = InvolvedObject.of("Pod", "v1", "default", "web-0");

	@Nested
	@SpringBootTest(classes = Application.class)
	@AutoConfigureFakeEventRecorder
	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	class ByDefault {

		@Autowired
		FakeEventRecorder events;

		@Test
		@Order(1)
		void first() {
			this.events.about(POD).normal("Pulled", "Pulled image");
			assertThat(this.events).hasRecorded(1);
		}

		@Test
		@Order(2)
		void secondStartsEmpty() {
			assertThat(this.events).hasNoEvents();
		}

	}

	@Nested
	@SpringBootTest(classes = Application.class)
	@AutoConfigureFakeEventRecorder(clearAfterEachTest = false)
	@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
	class Kept {

		@Autowired
		FakeEventRecorder events;

		@Test
		@Order(1)
		void first() {
			this.events.clear();
			this.events.about(POD).normal("Pulled", "Pulled image");
			assertThat(this.events).hasRecorded(1);
		}

		@Test
		@Order(2)
		void secondSeesTheFirstOnesEvents() {
			assertThat(this.events).hasRecorded(1).hasNormal("Pulled");
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
