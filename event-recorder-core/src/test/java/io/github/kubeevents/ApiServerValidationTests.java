package io.github.kubeevents;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the API server refuses for its shape is dropped before sending, counted as {@code invalid_input} with the
 * problem (these reached the server before: 500 for '%' in a namespace, 405 for '..', 422 for annotation keys and
 * sizes).
 */
class ApiServerValidationTests {

	private static RecordedEvent event(String namespace, Map<String, String> annotations) {
		return new RecordedEvent(new InvolvedObject("Pod", "v1", namespace, "web-0", "uid", null, null), null,
				EventType.WARNING, "BackOff", null, "m", annotations, TestEvents.SOURCE, TestEvents.TIME);
	}

	@ParameterizedTest
	@ValueSource(strings = { "shop", "a", "kube-system", "x-1-y", "a23456789012345678901234567890123456789012345678901234567890123" })
	void validNamespacesPass(String namespace) {
		assertThat(ApiServerValidation.problem(event(namespace, Map.of()))).isNull();
	}

	@Test
	void aClusterScopedObjectsEventGoesToDefaultAndPasses() {
		assertThat(ApiServerValidation.problem(event(null, Map.of()))).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "..", ".", "a%b", "Shop", "shop.prod", "-shop", "shop-", "a/b", "shop\n",
			"a234567890123456789012345678901234567890123456789012345678901234" })
	void invalidNamespacesAreNamed(String namespace) {
		assertThat(ApiServerValidation.problem(event(namespace, Map.of())))
			.startsWith("namespace " + LogText.quoted(namespace) + " is not a valid namespace name");
	}

	@Test
	void annotationKeysMustBeQualifiedNames() {
		assertThat(ApiServerValidation.problem(event("shop", Map.of("example.com/trace-id", "x", "trace", "y")))).isNull();
		assertThat(ApiServerValidation.problem(event("shop", Map.of("trace id", "x"))))
			.isEqualTo("annotation key \"trace id\" is not a qualified name like 'example.com/trace-id' or 'trace-id'");
		assertThat(ApiServerValidation.problem(event("shop", Map.of("MyCorp.io/Trace-ID", "x"))))
			.as("the API server lowercases keys before checking them")
			.isNull();
		assertThat(ApiServerValidation.problem(event("shop", Map.of("example.com/-x", "x")))).isNotNull();
		assertThat(ApiServerValidation.problem(event("shop", Map.of("a".repeat(64), "x")))).isNotNull();
	}

	@Test
	void annotationsOver256KiBAreRefused() {
		Map<String, String> fits = new LinkedHashMap<>();
		fits.put("a", "x".repeat(256 * 1024 - 1));
		assertThat(ApiServerValidation.problem(event("shop", fits))).isNull();
		Map<String, String> over = new LinkedHashMap<>();
		over.put("a", "é".repeat(128 * 1024));
		assertThat(ApiServerValidation.problem(event("shop", over)))
			.isEqualTo("annotations are 262145 bytes, more than the API server's limit of 262144");
	}

	@Test
	void anUnpairedSurrogateInAnAnnotationCountsAsTheThreeBytesOfUFFFD() {
		// 1 byte of key and 87,381 U+FFFD: 262,144 bytes
		RecordedEvent fits = event("shop", Map.of("a", "\uD800".repeat(87_381)));
		assertThat(fits.annotations().get("a")).isEqualTo("\uFFFD".repeat(87_381));
		assertThat(ApiServerValidation.problem(fits)).isNull();
		assertThat(ApiServerValidation.problem(event("shop", Map.of("a", "\uDC00".repeat(87_382)))))
			.isEqualTo("annotations are 262147 bytes, more than the API server's limit of 262144");
	}

	/** Through a sink: nothing is sent, the drop is counted and the rest is written. */
	@Test
	void aSinkDropsWhatTheServerWouldRefuseAndSendsNothing() {
		TickingClock clock = TickingClock.fixed(TestEvents.TIME);
		EventCounters counters = new EventCounters(clock, Duration.ofSeconds(10));
		ScriptedSink sink = new ScriptedSink();
		CoreV1SinkSubscriber subscriber = new CoreV1SinkSubscriber("sink", sink,
				new ApiChoice(EventsApi.CORE_V1, "configured"),
				TestSinks.settings(RetryPolicy.defaults(), (d) -> {
				}, (api, verb, result, duration) -> {
				}, clock), counters);
		TestSinks.start(subscriber);
		try {
			for (RecordedEvent event : List.of(event("..", Map.of()), event("a%b", Map.of()),
					event("shop", Map.of("bad key", "v")), event("shop", Map.of()))) {
				subscriber.onEvent(event);
			}
			Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> TestSinks.pending(subscriber) == 0);
			assertThat(sink.calls()).singleElement()
				.satisfies((call) -> assertThat(call.event().getMetadata().getNamespace()).isEqualTo("shop"));
			assertThat(counters.dropped(DropReason.INVALID_INPUT)).isEqualTo(3);
		}
		finally {
			subscriber.end(false);
		}
	}

}
