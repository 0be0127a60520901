package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.autoconfigure.testapp.KubeEventsTestApplication;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTP tests of {@code /actuator/kubeevents}.
 */
@SpringBootTest(classes = KubeEventsTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=kubeevents,health",
				"spring.application.name=events-test", "kubeevents.host=test-host" })
@AutoConfigureRestTestClient
@DirtiesContext
class KubeEventsEndpointWebIntegrationTests {

	@Autowired
	RestTestClient client;

	@Autowired
	EventRecorder recorder;

	@Autowired
	EventBroadcaster broadcaster;

	@Autowired
	InMemoryEventSink sink;

	@Test
	void print() {
		this.recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "Started container web");
		await().until(() -> this.sink.created().size() == 1);
		String body = new String(this.client.get().uri("/actuator/kubeevents").exchange().expectStatus().isOk().expectBody().returnResult().getResponseBody());
		System.out.println("BODY " + body);
		body = new String(this.client.get().uri("/actuator/health").exchange().expectBody().returnResult().getResponseBody());
		System.out.println("HEALTH " + body);
		assertThat(body).isNotNull();
	}

}
