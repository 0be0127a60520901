package io.github.kubeevents;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The one sink over the official client serves both APIs: each request goes to its own API's path
 * ({@link CoreV1EventSinkTests} pins core/v1's bodies), the patch is the {@link Sink.Patch}'s map, and a sink
 * without {@code get} keeps the {@link Sink} default.
 */
class OfficialSinkTests {

	private static EventsV1Event eventsV1Event() {
		return new EventsV1Event().metadata(new V1ObjectMeta().name("name").namespace("ns"))
			.reason("R")
			.action("A")
			.note("m");
	}

	private static Sink<EventsV1Event, EventsV1Sink.SeriesPatch> eventsV1Sink(StubApiServer server) {
		return EventsClient.of(server.client()).eventsV1Sink(EventBroadcaster.Builder.DEFAULT_REQUEST_TIMEOUT);
	}

	@Test
	void eventsV1RequestsGoToTheEventsApiOfTheEventsNamespace() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink = eventsV1Sink(server);
			assertThat(sink.create(eventsV1Event()).getMetadata().getResourceVersion()).isEqualTo("7");
			sink.patch(eventsV1Event(), new EventsV1Sink.SeriesPatch(2, Instant.parse("2026-11-30T12:00:05Z"), "6"));
			assertThat(sink.get("ns", "other").getMetadata().getName()).isEqualTo("name");
			assertThat(server.requests()).extracting(StubApiServer.Request::toString)
				.containsExactly("POST /apis/events.k8s.io/v1/namespaces/ns/events",
						"PATCH /apis/events.k8s.io/v1/namespaces/ns/events/name",
						"GET /apis/events.k8s.io/v1/namespaces/ns/events/other");
			assertThat(server.requests().get(1).contentType()).isEqualTo("application/strategic-merge-patch+json");
			assertThat(server.requests().get(1).body()).isEqualTo("{\"metadata\":{\"resourceVersion\":\"6\"},"
					+ "\"series\":{\"count\":2,\"lastObservedTime\":\"2026-11-30T12:00:05.000000Z\"}}");
			assertThat(sink.supportsGet()).isTrue();
		}
	}

	@Test
	void coreV1ReadIsAGetOfTheNamedEvent() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			CoreV1Event read = EventsClient.of(server.client()).coreV1Sink(EventBroadcaster.Builder.DEFAULT_REQUEST_TIMEOUT).get("ns", "other");
			assertThat(read.getCount()).isEqualTo(1);
			assertThat(server.requests()).extracting(StubApiServer.Request::toString)
				.containsExactly("GET /api/v1/namespaces/ns/events/other");
		}
	}

	@Test
	void anEventsV1EventWithoutNameCannotBePatched() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink = eventsV1Sink(server);
			EventsV1Event unnamed = eventsV1Event();
			unnamed.getMetadata().setName(null);
			EventSinkException failure = catchThrowableOfType(EventSinkException.class,
					() -> sink.patch(unnamed, new EventsV1Sink.SeriesPatch(2, Instant.parse("2026-11-30T12:00:05Z"))));
			assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
			assertThat(failure.getMessage()).isEqualTo("Unable to construct patch request: event has no name");
			assertThat(server.requests()).isEmpty();
		}
	}

	@Test
	void aSinkWithoutGetCannotRead() {
		Sink<CoreV1Event, EventSink.CountPatch> sink = new ScriptedSink();
		assertThat(sink.supportsGet()).isFalse();
		EventSinkException failure = catchThrowableOfType(EventSinkException.class, () -> sink.get("ns", "name"));
		assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
		assertThat(failure.getMessage()).isEqualTo("io.github.kubeevents.ScriptedSink cannot read Events");
	}

	@Test
	void bothPatchesAreSinkPatchesWithTheirBodyAndPrecondition() {
		Sink.Patch count = new EventSink.CountPatch(3, Instant.parse("2026-11-30T12:00:05Z").atOffset(ZoneOffset.UTC), "m",
				"5").withAnnotations(Map.of("traceparent", "00-t-s-01"));
		Sink.Patch series = new EventsV1Sink.SeriesPatch(3, Instant.parse("2026-11-30T12:00:05Z"), "5",
				Map.of("traceparent", "00-t-s-01"));
		for (Sink.Patch patch : new Sink.Patch[] { count, series }) {
			assertThat(patch.resourceVersion()).isEqualTo("5");
			assertThat(patch.annotations()).containsExactly(Map.entry("traceparent", "00-t-s-01"));
			assertThat(patch.toMap()).containsEntry("metadata",
					Map.of("resourceVersion", "5", "annotations", Map.of("traceparent", "00-t-s-01")));
		}
	}

}
