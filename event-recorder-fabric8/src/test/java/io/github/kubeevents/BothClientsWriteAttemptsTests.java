package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Stream;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeevents.fabric8.Fabric8EventsClient;
import io.github.kubeevents.fabric8.Fabric8TestClients;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The one write path of a sink's run ({@link WriteAttempts} over {@link SinkRequests}) over either client's sink, against the stub API server (a real one cannot be
 * made to throttle on demand): a 429/503 with {@code Retry-After} is repeated after the server's wait, ten repeats
 * at most; a 422, and a 500 without {@code Retry-After} (client-go's StatusError), are dropped after one request;
 * an unreadable answer and a transport failure are retried on the policy. The same requests and the same waits for
 * both clients.
 */
class BothClientsWriteAttemptsTests {

	private static final TickingClock CLOCK = TickingClock.fixed(Instant.parse("2026-11-30T12:00:00Z"));

	private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

	private final EventCounters counters = new EventCounters(CLOCK, Duration.ofSeconds(10));

	private StubApiServer server;

	private KubernetesClient fabric8;

	static Stream<Arguments> clients() {
		return Stream.of(Arguments.of("official"), Arguments.of("fabric8"));
	}

	@BeforeEach
	void start() throws Exception {
		this.server = new StubApiServer();
	}

	@AfterEach
	void stop() {
		this.server.close();
		if (this.fabric8 != null) {
			this.fabric8.close();
		}
	}

	private Sink<CoreV1Event, EventSink.CountPatch> sink(String client) {
		return sink(client, this.server.basePath());
	}

	private Sink<CoreV1Event, EventSink.CountPatch> sink(String client, String basePath) {
		Function<String, Sink<CoreV1Event, EventSink.CountPatch>> official = (base) -> EventsClient.of(new ApiClient().setBasePath(base))
			.coreV1Sink(Duration.ofSeconds(5));
		if (client.equals("official")) {
			return official.apply(basePath);
		}
		Config config = new ConfigBuilder(Config.empty()).withMasterUrl(basePath).build();
		this.fabric8 = Fabric8TestClients.builder().withConfig(config).build();
		return Fabric8EventsClient.of(this.fabric8).coreV1Sink(Duration.ofSeconds(5));
	}

	/** A started run of {@code sink}, whose writes the test makes on its own thread. */
	private SinkRun<CoreV1Event, EventSink.CountPatch> run(RetryPolicy policy, Sink<CoreV1Event, EventSink.CountPatch> sink) {
		SinkRun<CoreV1Event, EventSink.CountPatch> run = new SinkRun<>("test", EventsApi.CORE_V1, sink, "",
				TestSinks.settings(policy, this.sleeps::add, (api, verb, result, d) -> {
				}, CLOCK), this.counters, new SinkWritersTests.NoTarget());
		run.start();
		return run;
	}

	/** One write of {@code recorded}: a CREATE of {@link #event()}, with the run's retries. */
	private static WriteAttempts.State create(SinkRun<CoreV1Event, EventSink.CountPatch> run, RecordedEvent recorded) {
		return run.attempts().write(recorded, recorded, 1, (write, context) -> run.requests().create(context, event())).state();
	}

	private List<String> requests() {
		return this.server.requests().stream().map(StubApiServer.Request::toString).toList();
	}

	private static CoreV1Event event() {
		return TestEvents.event("R", "m", TestEvents.ref("Pod", "p", "ns"));
	}

	@ParameterizedTest
	@MethodSource("clients")
	void throttledRequestIsRepeatedAfterTheServersDelay(String client) throws Exception {
		Sink<CoreV1Event, EventSink.CountPatch> sink = sink(client);
		this.server.answer(new StubApiServer.Answer(429, "2"), new StubApiServer.Answer(503, "1"));
		CoreV1Event stored = run(RetryPolicy.defaults(), sink).requests().create(new WriteContext(null), event());
		assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("7");
		assertThat(requests()).containsExactly("POST /api/v1/namespaces/ns/events", "POST /api/v1/namespaces/ns/events",
				"POST /api/v1/namespaces/ns/events");
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(1));
	}

	@ParameterizedTest
	@MethodSource("clients")
	void givesUpAfterTenRepeats(String client) {
		Sink<CoreV1Event, EventSink.CountPatch> sink = sink(client);
		for (int i = 0; i < 11; i++) {
			this.server.answer(new StubApiServer.Answer(429, "1"));
		}
		EventSinkException failure = catchThrowableOfType(EventSinkException.class,
				() -> run(RetryPolicy.defaults(), sink).requests().create(new WriteContext(null), event()));
		assertThat(failure.kind()).isEqualTo(EventSinkException.Kind.UNAVAILABLE);
		assertThat(requests()).hasSize(11);
		assertThat(this.sleeps).hasSize(10).containsOnly(Duration.ofSeconds(1));
	}

	@ParameterizedTest
	@MethodSource("clients")
	void anInvalidEventIsDroppedAfterOneRequest(String client) {
		Sink<CoreV1Event, EventSink.CountPatch> sink = sink(client);
		SinkRun<CoreV1Event, EventSink.CountPatch> run = run(RetryPolicy.defaults(), sink);
		this.server.answer(new StubApiServer.Answer(422, null));
		RecordedEvent recorded = TestEvents.recorded("R", "m", TestEvents.object("Pod", "p", "ns"));
		assertThat(create(run, recorded))
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(requests()).hasSize(1);
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(1);
		assertThat(this.sleeps).isEmpty();
	}

	@ParameterizedTest
	@MethodSource("clients")
	void aServerErrorWithoutRetryAfterIsDroppedAndAnUnreadableAnswerRetried(String client) {
		Sink<CoreV1Event, EventSink.CountPatch> sink = sink(client);
		SinkRun<CoreV1Event, EventSink.CountPatch> run = run(new RetryPolicy(3, Duration.ofMillis(100)), sink);
		this.server.answer(new StubApiServer.Answer(500, null, "this is not a Status"),
				new StubApiServer.Answer(200, null, "not an Event either"));
		RecordedEvent recorded = TestEvents.recorded("R", "m", TestEvents.object("Pod", "p", "ns"));
		// a 500 without Retry-After is a refusal (client-go: a StatusError), dropped at once
		assertThat(create(run, recorded))
			.isEqualTo(WriteAttempts.State.DROPPED);
		// an unreadable answer is retried: the third request gets the stub's default Event
		assertThat(create(run, recorded))
			.isEqualTo(WriteAttempts.State.WRITTEN);
		assertThat(requests()).hasSize(3);
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(1);
		assertThat(this.sleeps).hasSize(1);
	}

	@ParameterizedTest
	@MethodSource("clients")
	void aTransportFailureIsRetriedUntilTheAttemptsAreUsedUp(String client) throws Exception {
		int port;
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		Sink<CoreV1Event, EventSink.CountPatch> sink = sink(client, "http://127.0.0.1:" + port);
		SinkRun<CoreV1Event, EventSink.CountPatch> run = run(new RetryPolicy(3, Duration.ofMillis(100)), sink);
		RecordedEvent recorded = TestEvents.recorded("R", "m", TestEvents.object("Pod", "p", "ns"));
		assertThat(create(run, recorded))
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.counters.dropped(DropReason.RETRIES_EXHAUSTED)).isEqualTo(1);
		assertThat(run.writes().retried()).isEqualTo(2);
		assertThat(this.sleeps).hasSize(2);
	}

}
