package io.github.kubeevents.sample;

import java.nio.file.Path;
import java.util.Map;

import io.github.kubeevents.autoconfigure.KubernetesConfigDetector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Starts the sample with no cluster (whatever the machine has: the cluster detector sees an empty environment),
 * records an event over HTTP and finds it logged and reflected in {@code /actuator/kubeevents}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "POD_NAME=sample-pod-1")
@AutoConfigureRestTestClient
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class SampleApplicationTests {

	static final Path NO_HOME = Path.of("target/no-home");

	static final Path NO_SERVICE_ACCOUNT = Path.of("target/no-service-account");

	@Autowired
	RestTestClient client;

	@TestConfiguration(proxyBeanMethods = false)
	static class NoCluster {

		@Bean
		KubernetesConfigDetector noClusterDetector() {
			return new KubernetesConfigDetector(Map.of(), NO_HOME, NO_SERVICE_ACCOUNT);
		}

	}

	@Test
	void recordsAnEventWithoutAClusterAndLogsIt(CapturedOutput output) {
		this.client.post()
			.uri("/events")
			.contentType(MediaType.APPLICATION_JSON)
			.body("""
					{"kind": "Deployment", "apiVersion": "apps/v1", "namespace": "shop", "name": "checkout",
					 "uid": "6f1c", "type": "Warning", "reason": "ScalingFailed", "message": "quota \\"cpu\\" exceeded"}
					""")
			.exchange()
			.expectStatus()
			.isAccepted()
			.expectBody()
			.json("""
					{"object": "shop/checkout", "kind": "Deployment", "type": "Warning", "reason": "ScalingFailed",
					 "message": "quota \\"cpu\\" exceeded"}
					""", JsonCompareMode.STRICT);
		await().until(() -> output.getOut()
			.contains("Event occurred object=\"shop/checkout\" fieldPath=\"\" kind=\"Deployment\" apiVersion=\"apps/v1\""
					+ " type=\"Warning\" reason=\"ScalingFailed\" message=\"quota \\\"cpu\\\" exceeded\""));
		this.client.get()
			.uri("/actuator/kubeevents")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.component").isEqualTo("kube-events-sample")
			.jsonPath("$.host").isEqualTo("sample-pod-1")
			.jsonPath("$.sink.configured").isEqualTo("auto")
			.jsonPath("$.sink.effective").isEqualTo("log")
			.jsonPath("$.sink.reason").isEqualTo("no Kubernetes configuration found (looked at $KUBECONFIG (unset), "
					+ NO_HOME.resolve(".kube/config") + ", in-cluster service account (" + NO_SERVICE_ACCOUNT + "))")
			.jsonPath("$.sink.apiServer").value((apiServer) -> assertThat(apiServer).isNull())
			.jsonPath("$.sink.logEvents").isEqualTo(true)
			.jsonPath("$.recorder.running").isEqualTo(true)
			.jsonPath("$.recorder.queue").isEqualTo(Map.of("depth", 0, "capacity", 2000))
			.jsonPath("$.recorder.subscribers").isEqualTo(java.util.List.of(Map.of("name", "logging", "depth", 0,
					"capacity", 1000, "fullQueuePolicy", "DROP", "dropped", 0)))
			.jsonPath("$.recorder.sinks").isEmpty()
			.jsonPath("$.recorder.dropped").isEqualTo(Map.of("queue_full", 0, "spam_filtered", 0,
					"rejected_by_server", 0, "retries_exhausted", 0, "shutdown", 0, "invalid_input", 0));
	}

	@Test
	void defaultsTheNamespaceAndType() {
		this.client.post()
			.uri("/events")
			.contentType(MediaType.APPLICATION_JSON)
			.body("""
					{"kind": "Pod", "apiVersion": "v1", "name": "web-1", "reason": "Started"}
					""")
			.exchange()
			.expectStatus()
			.isAccepted()
			.expectBody()
			.json("""
					{"object": "default/web-1", "kind": "Pod", "type": "Normal", "reason": "Started", "message": ""}
					""", JsonCompareMode.STRICT);
	}

	@Test
	void rejectsAnEventWithoutName() {
		this.client.post()
			.uri("/events")
			.contentType(MediaType.APPLICATION_JSON)
			.body("""
					{"kind": "Pod", "reason": "Started"}
					""")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.detail").isEqualTo("name is required");
	}

	@Test
	void rejectsAnUnknownType() {
		this.client.post()
			.uri("/events")
			.contentType(MediaType.APPLICATION_JSON)
			.body("""
					{"kind": "Pod", "name": "web-1", "type": "Error", "reason": "Started"}
					""")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.detail").isEqualTo("type must be Normal or Warning, was 'Error'");
	}

	@Test
	void exposesTheRecorderMetricsAndHealth() {
		this.client.get()
			.uri("/actuator/metrics/kubeevents.queue.capacity")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.measurements[0].value").isEqualTo(2000.0);
		this.client.get()
			.uri("/actuator/metrics/kubeevents.events.dropped?tag=reason:invalid_input")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.measurements[0].value").isEqualTo(0.0);
		this.client.get()
			.uri("/actuator/health")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.components.kubeevents.status").isEqualTo("UP")
			.jsonPath("$.components.kubeevents.details.sink").isEqualTo("log");
	}

}
