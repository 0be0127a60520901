package io.github.kubeevents.sample;

import java.util.Map;

import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.client.RestTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample with Micrometer Tracing (OpenTelemetry bridge) and {@code kubeevents.tracing.traceparent-annotation=true}:
 * a {@code POST /events} carrying a W3C {@code traceparent} header is served in a span of that trace, and the Event
 * it records carries the {@code traceparent} annotation of that span: the caller's trace id, the server span's id.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "kubeevents.tracing.traceparent-annotation=true", "management.tracing.sampling.probability=1.0",
				"management.tracing.export.enabled=true", "management.tracing.enabled=true" })
@AutoConfigureRestTestClient
@Import(SampleTracingTests.RecordingSinkConfiguration.class)
class SampleTracingTests {

	private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	@Autowired
	RestTestClient client;

	@Autowired
	SampleApplicationTests.RecordingSink sink;

	@Test
	void anEventRecordedForARequestWithATraceparentCarriesThatTrace() {
		this.client.post()
			.uri("/events")
			.header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01")
			.contentType(MediaType.APPLICATION_JSON)
			.body("""
					{"kind": "Pod", "apiVersion": "v1", "namespace": "shop", "name": "checkout-0",
					 "type": "Warning", "reason": "BackOff", "message": "Back-off restarting failed container"}
					""")
			.exchange()
			.expectStatus()
			.isAccepted();
		CoreV1Event event = recorded("checkout-0");
		Map<String, String> annotations = event.getMetadata().getAnnotations();
		assertThat(annotations).containsOnlyKeys("traceparent");
		// the server span of the request, a child of the caller's span, in the caller's trace; sampled
		assertThat(annotations.get("traceparent")).matches("00-" + TRACE_ID + "-[0-9a-f]{16}-01")
			.doesNotContain("00f067aa0ba902b7");
	}

	@Test
	void anEventRecordedWithoutTraceparentStartsNoTraceOfItsOwnButCarriesTheRequestsSpan() {
		this.client.post()
			.uri("/events")
			.contentType(MediaType.APPLICATION_JSON)
			.body("""
					{"kind": "Pod", "apiVersion": "v1", "namespace": "shop", "name": "checkout-1",
					 "type": "Normal", "reason": "Started", "message": "Started container"}
					""")
			.exchange()
			.expectStatus()
			.isAccepted();
		CoreV1Event event = recorded("checkout-1");
		// the request's own server span (a new trace): its id, not the other test's
		assertThat(event.getMetadata().getAnnotations().get("traceparent")).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01")
			.doesNotContain(TRACE_ID);
	}

	/** The Event written about {@code name}, once it is written. */
	private CoreV1Event recorded(String name) {
		await().until(() -> this.sink.created.stream()
			.anyMatch((event) -> event.getInvolvedObject().getName().equals(name)));
		return this.sink.created.stream()
			.filter((candidate) -> candidate.getInvolvedObject().getName().equals(name))
			.findFirst()
			.orElseThrow();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class RecordingSinkConfiguration {

		@Bean
		SampleApplicationTests.RecordingSink recordingSink() {
			return new SampleApplicationTests.RecordingSink();
		}

	}

}
