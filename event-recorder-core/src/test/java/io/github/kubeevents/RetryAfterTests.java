package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Retry-After on 429/5xx, as client-go's REST layer does (up to 10 repeats, each wait capped at 60 s), in the one
 * place that makes requests ({@link WriteAttempts}), against a stub server: a real API server cannot be made to
 * throttle (API Priority and Fairness) on demand. A Retry-After holds back every writer of the sink.
 */
class RetryAfterTests {

	private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

	private final TickingClock clock = TickingClock.fixed(Instant.parse("2026-11-30T12:00:00Z"));

	private StubApiServer server;

	private Sink<CoreV1Event, EventSink.CountPatch> sink;

	@BeforeEach
	void start() throws Exception {
		this.server = new StubApiServer();
		this.sink = EventsClient.of(this.server.client()).coreV1Sink(Duration.ofSeconds(5));
	}

	@AfterEach
	void stop() {
		this.server.close();
	}

	private SinkRun<CoreV1Event, EventSink.CountPatch> attempts(Sleeper sleeper) {
		SinkRun<CoreV1Event, EventSink.CountPatch> run = TestSinks.run(
				TestSinks.settings(RetryPolicy.defaults(), sleeper, (api, verb, result, duration) -> {
				}, this.clock), this.sink, new SinkWritersTests.NoTarget());
		run.start();
		return run;
	}

	private SinkRun<CoreV1Event, EventSink.CountPatch> attempts() {
		return attempts(this.sleeps::add);
	}

	private CoreV1Event create(SinkRun<CoreV1Event, EventSink.CountPatch> run) throws EventSinkException {
		return run.requests().create(new WriteContext(null), event());
	}

	private static CoreV1Event event() {
		return TestEvents.event("R", "m", TestEvents.ref("Pod", "p", "ns"));
	}

	private List<String> requests() {
		return this.server.requests().stream().map(StubApiServer.Request::toString).toList();
	}

	@Test
	void throttledRequestIsRepeatedAfterTheServersDelay() throws Exception {
		this.server.answer(new StubApiServer.Answer(429, "2"), new StubApiServer.Answer(503, "1"));
		CoreV1Event stored = create(attempts());
		assertThat(stored.getMetadata().getResourceVersion()).isEqualTo("7");
		assertThat(requests()).containsExactly("POST /api/v1/namespaces/ns/events", "POST /api/v1/namespaces/ns/events",
				"POST /api/v1/namespaces/ns/events");
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(1));
	}

	@Test
	void patchIsRepeatedToo() throws Exception {
		this.server.answer(new StubApiServer.Answer(429, "1"), new StubApiServer.Answer(200, null));
		attempts().requests().patch(new WriteContext(null), event(),
				new EventSink.CountPatch(2, OffsetDateTime.parse("2026-11-30T12:00:00Z"), "m"));
		assertThat(requests()).containsExactly("PATCH /api/v1/namespaces/ns/events/name",
				"PATCH /api/v1/namespaces/ns/events/name");
		assertThat(this.server.requests()).extracting(StubApiServer.Request::contentType)
			.containsOnly("application/strategic-merge-patch+json");
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(1));
	}

	@Test
	void aRetryAfterHoldsBackTheSinksOtherWritersToo() throws Exception {
		SinkRun<CoreV1Event, EventSink.CountPatch> attempts = attempts();
		this.server.answer(new StubApiServer.Answer(429, "30"));
		CompletableFuture.supplyAsync(() -> {
			try {
				return create(attempts);
			}
			catch (EventSinkException ex) {
				throw new IllegalStateException(ex);
			}
		}).get(10, TimeUnit.SECONDS);
		create(attempts);
		assertThat(requests()).hasSize(3);
		// the first writer waits what the server asked; the next request, from another thread, what is left of it
		assertThat(this.sleeps).hasSize(2);
		assertThat(this.sleeps.get(0)).isEqualTo(Duration.ofSeconds(30));
		assertThat(this.sleeps.get(1)).isBetween(Duration.ofSeconds(20), Duration.ofSeconds(30));
	}

	@Test
	void withoutRetryAfterTheStatusIsReturnedAtOnce() {
		this.server.answer(new StubApiServer.Answer(503, null));
		EventSinkException ex = catchThrowableOfType(EventSinkException.class, () -> create(attempts()));
		assertThat(ex.statusCode()).isEqualTo(503);
		assertThat(ex.isRetryable()).isFalse();
		assertThat(requests()).hasSize(1);
		assertThat(this.sleeps).isEmpty();
	}

	@Test
	void givesUpAfterTenRepeatsAndCapsTheWait() {
		for (int i = 0; i < 11; i++) {
			this.server.answer(new StubApiServer.Answer(429, "3600"));
		}
		EventSinkException ex = catchThrowableOfType(EventSinkException.class, () -> create(attempts()));
		assertThat(ex.statusCode()).isEqualTo(429);
		assertThat(ex.statusReason()).isEqualTo("TooManyRequests");
		// still busy: the recorder retries it on its retry policy instead of dropping it (client-go drops it)
		assertThat(ex.kind()).isEqualTo(EventSinkException.Kind.UNAVAILABLE);
		assertThat(ex.isRetryable()).isTrue();
		assertThat(requests()).hasSize(11);
		assertThat(this.sleeps).hasSize(10).containsOnly(Duration.ofSeconds(60));
	}

	@Test
	void clientErrorsAreNeverRepeatedEvenWithRetryAfter() {
		this.server.answer(new StubApiServer.Answer(403, "1"));
		EventSinkException ex = catchThrowableOfType(EventSinkException.class, () -> create(attempts()));
		assertThat(ex.statusCode()).isEqualTo(403);
		assertThat(ex.retryAfter()).isNull();
		assertThat(requests()).hasSize(1);
	}

	@Test
	void unusableRetryAfterValuesAreNotHonoured() {
		SinkRun<CoreV1Event, EventSink.CountPatch> attempts = attempts();
		this.server.answer(new StubApiServer.Answer(503, "Wed, 21 Oct 2026 07:28:00 GMT"));
		assertThat(catchThrowableOfType(EventSinkException.class, () -> create(attempts)).statusCode()).isEqualTo(503);
		this.server.answer(new StubApiServer.Answer(503, "-1"));
		assertThat(catchThrowableOfType(EventSinkException.class, () -> create(attempts)).statusCode()).isEqualTo(503);
		assertThat(requests()).hasSize(2);
		assertThat(this.sleeps).isEmpty();
	}

	@Test
	void cancelEndsAWaitAndFailsTheCallWithItsStatus() {
		@SuppressWarnings("unchecked")
		SinkRun<CoreV1Event, EventSink.CountPatch>[] self = new SinkRun[1];
		self[0] = attempts((duration) -> {
			this.sleeps.add(duration);
			self[0].cancel();
		});
		this.server.answer(new StubApiServer.Answer(429, "5"));
		EventSinkException ex = catchThrowableOfType(EventSinkException.class, () -> create(self[0]));
		assertThat(ex.statusCode()).isEqualTo(429);
		assertThat(ex.kind()).isEqualTo(EventSinkException.Kind.HTTP_STATUS);
		assertThat(requests()).hasSize(1);
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(5));
	}

	@Test
	void cancelWakesTheRealSleeper() throws Exception {
		SinkRun<CoreV1Event, EventSink.CountPatch> attempts = attempts(Sleeper.real());
		this.server.answer(new StubApiServer.Answer(429, "3600"));
		CompletableFuture<Throwable> call = CompletableFuture.supplyAsync(() -> {
			try {
				create(attempts);
				return null;
			}
			catch (EventSinkException ex) {
				return ex;
			}
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> this.server.requests().size() == 1);
		attempts.cancel();
		Throwable failure = call.get(10, TimeUnit.SECONDS);
		assertThat(failure).isInstanceOfSatisfying(EventSinkException.class,
				(ex) -> assertThat(ex.statusCode()).isEqualTo(429));
		assertThat(requests()).hasSize(1);
	}

}
