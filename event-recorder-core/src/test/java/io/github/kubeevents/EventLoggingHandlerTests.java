package io.github.kubeevents;

import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventLoggingHandlerTest {

	@Test
	void formatsClientGosStructuredLine() {
		CoreV1Event event = TestEvents.event("Started", "Started \"c1\"\n", TestEvents.ref("Pod", "foo", "baz"));
		assertThat(EventLoggingHandler.format(event)).isEqualTo("Event occurred object=\"baz/foo\" "
				+ "fieldPath=\"spec.containers{mycontainer}\" kind=\"Pod\" apiVersion=\"version\" type=\"Normal\" "
				+ "reason=\"Started\" message=\"Started \\\"c1\\\"\\n\"");
	}

	@Test
	void clusterScopedObjectIsJustItsName() {
		CoreV1Event event = TestEvents.event("Ready", "ok", TestEvents.ref("Node", "n1", null));
		assertThat(EventLoggingHandler.format(event)).startsWith("Event occurred object=\"n1\" ");
	}

}
