package io.github.kubeevents;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import okhttp3.Response;
import okhttp3.internal.http2.ConnectionShutdownException;
import okhttp3.internal.http2.ErrorCode;
import okhttp3.internal.http2.StreamResetException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The core/v1 sink on the wire (method, path, content type and body of POST and PATCH) and its error classes.
 * HTTP statuses are also covered against a real kube-apiserver in the integration tests.
 */
class CoreV1EventSinkTests {

	private static final OffsetDateTime T5 = OffsetDateTime.of(2026, 11, 30, 12, 0, 5, 0, ZoneOffset.UTC);

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static Sink<CoreV1Event, EventSink.CountPatch> sink(ApiClient client) {
		return EventsClient.of(client).coreV1Sink(EventBroadcaster.Builder.DEFAULT_REQUEST_TIMEOUT);
	}

	private static CoreV1Event event() {
		return TestEvents.event("R", "m", TestEvents.ref("Pod", "p", "ns"));
	}

	@Test
	void createIsAJsonPostToTheEventsNamespace() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			Sink<CoreV1Event, EventSink.CountPatch> sink = sink(server.client());
			CoreV1Event stored = sink.create(event());
			assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("7");
			assertThat(server.requests()).singleElement().satisfies((request) -> {
				assertThat(request.method()).isEqualTo("POST");
				assertThat(request.path()).isEqualTo("/api/v1/namespaces/ns/events");
				assertThat(request.contentType()).startsWith("application/json");
				JsonObject body = JsonParser.parseString(request.body()).getAsJsonObject();
				assertThat(body.getAsJsonObject("metadata").get("name").getAsString()).isEqualTo("name");
				assertThat(body.get("reason").getAsString()).isEqualTo("R");
				assertThat(body.get("count").getAsInt()).isEqualTo(1);
				// client-java writes microseconds (2026-01-01T00:00:00.000000Z); the API server parses both forms
				assertThat(OffsetDateTime.parse(body.get("firstTimestamp").getAsString()))
					.isEqualTo(OffsetDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
				assertThat(body.getAsJsonObject("involvedObject").get("uid").getAsString()).isEqualTo(TestEvents.UID);
			});
		}
	}

	@Test
	void patchIsAStrategicMergePatchOfCountLastTimestampAndMessage() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			server.answer(new StubApiServer.Answer(200, null));
			Sink<CoreV1Event, EventSink.CountPatch> sink = sink(server.client());
			CoreV1Event stored = sink.patch(event(), new EventSink.CountPatch(3, T5, "m"));
			assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("7");
			assertThat(server.requests()).singleElement().satisfies((request) -> {
				assertThat(request.method()).isEqualTo("PATCH");
				assertThat(request.path()).isEqualTo("/api/v1/namespaces/ns/events/name");
				assertThat(request.contentType()).isEqualTo("application/strategic-merge-patch+json");
				assertThat(request.body()).isEqualTo("{\"count\":3,\"lastTimestamp\":\"2026-11-30T12:00:05Z\",\"message\":\"m\"}");
			});
		}
	}

	@Test
	void patchBodyIsJsonNotStringFormatting() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			server.answer(new StubApiServer.Answer(200, null), new StubApiServer.Answer(200, null));
			Sink<CoreV1Event, EventSink.CountPatch> sink = sink(server.client());
			String message = "quote \" backslash \\ unicode é newline \n <tag> & 'x'";
			sink.patch(event(), new EventSink.CountPatch(4, T5, message));
			sink.patch(event(), new EventSink.CountPatch(2, T5, ""));
			JsonObject body = JsonParser.parseString(server.requests().get(0).body()).getAsJsonObject();
			assertThat(body.keySet()).containsExactly("count", "lastTimestamp", "message");
			assertThat(body.get("message").getAsString()).isEqualTo(message);
			assertThat(server.requests().get(1).body()).isEqualTo("{\"count\":2,\"lastTimestamp\":\"2026-11-30T12:00:05Z\"}");
		}
	}

	@Test
	void readersPatchSetsTheSeriesAndSendsANullThatRemovesEventTime() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			server.answer(new StubApiServer.Answer(200, null));
			Sink<CoreV1Event, EventSink.CountPatch> sink = sink(server.client());
			sink.patch(event(), new EventSink.CountPatch(3, T5, "m", "12")
				.withSeries(Instant.parse("2026-11-30T12:00:05.987654321Z")));
			assertThat(server.requests()).singleElement()
				.satisfies((request) -> assertThat(request.body()).isEqualTo("{\"metadata\":{\"resourceVersion\":\"12\"},"
						+ "\"count\":3,\"lastTimestamp\":\"2026-11-30T12:00:05Z\",\"message\":\"m\","
						+ "\"series\":{\"count\":3,\"lastObservedTime\":\"2026-11-30T12:00:05.987654Z\"},\"eventTime\":null}"));
		}
	}

	@Test
	void patchMapHasExactlyTheThreeKeysInOrder() {
		EventSink.CountPatch patch = new EventSink.CountPatch(3, T5, "quote \" backslash \\ unicode é");
		assertThat(patch.toMap()).containsExactly(Map.entry("count", 3), Map.entry("lastTimestamp", "2026-11-30T12:00:05Z"),
				Map.entry("message", "quote \" backslash \\ unicode é"));
		assertThat(new EventSink.CountPatch(2, T5, "").toMap()).containsOnlyKeys("count", "lastTimestamp");
		assertThat(new EventSink.CountPatch(2, OffsetDateTime.of(2026, 11, 30, 13, 0, 5, 0, ZoneOffset.ofHours(1)), "m").toMap())
			.as("always UTC")
			.containsEntry("lastTimestamp", "2026-11-30T12:00:05Z");
	}

	@Test
	void httpStatusesAreClassified() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			server.answer(new StubApiServer.Answer(404, null,
					"{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"events \\\"name\\\" not found\",\"reason\":\"NotFound\",\"code\":404}"),
					new StubApiServer.Answer(409, null,
							"{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"AlreadyExists\",\"code\":409}"),
					new StubApiServer.Answer(200, null, "this is not an Event"));
			Sink<CoreV1Event, EventSink.CountPatch> sink = sink(server.client());
			EventSinkException notFound = catchThrowableOfType(EventSinkException.class,
					() -> sink.patch(event(), new EventSink.CountPatch(2, T5, "m")));
			assertThat(notFound.isNotFound()).isTrue();
			assertThat(notFound.getMessage()).isEqualTo("HTTP 404 NotFound: events \"name\" not found");
			EventSinkException exists = catchThrowableOfType(EventSinkException.class, () -> sink.create(event()));
			assertThat(exists.isAlreadyExists()).isTrue();
			EventSinkException garbage = catchThrowableOfType(EventSinkException.class, () -> sink.create(event()));
			assertThat(garbage.kind()).isEqualTo(EventSinkException.Kind.UNEXPECTED_RESPONSE);
			assertThat(garbage.isRetryable()).isTrue();
		}
	}

	@Test
	void answersAreParsedLenientlyLikeClientGoButMustBeAnEvent() throws Exception {
		String fromANewerServer = "{\"kind\":\"Event\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"web-0.1\","
				+ "\"namespace\":\"ns\",\"resourceVersion\":\"7\",\"managedFields\":[{\"manager\":\"x\"}]},"
				+ "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"web-0\"},\"count\":3,"
				+ "\"aFieldOfKubernetes2.0\":{\"nested\":true},\"lastTimestamp\":\"2026-11-30T12:00:05Z\"}";
		try (StubApiServer server = new StubApiServer()) {
			server.answer(new StubApiServer.Answer(201, null, fromANewerServer),
					new StubApiServer.Answer(201, null, "{\"kind\":\"Status\"}"));
			Sink<CoreV1Event, EventSink.CountPatch> sink = sink(server.client());
			CoreV1Event stored = sink.create(event());
			assertThat(stored.getMetadata().getName()).isEqualTo("web-0.1");
			assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("7");
			assertThat(stored.getMetadata().getManagedFields()).as("skipped").isNullOrEmpty();
			assertThat(stored.getCount()).isEqualTo(3);
			assertThat(stored.getLastTimestamp()).isEqualTo(T5);
			EventSinkException notAnEvent = catchThrowableOfType(EventSinkException.class, () -> sink.create(event()));
			assertThat(notAnEvent.kind()).isEqualTo(EventSinkException.Kind.UNEXPECTED_RESPONSE);
		}
	}

	@Test
	void deadConnectionIsATransportFailure() throws Exception {
		ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + closedPort());
		Sink<CoreV1Event, EventSink.CountPatch> sink = sink(client);
		EventSinkException create = catchThrowableOfType(EventSinkException.class, () -> sink.create(event()));
		assertThat(create.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
		assertThat(create.isRetryable()).isTrue();
		assertThat(create.getMessage()).startsWith("Transport failure: ConnectException");
		EventSinkException patch = catchThrowableOfType(EventSinkException.class,
				() -> sink.patch(event(), new EventSink.CountPatch(2, T5, "m")));
		assertThat(patch.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
	}

	/**
	 * A CREATE is sent without OkHttp's own repeat of a failed connection (it could store an Event twice unseen),
	 * except when the server did not process it: a refused stream or a GOAWAY before the stream began is repeated
	 * at once, 4 times at most; a connection lost after the POST reached the server, or a PATCH's failure, is not repeated here.
	 */
	@Test
	void aCreateTheServerDidNotProcessIsRepeatedAtOnceAndOneItMayHaveStoredIsNot() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			Deque<IOException> failures = new ArrayDeque<>();
			ApiClient client = server.client();
			client.setHttpClient(client.getHttpClient().newBuilder().addNetworkInterceptor((chain) -> {
				IOException failure = failures.poll();
				if (failure instanceof StreamResetException || failure instanceof ConnectionShutdownException) {
					throw failure;
				}
				Response response = chain.proceed(chain.request());
				if (failure != null) {
					response.close();
					throw failure;
				}
				return response;
			}).build());
			Sink<CoreV1Event, EventSink.CountPatch> sink = sink(client);

			failures.add(new StreamResetException(ErrorCode.REFUSED_STREAM));
			assertThat(sink.create(event()).getMetadata().getResourceVersion()).isEqualTo("7");
			failures.add(new ConnectionShutdownException());
			assertThat(sink.create(event()).getMetadata().getResourceVersion()).isEqualTo("7");
			assertThat(server.requests()).hasToString("[POST /api/v1/namespaces/ns/events, "
					+ "POST /api/v1/namespaces/ns/events]");

			failures.addAll(List.of(new StreamResetException(ErrorCode.REFUSED_STREAM), new ConnectionShutdownException(),
					new StreamResetException(ErrorCode.REFUSED_STREAM), new StreamResetException(ErrorCode.REFUSED_STREAM)));
			assertThat(sink.create(event()).getMetadata().getResourceVersion()).isEqualTo("7");
			for (int i = 0; i <= 4; i++) {
				failures.add(new StreamResetException(ErrorCode.REFUSED_STREAM));
			}
			EventSinkException fiveTimes = catchThrowableOfType(EventSinkException.class, () -> sink.create(event()));
			assertThat(fiveTimes.getMessage()).isEqualTo("Transport failure: StreamResetException: stream was reset: "
					+ "REFUSED_STREAM");
			failures.add(new StreamResetException(ErrorCode.CANCEL));
			EventSinkException cancelled = catchThrowableOfType(EventSinkException.class, () -> sink.create(event()));
			assertThat(cancelled.getMessage()).endsWith("stream was reset: CANCEL");
			failures.add(new IOException("unexpected end of stream"));
			EventSinkException lost = catchThrowableOfType(EventSinkException.class, () -> sink.create(event()));
			assertThat(lost.getMessage()).isEqualTo("Transport failure: IOException: unexpected end of stream");
			assertThat(server.requests()).as("the POST that may have been stored reached the server once").hasSize(4);
			failures.add(new StreamResetException(ErrorCode.REFUSED_STREAM));
			EventSinkException patch = catchThrowableOfType(EventSinkException.class,
					() -> sink.patch(event(), new EventSink.CountPatch(2, T5, "m")));
			assertThat(patch.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
			assertThat(failures).isEmpty();
		}
	}

	@Test
	void eventWithoutNamespaceOrNameCannotBeBuilt() throws Exception {
		ApiClient client = new ApiClient().setBasePath("http://127.0.0.1:" + closedPort());
		Sink<CoreV1Event, EventSink.CountPatch> sink = sink(client);
		CoreV1Event noNamespace = event();
		noNamespace.getMetadata().setNamespace(null);
		EventSinkException ex = catchThrowableOfType(EventSinkException.class, () -> sink.create(noNamespace));
		assertThat(ex.kind()).isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
		assertThat(ex.isRetryable()).isFalse();
		CoreV1Event noName = event();
		noName.getMetadata().setName(null);
		ex = catchThrowableOfType(EventSinkException.class, () -> sink.patch(noName, new EventSink.CountPatch(2, T5, "m")));
		assertThat(ex.kind()).isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
	}

	@Test
	void abortCancelsACallToAFrozenServerAndFailsLaterCallsAtOnce() throws Exception {
		CountDownLatch frozen = new CountDownLatch(1);
		try (StubApiServer server = new StubApiServer()) {
			server.holdAnswersUntil(frozen);
			Sink<CoreV1Event, EventSink.CountPatch> sink = sink(server.client());
			CompletableFuture<EventSinkException> call = CompletableFuture.supplyAsync(() -> {
				try {
					sink.create(event());
					return null;
				}
				catch (EventSinkException ex) {
					return ex;
				}
			});
			await().atMost(Duration.ofSeconds(10)).until(() -> server.requests().size() == 1);
			sink.abort();
			EventSinkException failure = call.get(10, TimeUnit.SECONDS);
			assertThat(frozen.getCount()).as("the server never answered").isEqualTo(1);
			assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
			EventSinkException later = catchThrowableOfType(EventSinkException.class, () -> sink.create(event()));
			assertThat(later.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
			assertThat(later.getMessage()).contains("sink aborted by the shutdown deadline");
			assertThat(server.requests()).hasSize(1);
		}
	}

	@Test
	void statusBodyGivesReasonAndNamespaceTerminating() {
		String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"events \\\"x\\\" is forbidden: unable to create new content in namespace gone because it is being terminated\","
				+ "\"reason\":\"Forbidden\",\"details\":{\"name\":\"x\",\"kind\":\"events\",\"causes\":[{\"reason\":\"NamespaceTerminating\",\"message\":\"namespace gone is being terminated\",\"field\":\"metadata.namespace\"}]},\"code\":403}";
		EventSinkException ex = EventSinkException.of(new ApiException(403, Map.of(), body));
		assertThat(ex.kind()).isEqualTo(EventSinkException.Kind.HTTP_STATUS);
		assertThat(ex.statusCode()).isEqualTo(403);
		assertThat(ex.statusReason()).isEqualTo("Forbidden");
		assertThat(ex.namespaceTerminating()).isTrue();
		assertThat(ex.getMessage()).startsWith("HTTP 403 Forbidden: events \"x\" is forbidden");
		assertThat(Sink.RequestListener.resultOf(ex)).isEqualTo("client_error");
	}

	@Test
	void alreadyExistsAndNotFoundAreRecognised() {
		EventSinkException exists = EventSinkException.of(new ApiException(409, Map.of(),
				"{\"kind\":\"Status\",\"reason\":\"AlreadyExists\",\"code\":409}"));
		assertThat(exists.isAlreadyExists()).isTrue();
		assertThat(exists.namespaceTerminating()).isFalse();
		EventSinkException notFound = EventSinkException.of(new ApiException(404, Map.of(), "not json"));
		assertThat(notFound.isNotFound()).isTrue();
		assertThat(notFound.statusReason()).isEmpty();
		assertThat(notFound.isRetryable()).isFalse();
		assertThat(Sink.RequestListener.resultOf(EventSinkException.of(new ApiException(503, Map.of(), ""))))
			.isEqualTo("server_error");
	}

}
