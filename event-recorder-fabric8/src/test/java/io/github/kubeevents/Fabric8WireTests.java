package io.github.kubeevents;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeevents.fabric8.Fabric8EventsClient;
import io.github.kubeevents.fabric8.Fabric8TestClients;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The fabric8 sinks on the wire, beside the official ones: for the same event both clients send the same method,
 * path, content type and body, byte for byte (captured by one stub API server); and the fabric8 sinks' failures
 * are the official sinks' error classes, with no retry of fabric8's own. The statuses are also proven against a
 * real kube-apiserver in the integration tests.
 */
class Fabric8WireTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final OffsetDateTime T5 = OffsetDateTime.of(2026, 11, 30, 12, 0, 5, 0, ZoneOffset.UTC);

	private KubernetesClient fabric8;

	@AfterEach
	void closeClient() {
		if (this.fabric8 != null) {
			this.fabric8.close();
		}
	}

	private EventsClient fabric8(String basePath) {
		Config config = new ConfigBuilder(Config.empty()).withMasterUrl(basePath).build();
		this.fabric8 = Fabric8TestClients.builder().withConfig(config).build();
		return Fabric8EventsClient.of(this.fabric8);
	}

	private static CoreV1Event coreEvent() {
		return TestEvents.event("Pulled", "quote \" unicode é <tag> & 'x'", TestEvents.ref("Pod", "p", "ns"));
	}

	/** An events.k8s.io/v1 Event as the recorder builds it, with a note the recorder cuts to 1024 bytes. */
	private static EventsV1Event eventsV1Event() {
		String note = "é".repeat(700);
		EventsV1Events.Result result = EventsV1Events.of(
				TestEvents.recorded("Pulled", note, TestEvents.object("Pod", "p", "ns")), note);
		assertThat(result.truncated()).isTrue();
		return result.event()
			.series(new EventsV1EventSeries().count(2).lastObservedTime(EventsV1Events.microTime(TestEvents.TIME)));
	}

	/** What one client's sink sends for {@code write}, captured by a fresh stub API server. */
	private List<StubApiServer.Request> sent(Function<String, EventsClient> client, SinkCall write,
			StubApiServer.Answer... answers) throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			server.answer(answers);
			write.call(client.apply(server.basePath()));
			return server.requests();
		}
	}

	private void assertSameRequests(SinkCall write, StubApiServer.Answer... answers) throws Exception {
		List<StubApiServer.Request> official = sent((base) -> EventsClient.of(new ApiClient().setBasePath(base)), write,
				answers);
		List<StubApiServer.Request> viaFabric8 = sent(this::fabric8, write, answers);
		assertThat(viaFabric8).hasSize(1).hasSameSizeAs(official);
		StubApiServer.Request expected = official.get(0);
		StubApiServer.Request actual = viaFabric8.get(0);
		assertThat(actual.method()).isEqualTo(expected.method());
		assertThat(actual.path()).isEqualTo(expected.path());
		assertThat(actual.contentType()).isEqualTo(expected.contentType());
		assertThat(actual.body()).isEqualTo(expected.body());
	}

	@Test
	void coreV1CreateIsTheOfficialRequestByteForByte() throws Exception {
		assertSameRequests((client) -> client.coreV1Sink(TIMEOUT).create(coreEvent()));
	}

	@Test
	void coreV1PatchIsTheOfficialRequestByteForByte() throws Exception {
		assertSameRequests((client) -> client.coreV1Sink(TIMEOUT)
			.patch(coreEvent(), new EventSink.CountPatch(3, T5, "new \" message é")));
	}

	@Test
	void eventsV1CreateWithATruncatedNoteAndASeriesIsTheOfficialRequestByteForByte() throws Exception {
		assertSameRequests((client) -> client.eventsV1Sink(TIMEOUT).create(eventsV1Event()));
	}

	@Test
	void eventsV1SeriesPatchIsTheOfficialRequestByteForByte() throws Exception {
		assertSameRequests((client) -> client.eventsV1Sink(TIMEOUT)
			.patch(eventsV1Event(), new EventsV1Sink.SeriesPatch(5, Instant.parse("2026-11-30T12:00:05.123456Z"))));
	}

	@Test
	void coreV1ReadOfTheDeterministicNamesModeIsTheOfficialRequest() throws Exception {
		assertSameRequests((client) -> {
			assertThat(client.coreV1Sink(TIMEOUT).supportsGet()).isTrue();
			assertThat(client.coreV1Sink(TIMEOUT).get("ns", "p.0123abcd").getCount()).isEqualTo(7);
		}, new StubApiServer.Answer(200, null, "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":"
				+ "{\"name\":\"p.0123abcd\",\"namespace\":\"ns\",\"resourceVersion\":\"42\"},\"count\":7}"));
	}

	@Test
	void eventsV1ReadOfTheDeterministicNamesModeIsTheOfficialRequest() throws Exception {
		assertSameRequests((client) -> {
			assertThat(client.eventsV1Sink(TIMEOUT).supportsGet()).isTrue();
			assertThat(client.eventsV1Sink(TIMEOUT).get("ns", "p.0123abcd").getSeries().getCount()).isEqualTo(3);
		}, new StubApiServer.Answer(200, null, "{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":"
				+ "{\"name\":\"p.0123abcd\",\"namespace\":\"ns\",\"resourceVersion\":\"42\"},"
				+ "\"eventTime\":\"2026-11-30T12:00:00.000000Z\",\"series\":{\"count\":3,"
				+ "\"lastObservedTime\":\"2026-11-30T12:00:05.000000Z\"}}"));
	}

	@Test
	void accessReviewIsTheOfficialRequestByteForByte() throws Exception {
		assertSameRequests((client) -> assertThat(client.eventsAllowed("", "create", "ns", TIMEOUT)).isTrue(),
				new StubApiServer.Answer(201, null, "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\","
						+ "\"metadata\":{},\"spec\":{\"resourceAttributes\":{\"namespace\":\"ns\",\"verb\":\"create\",\"resource\":\"events\"}},"
						+ "\"status\":{\"allowed\":true}}"));
	}

	@Test
	void discoveryIsAGetOfTheEventsGroupVersion() throws Exception {
		List<StubApiServer.Request> requests = sent(this::fabric8, (client) -> assertThat(client.servesEventsV1(TIMEOUT)).isTrue());
		assertThat(requests).singleElement().satisfies((request) -> {
			assertThat(request.method()).isEqualTo("GET");
			assertThat(request.path()).isEqualTo("/apis/events.k8s.io/v1/");
		});
		try (StubApiServer server = new StubApiServer()) {
			server.answer(new StubApiServer.Answer(404, null), new StubApiServer.Answer(503, null));
			EventsClient client = fabric8(server.basePath());
			assertThat(client.servesEventsV1(TIMEOUT)).isFalse();
			EventSinkException failed = catchThrowableOfType(EventSinkException.class, () -> client.servesEventsV1(TIMEOUT));
			assertThat(failed.statusCode()).isEqualTo(503);
			assertThat(ApiChoice.choose(io.github.kubeevents.sink.EventsApi.AUTO, client, TIMEOUT).reason())
				.isEqualTo("auto: the API server serves events.k8s.io/v1");
		}
	}

	@Test
	void httpStatusesAreTheOfficialErrorClassesAndFabric8DoesNotRetry() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			server.answer(new StubApiServer.Answer(404, null,
					"{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"events \\\"name\\\" not found\",\"reason\":\"NotFound\",\"code\":404}"),
					new StubApiServer.Answer(409, null,
							"{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"AlreadyExists\",\"code\":409}"),
					new StubApiServer.Answer(403, null,
							"{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\",\"code\":403,"
									+ "\"details\":{\"causes\":[{\"reason\":\"NamespaceTerminating\"}]}}"),
					new StubApiServer.Answer(422, null), new StubApiServer.Answer(429, "7"),
					new StubApiServer.Answer(500, null), new StubApiServer.Answer(503, "120"),
					new StubApiServer.Answer(200, null, "this is not an Event"));
			Sink<CoreV1Event, EventSink.CountPatch> sink = fabric8(server.basePath()).coreV1Sink(TIMEOUT);
			EventSinkException notFound = catchThrowableOfType(EventSinkException.class,
					() -> sink.patch(coreEvent(), new EventSink.CountPatch(2, T5, "m")));
			assertThat(notFound.isNotFound()).isTrue();
			assertThat(notFound.getMessage()).isEqualTo("HTTP 404 NotFound: events \"name\" not found");
			assertThat(catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent())).isAlreadyExists())
				.isTrue();
			EventSinkException forbidden = catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent()));
			assertThat(forbidden.isForbidden()).isTrue();
			assertThat(forbidden.namespaceTerminating()).isTrue();
			EventSinkException invalid = catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent()));
			assertThat(invalid.kind()).isEqualTo(EventSinkException.Kind.HTTP_STATUS);
			assertThat(invalid.statusCode()).isEqualTo(422);
			assertThat(invalid.isRetryable()).isFalse();
			EventSinkException throttled = catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent()));
			assertThat(throttled.statusCode()).isEqualTo(429);
			assertThat(throttled.retryAfter()).isEqualTo(Duration.ofSeconds(7));
			EventSinkException serverError = catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent()));
			assertThat(serverError.statusCode()).isEqualTo(500);
			assertThat(serverError.retryAfter()).isNull();
			assertThat(catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent())).retryAfter())
				.as("capped").isEqualTo(EventSinkException.MAX_RETRY_AFTER);
			EventSinkException garbage = catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent()));
			assertThat(garbage.kind()).isEqualTo(EventSinkException.Kind.UNEXPECTED_RESPONSE);
			assertThat(garbage.isRetryable()).isTrue();
			assertThat(server.requests()).as("one request per call: fabric8's own retries are off").hasSize(8);
		}
	}

	@Test
	void deadConnectionIsATransportFailure() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		Sink<CoreV1Event, EventSink.CountPatch> sink = fabric8("http://127.0.0.1:" + port).coreV1Sink(TIMEOUT);
		EventSinkException failure = catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent()));
		assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
		if (Fabric8TestClients.httpClient().equals("jdk")) {
			// the JDK client's ConnectException and its ClosedChannelException cause have no message: the API
			// server's address says where (it said "ConnectException: null")
			assertThat(failure.getMessage()).isEqualTo(
					"Transport failure: IOException: ConnectException (no message) from http://127.0.0.1:" + port + "/");
		}
		else {
			// Vert.x (Netty) names the address itself
			assertThat(failure.getMessage())
				.isEqualTo("Transport failure: AnnotatedConnectException: Connection refused: /127.0.0.1:" + port);
		}
	}

	@Test
	void eventWithoutNamespaceOrNameCannotBeBuilt() throws Exception {
		try (StubApiServer server = new StubApiServer()) {
			Sink<CoreV1Event, EventSink.CountPatch> sink = fabric8(server.basePath()).coreV1Sink(TIMEOUT);
			CoreV1Event noNamespace = coreEvent();
			noNamespace.getMetadata().setNamespace(null);
			assertThat(catchThrowableOfType(EventSinkException.class, () -> sink.create(noNamespace)).kind())
				.isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
			CoreV1Event noName = coreEvent();
			noName.getMetadata().setName(null);
			assertThat(catchThrowableOfType(EventSinkException.class,
					() -> sink.patch(noName, new EventSink.CountPatch(2, T5, "m"))).kind())
				.isEqualTo(EventSinkException.Kind.REQUEST_CONSTRUCTION);
			assertThat(server.requests()).isEmpty();
		}
	}

	@Test
	void aFrozenServerCostsTheRequestTimeLimit() throws Exception {
		CountDownLatch frozen = new CountDownLatch(1);
		try (StubApiServer server = new StubApiServer()) {
			server.holdAnswersUntil(frozen);
			Sink<CoreV1Event, EventSink.CountPatch> sink = fabric8(server.basePath()).coreV1Sink(Duration.ofMillis(300));
			EventSinkException failure = catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent()));
			assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
			assertThat(failure.getMessage()).isEqualTo("Transport failure: InterruptedIOException: timeout");
		}
		finally {
			frozen.countDown();
		}
	}

	@Test
	void abortCancelsACallToAFrozenServerAndFailsLaterCallsAtOnce() throws Exception {
		CountDownLatch frozen = new CountDownLatch(1);
		try (StubApiServer server = new StubApiServer()) {
			server.holdAnswersUntil(frozen);
			Sink<CoreV1Event, EventSink.CountPatch> sink = fabric8(server.basePath()).coreV1Sink(Duration.ZERO);
			CompletableFuture<EventSinkException> call = CompletableFuture
				.supplyAsync(() -> catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent())));
			await().atMost(5, TimeUnit.SECONDS).until(() -> server.requests().size() == 1);
			sink.abort();
			EventSinkException cancelled = call.get(5, TimeUnit.SECONDS);
			assertThat(cancelled.kind()).isEqualTo(EventSinkException.Kind.TRANSPORT);
			EventSinkException later = catchThrowableOfType(EventSinkException.class, () -> sink.create(coreEvent()));
			assertThat(later.getMessage()).isEqualTo("Transport failure: IOException: sink aborted by the shutdown deadline");
			sink.resume();
			frozen.countDown();
			assertThat(sink.create(coreEvent()).getMetadata().getResourceVersion()).isEqualTo("7");
		}
		finally {
			frozen.countDown();
		}
	}

	@FunctionalInterface
	interface SinkCall {

		void call(EventsClient client) throws Exception;

	}

}
