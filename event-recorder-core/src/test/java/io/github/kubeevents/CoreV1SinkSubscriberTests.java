package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core/v1 sink subscriber: client-go's TestWriteEventError, TestUpdateExpiredEvent, TestCancelEvent and the
 * Create → Patch(2) → Patch(3) sequence of TestEventf.
 */
class CoreV1SinkSubscriberTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private final TickingClock clock = TickingClock.fixed(START);

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

	private final Sleeper recordingSleeper = this.sleeps::add;

	private final ScriptedSink sink = new ScriptedSink();

	private final List<String> requests = new CopyOnWriteArrayList<>();

	private CoreV1SinkSubscriber recording(RetryPolicy policy) {
		return recording(policy, this.recordingSleeper);
	}

	private final List<CoreV1SinkSubscriber> recordings = new CopyOnWriteArrayList<>();

	@AfterEach
	void stopWriters() {
		this.recordings.forEach((recording) -> recording.end(false));
	}

	/** Handles one event and waits until its writes are done (the writes run on the sink's writer thread). */
	private static void handle(CoreV1SinkSubscriber recording, RecordedEvent event) {
		recording.onEvent(event);
		Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> TestSinks.pending(recording) == 0);
	}

	private CoreV1SinkSubscriber recording(RetryPolicy policy, Sleeper sleeper) {
		return recording(policy, this.sink, sleeper);
	}

	private CoreV1SinkSubscriber recording(RetryPolicy policy, EventSink sink, Sleeper sleeper) {
		return recording(policy, sink, sleeper, EventShape.CLIENT_GO);
	}

	private CoreV1SinkSubscriber recording(RetryPolicy policy, EventSink sink, Sleeper sleeper, EventShape shape) {
		SinkSettings settings = TestSinks.settings(policy, sleeper,
				(api, verb, result, duration) -> this.requests.add(api + " " + verb + " " + result), this.clock, shape);
		CoreV1SinkSubscriber recording = new CoreV1SinkSubscriber("sink", sink,
				new ApiChoice(EventsApi.CORE_V1, "configured"), settings, this.counters);
		TestSinks.start(recording);
		this.recordings.add(recording);
		return recording;
	}

	private RecordedEvent event(String reason, String message, InvolvedObject regarding) {
		return new RecordedEvent(regarding, null, EventType.NORMAL, reason, null, message, Map.of(), TestEvents.SOURCE,
				this.clock.instant());
	}

	private RecordedEvent pod() {
		return event("Started", "Started container", TestEvents.object("Pod", "foo", "baz"));
	}

	private static EventSinkException transport() {
		return EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null);
	}

	private long totalDropped() {
		return this.counters.totalDropped();
	}

	static List<Arguments> errorClasses() {
		return List.of(
				Arguments.of("request construction",
						EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION, "bad", null), 1,
						DropReason.INVALID_INPUT, "invalid_request"),
				Arguments.of("HTTP status", EventSinkException.status(500, "InternalError", "boom"), 1,
						DropReason.REJECTED_BY_SERVER, "server_error"),
				Arguments.of("unexpected object",
						EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE, "garbage", null), 12,
						DropReason.RETRIES_EXHAUSTED, "unexpected_response"),
				Arguments.of("transport", transport(), 12, DropReason.RETRIES_EXHAUSTED, "transport_error"),
				Arguments.of("still busy after Retry-After",
						EventSinkException.unavailable(EventSinkException.status(503, "ServiceUnavailable", "busy")), 12,
						DropReason.RETRIES_EXHAUSTED, "server_error"));
	}

	@ParameterizedTest(name = "{0} -> {2} attempt(s)")
	@MethodSource("errorClasses")
	void attemptCountsPerErrorClass(String name, EventSinkException failure, int attempts, DropReason reason,
			String result) {
		for (int i = 0; i < 20; i++) {
			this.sink.failNext(failure);
		}
		CoreV1SinkSubscriber recording = recording(new RetryPolicy(12, Duration.ZERO));
		handle(recording, pod());
		assertThat(this.sink.calls()).hasSize(attempts);
		assertThat(this.counters.dropped(reason)).isEqualTo(1);
		assertThat(totalDropped()).isEqualTo(1);
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(0, 0, attempts - 1, 1));
		assertThat(this.requests).hasSize(attempts).containsOnly("core/v1 create " + result);
	}

	@Test
	void failureOnceThenSuccessTakesTwoAttempts() {
		this.sink.failNext(transport());
		CoreV1SinkSubscriber recording = recording(new RetryPolicy(12, Duration.ZERO));
		handle(recording, pod());
		assertThat(this.sink.calls()).hasSize(2);
		assertThat(this.sink.stored()).hasSize(1);
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(1, 0, 1, 0));
		assertThat(totalDropped()).isZero();
		assertThat(this.requests).containsExactly("core/v1 create transport_error", "core/v1 create success");
	}

	@Test
	void aSinkThatThrowsARuntimeExceptionIsRetriedLikeAnUnclassifiedErrorAndTheEventWritten() {
		AtomicInteger throwsLeft = new AtomicInteger(2);
		EventSink throwing = new EventSink() {

			@Override
			public CoreV1Event create(CoreV1Event event) throws EventSinkException {
				if (throwsLeft.getAndDecrement() > 0) {
					throw new IllegalStateException("connection pool closed");
				}
				return CoreV1SinkSubscriberTests.this.sink.create(event);
			}

			@Override
			public CoreV1Event patch(CoreV1Event event, EventSink.CountPatch patch) throws EventSinkException {
				return CoreV1SinkSubscriberTests.this.sink.patch(event, patch);
			}

		};
		CoreV1SinkSubscriber recording = recording(new RetryPolicy(12, Duration.ZERO), throwing,
				this.recordingSleeper);
		handle(recording, pod());
		assertThat(this.sink.stored()).hasSize(1);
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(1, 0, 2, 0));
		assertThat(totalDropped()).isZero();
		assertThat(this.requests).containsExactly("core/v1 create unexpected_response",
				"core/v1 create unexpected_response", "core/v1 create success");
	}

	/** Whatever it throws (an Error of a missing class too), the attempt fails: retried, counted, told to health. */
	@Test
	void aSinkThatAlwaysThrowsCostsTheRetryLimitAndACountedDrop() {
		EventSink throwing = new EventSink() {

			private int calls;

			@Override
			public CoreV1Event create(CoreV1Event event) {
				if (++this.calls == 2) {
					throw new NoClassDefFoundError("broken/Sink");
				}
				throw new IllegalStateException("broken sink");
			}

			@Override
			public CoreV1Event patch(CoreV1Event event, EventSink.CountPatch patch) {
				throw new IllegalStateException("broken sink");
			}

		};
		CoreV1SinkSubscriber recording = recording(new RetryPolicy(3, Duration.ZERO), throwing, this.recordingSleeper);
		handle(recording, pod());
		assertThat(this.counters.dropped(DropReason.RETRIES_EXHAUSTED)).isEqualTo(1);
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(0, 0, 2, 1));
		assertThat(recording.current().health().read().failedInARow()).isEqualTo(3);
		assertThat(recording.current().health().read().lastFailure())
			.isEqualTo(new RecorderStats.Failure(START, "core/v1", "create", "unexpected_response",
					"The sink threw java.lang.IllegalStateException: broken sink", "", true));
	}

	@Test
	void aListenerThatThrowsChangesNothingAboutTheWrite() {
		SinkSettings settings = TestSinks.settings(new RetryPolicy(12, Duration.ZERO), this.recordingSleeper,
				(api, verb, result, duration) -> {
					throw new IllegalStateException("meter registry closed");
				}, this.clock);
		CoreV1SinkSubscriber recording = new CoreV1SinkSubscriber("sink", this.sink,
				new ApiChoice(EventsApi.CORE_V1, "configured"), settings, this.counters);
		TestSinks.start(recording);
		this.recordings.add(recording);
		try (LogCapture log = LogCapture.of(SinkRequests.class, Level.WARN)) {
			handle(recording, pod());
			handle(recording, pod());
			handle(recording, pod());
			assertThat(log.warnings()).singleElement()
				.asString()
				.startsWith("The sink request listener failed (logged once; the write is not affected)");
		}
		assertThat(this.sink.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "patch");
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(1, 2, 0, 0));
		assertThat(totalDropped()).isZero();
	}

	@Test
	void firstRetrySleepsAJitteredFractionLaterOnesTheFullSleep() {
		for (int i = 0; i < 4; i++) {
			this.sink.failNext(transport());
		}
		handle(recording(new RetryPolicy(12, Duration.ofSeconds(10))), pod());
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(10),
				Duration.ofSeconds(10));
		assertThat(this.sink.calls()).hasSize(5);
	}

	@Test
	void alreadyExistsAndNamespaceTerminatingAreDroppedWithoutRetryAndWithoutAWarning() {
		try (LogCapture log = LogCapture.of(EventCounters.class, Level.DEBUG)) {
			alreadyExistsAndNamespaceTerminatingAreDroppedWithoutRetry();
			this.sink.failNext(EventSinkException.status(422, "Invalid", "bad"));
			handle(recording(new RetryPolicy(12, Duration.ZERO)), event("Third", "x", TestEvents.object("Pod", "foo", "baz")));
			// the AlreadyExists: expected (DEBUG); the terminating namespace: a DEBUG and its one WARN per interval; the
			// 422: a refusal
			assertThat(log.lines()).extracting((line) -> line.getLevel().toString())
				.containsExactly("DEBUG", "DEBUG", "WARN", "WARN");
			assertThat(log.lines().get(0).getFormattedMessage())
				.isEqualTo("Dropped event (rejected_by_server): object=\"baz/foo\" kind=\"Pod\" type=\"Normal\""
						+ " reason=\"Started\": Server rejected event (will not retry!): exists");
			assertThat(log.warnings().get(0)).startsWith("Dropped event (rejected_by_server): namespace 'baz' is gone");
			assertThat(log.warnings().get(1)).startsWith("Dropped event (rejected_by_server): object=\"baz/foo\"")
				.contains("Server rejected event (will not retry!): bad");
		}
	}

	/**
	 * A first CREATE answered AlreadyExists is refused, as client-go's (another writer's Event has that name); a write
	 * into a terminating namespace is dropped at once. Neither is a failure of the recorder.
	 */
	@Test
	void alreadyExistsAndNamespaceTerminatingAreDroppedWithoutRetry() {
		this.sink.failNext(EventSinkException.status(409, "AlreadyExists", "exists"),
				new EventSinkException(EventSinkException.Kind.HTTP_STATUS, 403, "Forbidden", true, "terminating",
						null));
		CoreV1SinkSubscriber recording = recording(new RetryPolicy(12, Duration.ZERO));
		handle(recording, pod());
		handle(recording, event("Other", "x", TestEvents.object("Pod", "foo", "baz")));
		assertThat(this.sink.calls()).hasSize(2);
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(2);
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(0, 0, 0, 2));
		assertThat(recording.current().health().read().failedInARow()).as("neither is a failure of the recorder").isZero();
	}

	/**
	 * A CREATE that failed after the server may have stored it (a transport failure, an unreadable answer, a 5xx),
	 * then answered AlreadyExists on the next attempt under the same name: the lost CREATE's Event, written (client-go
	 * drops it). After a 429 (the server stored nothing) the same AlreadyExists is another's Event: refused.
	 */
	@Test
	void anAlreadyExistsAfterItsOwnLostCreateIsWrittenAfterAThrottledOneRefused() {
		this.sink.failNext(transport(), EventSinkException.status(409, "AlreadyExists", "exists"),
				EventSinkException.status(429, "TooManyRequests", "slow down"),
				EventSinkException.status(409, "AlreadyExists", "exists"));
		CoreV1SinkSubscriber recording = recording(new RetryPolicy(12, Duration.ZERO));
		handle(recording, pod());
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(1, 0, 1, 0));
		assertThat(recording.current().health().read().failedInARow()).as("written: the failure ended").isZero();
		assertThat(recording.current().health().read().lastWritten()).isEqualTo(START);
		handle(recording, event("Other", "x", TestEvents.object("Pod", "bar", "default")));
		assertThat(this.sink.calls()).extracting((call) -> call.verb() + " " + call.event().getMetadata().getName())
			.containsExactly("create foo." + Long.toHexString(EventNames.unixNanos(START)),
					"create foo." + Long.toHexString(EventNames.unixNanos(START)),
					"create bar." + Long.toHexString(EventNames.unixNanos(START)),
					"create bar." + Long.toHexString(EventNames.unixNanos(START)));
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(1, 0, 2, 1));
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(1);
	}

	/** A 5xx repeated after its Retry-After inside one request may have stored the CREATE too. */
	@Test
	void anAlreadyExistsAfterA5xxRepeatedOnItsRetryAfterIsTheLostCreatesEvent() {
		this.sink.failNext(new EventSinkException(EventSinkException.Kind.HTTP_STATUS, 500, "InternalError", false,
				Duration.ofSeconds(1), "etcd request timed out", null), EventSinkException.status(409, "AlreadyExists",
						"exists"));
		CoreV1SinkSubscriber recording = recording(new RetryPolicy(12, Duration.ZERO));
		handle(recording, pod());
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(1, 0, 0, 0));
		assertThat(totalDropped()).isZero();
		assertThat(this.sink.calls()).hasSize(2);
	}

	@Test
	void identicalEventsAreCreatedThenPatchedWithCountsTwoAndThree() {
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults());
		for (int i = 0; i < 3; i++) {
			handle(recording, pod());
			this.clock.advance(Duration.ofSeconds(1));
		}
		List<ScriptedSink.Call> calls = this.sink.calls();
		assertThat(calls).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "patch");
		String name = calls.get(0).event().getMetadata().getName();
		assertThat(name).isEqualTo("foo." + Long.toHexString(EventNames.unixNanos(START)));
		assertThat(calls.get(1).patch())
			.isEqualTo(new EventSink.CountPatch(2, OffsetDateTime.of(2026, 11, 30, 12, 0, 1, 0, ZoneOffset.UTC),
					"Started container"));
		assertThat(calls.get(2).patch())
			.isEqualTo(new EventSink.CountPatch(3, OffsetDateTime.of(2026, 11, 30, 12, 0, 2, 0, ZoneOffset.UTC),
					"Started container"));
		assertThat(calls.get(2).event().getMetadata().getName()).isEqualTo(name);
		assertThat(calls.get(2).event().getFirstTimestamp())
			.isEqualTo(OffsetDateTime.of(2026, 11, 30, 12, 0, 0, 0, ZoneOffset.UTC));
		assertThat(calls.get(2).patch().toMap()).containsOnlyKeys("count", "lastTimestamp", "message");
		assertThat(this.sink.stored()).hasSize(1);
		CoreV1Event stored = this.sink.stored().values().iterator().next();
		assertThat(stored.getCount()).isEqualTo(3);
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(1, 2, 0, 0));
		assertThat(this.requests).containsExactly("core/v1 create success", "core/v1 patch success",
				"core/v1 patch success");
	}

	@Test
	void readersShapeCreatesWithEventTimeAndActionThenPatchesASeriesAndRemovesEventTime() {
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults(), this.sink, this.recordingSleeper,
				EventShape.READERS);
		this.clock.advance(Duration.ofNanos(123_456_789));
		for (int i = 0; i < 3; i++) {
			handle(recording, pod());
			this.clock.advance(Duration.ofSeconds(1));
		}
		List<ScriptedSink.Call> calls = this.sink.calls();
		assertThat(calls).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "patch");
		CoreV1Event created = calls.get(0).event();
		assertThat(created.getEventTime())
			.isEqualTo(OffsetDateTime.of(2026, 11, 30, 12, 0, 0, 123_456_000, ZoneOffset.UTC));
		assertThat(created.getAction()).as("the reason, as events.k8s.io/v1 writes do").isEqualTo("Started");
		assertThat(created.getSeries()).isNull();
		assertThat(created.getCount()).isEqualTo(1);
		assertThat(created.getFirstTimestamp()).isEqualTo(OffsetDateTime.of(2026, 11, 30, 12, 0, 0, 0, ZoneOffset.UTC));
		assertThat(created.getLastTimestamp()).isEqualTo(created.getFirstTimestamp());
		assertThat(calls.get(1).patch()).isEqualTo(new EventSink.CountPatch(2,
				OffsetDateTime.of(2026, 11, 30, 12, 0, 1, 0, ZoneOffset.UTC), "Started container", null,
				Instant.parse("2026-11-30T12:00:01.123456789Z")));
		Map<String, Object> body = calls.get(2).patch().toMap();
		assertThat(body.keySet()).containsExactly("count", "lastTimestamp", "message", "series", "eventTime");
		assertThat(body).containsEntry("count", 3)
			.containsEntry("lastTimestamp", "2026-11-30T12:00:02Z")
			.containsEntry("series", Map.of("count", 3, "lastObservedTime", "2026-11-30T12:00:02.123456Z"));
		assertThat(body.get("eventTime")).as("removes eventTime").isNull();
		CoreV1Event stored = this.sink.stored().values().iterator().next();
		assertThat(stored.getCount()).isEqualTo(3);
		assertThat(stored.getSeries().getCount()).isEqualTo(3);
		assertThat(stored.getEventTime()).isNull();
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(1, 2, 0, 0));
	}

	@Test
	void readersShapeKeepsClientGoCreateForAnEventTheServerWouldRefuseWithAnEventTime() {
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults(), this.sink, this.recordingSleeper,
				EventShape.READERS);
		RecordedEvent unqualifiedComponent = new RecordedEvent(TestEvents.object("Pod", "foo", "baz"), null,
				EventType.NORMAL, "Started", null, "m", Map.of(), new EventSource("my controller", "host"),
				this.clock.instant());
		handle(recording, unqualifiedComponent);
		assertThat(this.sink.calls()).singleElement().satisfies((call) -> {
			assertThat(call.event().getEventTime()).isNull();
			assertThat(call.event().getAction()).isNull();
		});
	}

	@Test
	void readersShapeCreatesASeriesWhenTheServerLostAnEventWithACountAboveOne() {
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults(), this.sink, this.recordingSleeper,
				EventShape.READERS);
		handle(recording, pod());
		this.sink.delete(this.sink.calls().get(0).event().getMetadata().getName());
		this.clock.advance(Duration.ofSeconds(3));
		handle(recording, pod());
		List<ScriptedSink.Call> calls = this.sink.calls();
		assertThat(calls).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "create");
		CoreV1Event recreated = calls.get(2).event();
		assertThat(recreated.getCount()).isEqualTo(2);
		assertThat(recreated.getEventTime()).isNull();
		assertThat(recreated.getSeries().getCount()).isEqualTo(2);
		assertThat(recreated.getSeries().getLastObservedTime())
			.isEqualTo(OffsetDateTime.of(2026, 11, 30, 12, 0, 3, 0, ZoneOffset.UTC));
	}

	@Test
	void differentUidOrReasonIsASeparateEvent() {
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults());
		handle(recording, pod());
		handle(recording, event("Started", "Started container", TestEvents.object("Pod", "foo", "baz").withUid("differentUid")));
		handle(recording, event("Stopped", "Started container", TestEvents.object("Pod", "foo", "baz")));
		assertThat(this.sink.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create", "create", "create");
		assertThat(this.sink.calls()).allMatch((call) -> call.event().getCount() == 1);
	}

	@Test
	void patchOfAnExpiredEventFallsBackToCreateWithResourceVersionCleared() {
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults());
		handle(recording, pod());
		String name = this.sink.calls().get(0).event().getMetadata().getName();
		this.sink.delete(name);
		handle(recording, pod());
		List<ScriptedSink.Call> calls = this.sink.calls();
		assertThat(calls).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "create");
		assertThat(calls.get(1).event().getMetadata().getResourceVersion()).isEqualTo("1");
		assertThat(calls.get(2).event().getMetadata().getResourceVersion()).isNull();
		assertThat(calls.get(2).event().getMetadata().getName()).isEqualTo(name);
		assertThat(calls.get(2).event().getCount()).isEqualTo(2);
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(2, 0, 0, 0));
		assertThat(this.requests).containsExactly("core/v1 create success", "core/v1 patch client_error",
				"core/v1 create success");
		handle(recording, pod());
		assertThat(this.sink.calls().get(3).verb()).isEqualTo("patch");
		assertThat(this.sink.calls().get(3).patch().count()).isEqualTo(3);
	}

	@Test
	void cancelledRecordingMakesOneAttemptOnly() {
		for (int i = 0; i < 20; i++) {
			this.sink.failNext(transport());
		}
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults());
		TestSinks.cancel(recording);
		handle(recording, pod());
		assertThat(this.sink.calls()).hasSize(1);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(1);
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(0, 0, 0, 1));
		assertThat(this.sink.cancelCalls()).isEqualTo(1);
		assertThat(this.sink.abortCalls()).isZero();
	}

	@Test
	void cancelDuringARetrySleepEndsTheEventAsAShutdownDrop() {
		for (int i = 0; i < 20; i++) {
			this.sink.failNext(transport());
		}
		CoreV1SinkSubscriber[] self = new CoreV1SinkSubscriber[1];
		self[0] = recording(RetryPolicy.defaults(), (duration) -> {
			this.sleeps.add(duration);
			TestSinks.cancel(self[0]);
		});
		handle(self[0], pod());
		assertThat(this.sink.calls()).hasSize(1);
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(5));
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(1);
		assertThat(totalDropped()).isEqualTo(1);
	}

	@Test
	void interruptedRetrySleepEndsTheEventAsAShutdownDrop() {
		// the writer thread keeps its interrupt status and ends; the event is counted
		this.sink.failNext(transport());
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults(), (duration) -> {
			throw new InterruptedException();
		});
		handle(recording, pod());
		assertThat(this.sink.calls()).hasSize(1);
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(1);
	}

	@Test
	void abortCancelsAndAbortsTheSink() {
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults());
		TestSinks.abort(recording);
		assertThat(this.sink.cancelCalls()).isEqualTo(1);
		assertThat(this.sink.abortCalls()).isEqualTo(1);
	}

	@Test
	void spamFilteredEventsAreCountedNotWritten() {
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults());
		for (int i = 0; i < 30; i++) {
			handle(recording, event("Reason" + i, "m", TestEvents.object("Pod", "foo", "baz")));
		}
		assertThat(this.sink.calls()).hasSize(25);
		assertThat(this.counters.dropped(DropReason.SPAM_FILTERED)).isEqualTo(5);
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(25, 0, 0, 0));
	}

	@Test
	void relatedActionAndAnnotationsAreWritten() {
		CoreV1SinkSubscriber recording = recording(RetryPolicy.defaults());
		InvolvedObject node = InvolvedObject.of("Node", "v1", null, "node-1");
		handle(recording, new RecordedEvent(TestEvents.object("Pod", "foo", "baz"), node, EventType.WARNING,
				"FailedScheduling", "Scheduling", "no room", Map.of("k", "v"), TestEvents.SOURCE, START));
		CoreV1Event written = this.sink.calls().get(0).event();
		assertThat(written.getRelated()).isEqualTo(node.toV1ObjectReference());
		assertThat(written.getAction()).isEqualTo("Scheduling");
		assertThat(written.getMetadata().getAnnotations()).containsExactly(Map.entry("k", "v"));
	}

}
