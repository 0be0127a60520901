package io.github.kubeevents.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.DocOutputs;
import io.github.kubeevents.Subscription;
import io.github.kubeevents.autoconfigure.KubeEventsProperties;
import io.github.kubeevents.status.SinkClient;
import io.github.kubeevents.status.SinkMode;
import io.github.kubeevents.autoconfigure.SpamKey;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Starts the sample as a developer would, on a machine whose kubeconfig ({@code ~/.kube/config} and
 * {@code $KUBECONFIG}) points at a cluster but not in a pod: with the library's defaults, events are logged and
 * not written there. Records events over HTTP and finds them logged and in {@code /actuator/kubeevents}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "POD_NAME=sample-pod-1")
@AutoConfigureRestTestClient
@ExtendWith(OutputCaptureExtension.class)
class SampleApplicationTests {

	static final Path DEVELOPER_HOME = Path.of("target/developer-home");

	static final Path KUBECONFIG = Path.of("target/developer-kubeconfig");

	@Autowired
	RestTestClient client;

	@Autowired
	KubeEventsProperties properties;

	/**
	 * A developer's machine: kubeconfigs in {@code ~/.kube/config} and {@code $KUBECONFIG}, not in a pod. The
	 * starter's detection reads these variables from the Environment, so they are set as properties here.
	 * @param registry the test's properties
	 */
	@DynamicPropertySource
	static void developerMachine(DynamicPropertyRegistry registry) {
		writeKubeconfig(DEVELOPER_HOME.resolve(".kube/config"));
		writeKubeconfig(KUBECONFIG);
		registry.add("HOME", DEVELOPER_HOME::toString);
		registry.add("KUBECONFIG", KUBECONFIG::toString);
		registry.add("KUBERNETES_SERVICE_HOST", () -> "");
	}

	private static void writeKubeconfig(Path file) {
		try {
			Files.createDirectories(file.toAbsolutePath().getParent());
			Files.writeString(file, """
					apiVersion: v1
					kind: Config
					clusters:
					- name: dev
					  cluster:
					    server: http://127.0.0.1:1
					contexts:
					- name: dev
					  context:
					    cluster: dev
					    user: dev
					current-context: dev
					users:
					- name: dev
					  user:
					    token: dev-token
					""");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Test
	void runsWithTheLibrarysDefaults() {
		assertThat(this.properties).isEqualTo(new KubeEventsProperties(true, null, null, true, Duration.ofSeconds(10),
				DataSize.ofMegabytes(1), new KubeEventsProperties.Kubeconfig(false),
				new KubeEventsProperties.Sink(SinkMode.AUTO, "auto", Duration.ofSeconds(5), 4, 20_000, 4096,
						new KubeEventsProperties.RateLimit(null, 10),
						new KubeEventsProperties.Retry(12, Duration.ofSeconds(10)), SinkClient.AUTO, false, "readers"),
				new KubeEventsProperties.Queue(10000, 10000, Subscription.FullQueuePolicy.DROP),
				new KubeEventsProperties.Correlator(4096,
						new KubeEventsProperties.SpamFilter(true, 25, Duration.ofSeconds(300), SpamKey.OBJECT, false,
								null, null),
						new KubeEventsProperties.Aggregation(true, 10, Duration.ofSeconds(600),
								"(combined from similar events): "),
						false, Duration.ZERO),
				true, new KubeEventsProperties.Tracing(true, false, "traceparent")));
	}

	@Test
	void recordsAnEventWithoutWritingToTheDevelopersClusterAndLogsIt(CapturedOutput output) {
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
					 "eventNamespace": "shop", "messageBytes": 20}
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
			.jsonPath("$.sink.reason").isEqualTo("not running in Kubernetes; a kubeconfig is used only with"
					+ " kubeevents.kubeconfig.enabled=true or kubeevents.sink.mode=kubernetes")
			.jsonPath("$.sink.logEvents").isEqualTo(true)
			.jsonPath("$.recorder.state").isEqualTo("running")
			.jsonPath("$.recorder.queue").isEqualTo(Map.of("depth", 0, "capacity", 10000))
			.jsonPath("$.recorder.subscribers").isEqualTo(List.of(Map.of("name", "logging", "depth", 0,
					"capacity", 10000, "fullQueuePolicy", "drop", "dropped", 0)))
			.jsonPath("$.recorder.sinks").isEmpty();
	}

	/**
	 * The README's "Run the sample": the request it shows, the sample's answer, and the line the event is logged
	 * with (docs/observability.md, "Events").
	 */
	@Test
	void answersAndLogsTheDocsExample(CapturedOutput output) {
		String body = "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"namespace\":\"default\",\"name\":\"web-1\","
				+ "\"uid\":\"1234\",\"type\":\"Warning\",\"reason\":\"BackOff\","
				+ "\"message\":\"Back-off restarting failed container\"}";
		String answer = this.client.post()
			.uri("/events")
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.exchange()
			.expectStatus()
			.isAccepted()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		DocOutputs.check("README.md", "sample-post", """
				curl -s -XPOST localhost:8080/events -H 'content-type: application/json' \\
				  -d '%s'
				# %s
				curl -s localhost:8080/actuator/kubeevents
				""".formatted(body, answer));
		String logged = await().until(() -> output.getOut()
			.lines()
			.filter((line) -> line.contains("Event occurred object=\"default/web-1\""))
			.map((line) -> line.substring(line.indexOf("Event occurred")))
			.findFirst(), java.util.Optional::isPresent)
			.orElseThrow();
		DocOutputs.check("docs/observability.md", "event-line", logged);
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
					{"object": "default/web-1", "kind": "Pod", "type": "Normal", "reason": "Started",
					 "eventNamespace": "default", "messageBytes": 0}
					""", JsonCompareMode.STRICT);
	}

	@Test
	void clusterScopedObjectHasNoNamespaceAndItsEventGoesToDefault() {
		this.client.post()
			.uri("/events")
			.contentType(MediaType.APPLICATION_JSON)
			.body("""
					{"kind": "Node", "apiVersion": "v1", "namespace": "shop", "name": "node-1", "reason": "NodeNotReady",
					 "type": "Warning"}
					""")
			.exchange()
			.expectStatus()
			.isAccepted()
			.expectBody()
			.json("""
					{"object": "node-1", "kind": "Node", "type": "Warning", "reason": "NodeNotReady",
					 "eventNamespace": "default", "messageBytes": 0}
					""", JsonCompareMode.STRICT);
	}

	@Test
	void messageLargerThanTheLimitIsTooLargeAndNotEchoed() {
		String message = "0123456789abcdef".repeat(2 * 1024 * 1024 / 16);
		String body = this.client.post()
			.uri("/events")
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"kind\": \"Pod\", \"name\": \"web-1\", \"reason\": \"Started\", \"message\": \"" + message + "\"}")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.CONTENT_TOO_LARGE)
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertThat(body).contains("message is 2097152 UTF-8 bytes, more than kubeevents.max-message-size (1048576 bytes)")
			.doesNotContain("0123456789abcdef")
			.hasSizeLessThan(1024);
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
			.uri("/actuator/metrics/kubeevents.queue.capacity?tag=queue:incoming")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.measurements[0].value").isEqualTo(10000.0);
		this.client.get()
			.uri("/actuator/metrics/kubeevents.dropped?tag=reason:invalid_input")
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

	/**
	 * With a sink (as an application's {@code EventSink} bean), what reaches the API server.
	 */
	@Nested
	@Import(WithSink.RecordingSinkConfiguration.class)
	class WithSink {

		@Autowired
		RecordingSink sink;

		@Test
		void nodeEventHasAnInvolvedObjectWithoutNamespaceAndIsWrittenToDefault() {
			SampleApplicationTests.this.client.post()
				.uri("/events")
				.contentType(MediaType.APPLICATION_JSON)
				.body("""
						{"kind": "Node", "apiVersion": "v1", "name": "node-7", "uid": "9b2e", "type": "Warning",
						 "reason": "NodeNotReady", "message": "Node node-7 status is now: NodeNotReady"}
						""")
				.exchange()
				.expectStatus()
				.isAccepted();
			await().until(() -> this.sink.created.stream()
				.anyMatch((event) -> event.getInvolvedObject().getName().equals("node-7")));
			CoreV1Event event = this.sink.created.stream()
				.filter((candidate) -> candidate.getInvolvedObject().getName().equals("node-7"))
				.findFirst()
				.orElseThrow();
			assertThat(event.getMetadata().getNamespace()).isEqualTo("default");
			assertThat(event.getInvolvedObject().getNamespace()).isNull();
			assertThat(event.getInvolvedObject().getKind()).isEqualTo("Node");
			assertThat(event.getInvolvedObject().getUid()).isEqualTo("9b2e");
			assertThat(event.getMessage()).isEqualTo("Node node-7 status is now: NodeNotReady");
		}

		@TestConfiguration(proxyBeanMethods = false)
		static class RecordingSinkConfiguration {

			@Bean
			RecordingSink recordingSink() {
				return new RecordingSink();
			}

		}

	}

	/** Keeps what it is asked to write. */
	static final class RecordingSink implements EventSink {

		final List<CoreV1Event> created = new CopyOnWriteArrayList<>();

		@Override
		public CoreV1Event create(CoreV1Event event) {
			this.created.add(event);
			return event;
		}

		@Override
		public CoreV1Event patch(CoreV1Event event, EventSink.CountPatch patch) {
			return event;
		}

	}

}
