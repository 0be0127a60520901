package io.github.kubeevents.endpoint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.kubeevents.DocOutputs;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.json.JsonAssert;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.client.RestTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.awaitility.Awaitility.await;

/**
 * HTTP tests of {@code /actuator/kubeevents}, over a real server with an in-memory sink and a fixed clock. The
 * whole answer is compared with documents under {@code src/test/resources/io/github/kubeevents/endpoint/}: the
 * JSON shape is public API, so any change of it must change those documents. The application uses Jackson's
 * {@code SNAKE_CASE} naming, which must not reach the endpoint.
 */
@SpringBootTest(classes = KubeEventsEndpointWebIntegrationTests.TestApplication.class,
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=kubeevents,health",
				"management.endpoint.health.show-details=always", "spring.application.name=events-test",
				"kubeevents.host=test-host", "spring.jackson.property-naming-strategy=SNAKE_CASE" })
@AutoConfigureRestTestClient
class KubeEventsEndpointWebIntegrationTests {

	/** The instant of every event and snapshot. */
	static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

	@Autowired
	RestTestClient client;

	@Autowired
	InMemoryEventSink sink;

	@BeforeEach
	void awaitTheRecordedEvents() {
		await().until(() -> this.sink.created().size() == 3);
	}

	static String expected(String name) throws IOException {
		return new ClassPathResource(name, KubeEventsEndpointWebIntegrationTests.class)
			.getContentAsString(StandardCharsets.UTF_8);
	}

	/**
	 * Compares the answer for {@code uri} with {@code expected}, strictly (no field more or less, arrays in order),
	 * after sorting the cache-entry lists by object: their order is the caches' iteration order, which is not part
	 * of the contract.
	 */
	String assertPinned(String uri, String expected) {
		String body = this.client.get()
			.uri(uri)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		String normalised = normalised(body);
		JsonAssert.comparator(JsonCompareMode.STRICT).assertIsMatch(expected, normalised);
		return normalised;
	}

	static String normalised(String json) {
		JsonMapper mapper = JsonMapper.builder().build();
		JsonNode root = mapper.readTree(json);
		sortEntries(root);
		return mapper.writeValueAsString(root);
	}

	private static void sortEntries(JsonNode node) {
		if (node instanceof ObjectNode object) {
			for (String field : List.of("aggregateRecords", "observedEvents", "spamBuckets", "series")) {
				if (object.get(field) instanceof ArrayNode array) {
					List<JsonNode> entries = new ArrayList<>();
					array.forEach(entries::add);
					entries.sort(Comparator.comparing((JsonNode entry) -> entry.path("object").path("namespace").asString(""))
						.thenComparing((entry) -> entry.path("object").path("name").asString(""))
						.thenComparing((entry) -> entry.path("reason").asString("")));
					array.removeAll();
					entries.forEach(array::add);
				}
			}
		}
		node.forEach(KubeEventsEndpointWebIntegrationTests::sortEntries);
	}

	@Test
	void describesTheRecorderExactly() throws IOException {
		String answer = assertPinned("/actuator/kubeevents", expected("kubeevents.json"));
		DocOutputs.check("docs/observability.md", "endpoint", DocOutputs.prettyJson(answer));
		// abridged by the README's words: the subscribers' queues and the correlator's caches are left out
		JsonNode abridged = JsonMapper.builder().build().readTree(answer);
		((ObjectNode) abridged.get("recorder")).remove("subscribers");
		abridged.get("recorder").get("sinks").forEach((sink) -> ((ObjectNode) sink).remove("correlator"));
		DocOutputs.check("README.md", "endpoint-abridged", DocOutputs.compactJson(abridged.toString(), 116));
	}

	@Test
	void describesOneNamespacedObjectExactly() throws IOException {
		String answer = assertPinned("/actuator/kubeevents/default/web-1", expected("kubeevents-default-web-1.json"));
		DocOutputs.check("docs/observability.md", "endpoint-one-object", DocOutputs.prettyJson(answer));
	}

	@Test
	void describesOneClusterScopedObjectExactly() throws IOException {
		assertPinned("/actuator/kubeevents/node-1", expected("kubeevents-node-1.json"));
	}

	@Test
	void messagesAreHiddenByDefault() {
		this.client.get()
			.uri("/actuator/kubeevents")
			.exchange()
			.expectBody()
			.jsonPath("$.recorder.sinks[0].correlator.observedEvents[*].message")
			.isEqualTo(List.of("******", "******", "******"));
	}

	@Test
	void unknownObjectIsNotFound() {
		this.client.get().uri("/actuator/kubeevents/default/web-9").exchange().expectStatus().isNotFound();
		this.client.get().uri("/actuator/kubeevents/web-1").exchange().expectStatus().isNotFound();
	}

	@Test
	void moreThanTwoPathSegmentsIsABadRequest() {
		this.client.get().uri("/actuator/kubeevents/a/b/c").exchange().expectStatus().isBadRequest();
	}

	@Test
	void limitBoundsEachList() {
		this.client.get()
			.uri("/actuator/kubeevents?limit=1")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.recorder.sinks[0].correlator.aggregatorSize")
			.isEqualTo(3)
			.jsonPath("$.recorder.sinks[0].correlator.aggregateRecords.length()")
			.isEqualTo(1)
			.jsonPath("$.recorder.sinks[0].correlator.observedSize")
			.isEqualTo(3)
			.jsonPath("$.recorder.sinks[0].correlator.observedEvents.length()")
			.isEqualTo(1)
			.jsonPath("$.recorder.sinks[0].correlator.spamBucketsSize")
			.isEqualTo(3)
			.jsonPath("$.recorder.sinks[0].correlator.spamBuckets.length()")
			.isEqualTo(1);
	}

	@Test
	void zeroLimitListsNothing() {
		this.client.get()
			.uri("/actuator/kubeevents?limit=0")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.recorder.sinks[0].correlator.observedSize")
			.isEqualTo(3)
			.jsonPath("$.recorder.sinks[0].correlator.observedEvents")
			.isEmpty();
	}

	@Test
	void negativeLimitIsABadRequest() {
		this.client.get().uri("/actuator/kubeevents?limit=-1").exchange().expectStatus().isBadRequest();
	}

	@Test
	void nonNumericLimitIsABadRequest() {
		this.client.get().uri("/actuator/kubeevents?limit=all").exchange().expectStatus().isBadRequest();
	}

	@Test
	void writeOperationsAreNotMapped() {
		this.client.post().uri("/actuator/kubeevents").exchange().expectStatus().is4xxClientError();
	}

	@Test
	void applicationsNamingStrategyAppliesToItsOwnJsonOnly() {
		this.client.get()
			.uri("/naming")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.json("{\"api_server\": \"snake\"}", JsonCompareMode.STRICT);
	}

	@Test
	void healthShowsTheRecorder() {
		this.client.get()
			.uri("/actuator/health")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.components.kubeevents")
			.isEqualTo(java.util.Map.of("status", "UP", "details", java.util.Map.of("sink", "kubernetes", "api", "core/v1",
					"apiReason", "configured", "queueDepth", 0, "queueCapacity", 10000, "accepted", 3, "dropped", 0,
					"failedInARow", 0, "rejectedInARow", 0, "lastWritten", "2026-01-02T03:04:05Z")));
	}

	@Nested
	@TestPropertySource(properties = "management.endpoint.kubeevents.show-values=always")
	class ShowValuesAlways {

		@Test
		void showsTheMessages() throws IOException {
			String expected = expected("kubeevents.json");
			// the pinned document's observed events, in order: node-1, web-1, web-2
			for (String message : List.of("Node node-1 status is now: NodeNotReady", "Started container web",
					"Back-off restarting failed container web")) {
				expected = expected.replaceFirst(Pattern.quote("\"message\": \"******\""),
						Matcher.quoteReplacement("\"message\": \"" + message + "\""));
			}
			assertPinned("/actuator/kubeevents", expected);
		}

		@Test
		void showsTheMessagesOfOneObject() {
			KubeEventsEndpointWebIntegrationTests.this.client.get()
				.uri("/actuator/kubeevents/default/web-1")
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.sinks[0].observedEvents[0].message")
				.isEqualTo("Started container web");
		}

	}

	/** The naming strategy's probe: the application's own JSON. */
	record Naming(String apiServer) {
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@RestController
	static class TestApplication {

		@Bean
		InMemoryEventSink inMemoryEventSink() {
			return new InMemoryEventSink();
		}

		@Bean
		EventBroadcasterCustomizer fixedClock() {
			return (builder) -> builder.clock(Clock.fixed(NOW, ZoneOffset.UTC));
		}

		@Bean
		ApplicationRunner recordEvents(EventRecorder recorder) {
			return (args) -> {
				recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "Started container web");
				recorder.about(TestClusters.pod("web-2"))
					.warning("BackOff", "Back-off restarting failed container %s", "web");
				recorder.event(TestClusters.node("node-1"), EventType.WARNING, "NodeNotReady",
						"Node node-1 status is now: NodeNotReady");
			};
		}

		@GetMapping("/naming")
		Naming naming() {
			return new Naming("snake");
		}

	}

}
