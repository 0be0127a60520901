package io.github.kubeevents.sink;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventCounters;
import io.github.kubeevents.Events;
import io.github.kubeevents.TestEvents;
import io.github.kubeevents.TickingClock;
import io.github.kubeevents.correlator.CorrelatorOptions;
import io.github.kubeevents.correlator.EventCorrelator;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/** client-go's TestWriteEventError, TestUpdateExpiredEvent, TestCancelEvent and the Create→Patch sequence. */
class SinkRecordingHandlerTest {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private final TickingClock clock = TickingClock.fixed(START);

	private final EventCounters counters = new EventCounters(this.clock);

	private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

	private final Sleeper recordingSleeper = this.sleeps::add;

	private final ScriptedSink sink = new ScriptedSink();

	private SinkRecordingHandler handler(RetryPolicy policy) {
		return new SinkRecordingHandler(this.sink, new EventCorrelator(CorrelatorOptions.builder().clock(this.clock).build()),
				policy, this.recordingSleeper, () -> 0.5, this.counters);
	}

	private static CoreV1Event pod() {
		return TestEvents.event("Started", "Started container", TestEvents.ref("Pod", "foo", "baz"));
	}

	static List<Arguments> errorClasses() {
		return List.of(
				Arguments.of("request construction", EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION, "bad", null), 1, DropReason.INVALID_INPUT),
				Arguments.of("HTTP status", EventSinkException.status(500, "InternalError", "boom"), 1, DropReason.REJECTED_BY_SERVER),
				Arguments.of("unexpected object", EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE, "garbage", null), 12, DropReason.RETRIES_EXHAUSTED),
				Arguments.of("transport", EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null), 12, DropReason.RETRIES_EXHAUSTED));
	}

	@ParameterizedTest(name = "{0} -> {2} attempt(s)")
	@MethodSource("errorClasses")
	void attemptCountsPerErrorClass(String name, EventSinkException failure, int attempts, DropReason reason) {
		for (int i = 0; i < 20; i++) {
			this.sink.failNext(failure);
		}
		SinkRecordingHandler handler = handler(new RetryPolicy(12, Duration.ZERO));
		handler.onEvent(pod());
		assertThat(this.sink.calls()).hasSize(attempts);
		assertThat(this.counters.dropped(reason)).isEqualTo(1);
		assertThat(this.counters.droppedByReason().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1);
		assertThat(handler.stats()).isEqualTo(new SinkStats(0, 0, attempts - 1, 1));
	}

	@Test
	void failureOnceThenSuccessTakesTwoAttempts() {
		this.sink.failNext(EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null));
		SinkRecordingHandler handler = handler(new RetryPolicy(12, Duration.ZERO));
		handler.onEvent(pod());
		assertThat(this.sink.calls()).hasSize(2);
		assertThat(this.sink.stored()).hasSize(1);
		assertThat(handler.stats()).isEqualTo(new SinkStats(1, 0, 1, 0));
		assertThat(this.counters.droppedByReason().values()).allMatch((n) -> n == 0);
	}

	@Test
	void firstRetrySleepsAJitteredFractionLaterOnesTheFullSleep() {
		for (int i = 0; i < 4; i++) {
			this.sink.failNext(EventSinkException.of(EventSinkException.Kind.TRANSPORT, "refused", null));
		}
		handler(new RetryPolicy(12, Duration.ofSeconds(10))).onEvent(pod());
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(10),
				Duration.ofSeconds(10));
		assertThat(this.sink.calls()).hasSize(5);
	}

	@Test
	void alreadyExistsAndNamespaceTerminatingAreDroppedWithoutRetryAndWithoutAWarning() {
		ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(EventCounters.class);
		ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender = new ch.qos.logback.core.read.ListAppender<>();
		appender.start();
		logger.addAppender(appender);
		ch.qos.logback.classic.Level level = logger.getLevel();
		logger.setLevel(ch.qos.logback.classic.Level.DEBUG);
		try {
			alreadyExistsAndNamespaceTerminatingAreDroppedWithoutRetry();
			this.sink.failNext(EventSinkException.status(422, "Invalid", "bad"));
			handler(new RetryPolicy(12, Duration.ZERO)).onEvent(TestEvents.event("Third", "x", TestEvents.ref("Pod", "foo", "baz")));
		}
		finally {
			logger.detachAppender(appender);
			logger.setLevel(level);
		}
		assertThat(appender.list).extracting((e) -> e.getLevel().toString())
			.containsExactly("DEBUG", "DEBUG", "WARN");
	}

	@Test
	void alreadyExistsAndNamespaceTerminatingAreDroppedWithoutRetry() {
		this.sink.failNext(EventSinkException.status(409, "AlreadyExists", "exists"),
				new EventSinkException(EventSinkException.Kind.HTTP_STATUS, 403, "Forbidden", true, "terminating", null));
		SinkRecordingHandler handler = handler(new RetryPolicy(12, Duration.ZERO));
		handler.onEvent(pod());
		handler.onEvent(TestEvents.event("Other", "x", TestEvents.ref("Pod", "foo", "baz")));
		assertThat(this.sink.calls()).hasSize(2);
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(2);
	}

	@Test
	void identicalEventsAreCreatedThenPatchedWithCountsTwoAndThree() {
		SinkRecordingHandler handler = handler(RetryPolicy.defaults());
		for (int i = 0; i < 3; i++) {
			handler.onEvent(pod());
			this.clock.advance(Duration.ofSeconds(1));
		}
		List<ScriptedSink.Call> calls = this.sink.calls();
		assertThat(calls).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "patch");
		assertThat(calls.get(1).patch().count()).isEqualTo(2);
		assertThat(calls.get(2).patch().count()).isEqualTo(3);
		assertThat(calls.get(2).event().getMetadata().getName()).isEqualTo(calls.get(0).event().getMetadata().getName());
		assertThat(calls.get(2).patch().toMap()).containsOnlyKeys("count", "lastTimestamp", "message");
		assertThat(this.sink.stored()).hasSize(1);
		CoreV1Event stored = this.sink.stored().values().iterator().next();
		assertThat(stored.getCount()).isEqualTo(3);
		assertThat(handler.stats()).isEqualTo(new SinkStats(1, 2, 0, 0));
	}

	@Test
	void differentUidOrReasonIsASeparateEvent() {
		SinkRecordingHandler handler = handler(RetryPolicy.defaults());
		handler.onEvent(pod());
		CoreV1Event otherUid = pod();
		otherUid.getInvolvedObject().setUid("differentUid");
		handler.onEvent(otherUid);
		handler.onEvent(TestEvents.event("Stopped", "Started container", TestEvents.ref("Pod", "foo", "baz")));
		assertThat(this.sink.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create", "create", "create");
		assertThat(this.sink.calls()).allMatch((call) -> call.event().getCount() == 1);
	}

	@Test
	void patchOfAnExpiredEventFallsBackToCreateWithResourceVersionCleared() {
		SinkRecordingHandler handler = handler(RetryPolicy.defaults());
		handler.onEvent(pod());
		String name = this.sink.calls().get(0).event().getMetadata().getName();
		this.sink.delete(name);
		handler.onEvent(pod());
		List<ScriptedSink.Call> calls = this.sink.calls();
		assertThat(calls).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "create");
		assertThat(calls.get(1).event().getMetadata().getResourceVersion()).isEqualTo("1");
		assertThat(calls.get(2).event().getMetadata().getResourceVersion()).isNull();
		assertThat(calls.get(2).event().getMetadata().getName()).isEqualTo(name);
		assertThat(calls.get(2).event().getCount()).isEqualTo(2);
		assertThat(handler.stats()).isEqualTo(new SinkStats(2, 0, 0, 0));
	}

	@Test
	void cancelledHandlerMakesOneAttemptOnly() {
		for (int i = 0; i < 20; i++) {
			this.sink.failNext(EventSinkException.of(EventSinkException.Kind.TRANSPORT, "refused", null));
		}
		SinkRecordingHandler handler = handler(RetryPolicy.defaults());
		handler.cancel();
		handler.onEvent(pod());
		assertThat(this.sink.calls()).hasSize(1);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(1);
	}

	@Test
	void spamFilteredEventsAreCountedNotWritten() {
		SinkRecordingHandler handler = handler(RetryPolicy.defaults());
		List<String> reasons = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			CoreV1Event event = TestEvents.event("Reason" + i, "m", TestEvents.ref("Pod", "foo", "baz"));
			reasons.add(event.getReason());
			handler.onEvent(event);
		}
		assertThat(this.sink.calls()).hasSize(25);
		assertThat(this.counters.dropped(DropReason.SPAM_FILTERED)).isEqualTo(5);
	}

	@Test
	void handlerNeverModifiesTheSharedEvent() {
		CoreV1Event shared = pod();
		CoreV1Event before = Events.copy(shared);
		SinkRecordingHandler handler = handler(RetryPolicy.defaults());
		handler.onEvent(shared);
		handler.onEvent(shared);
		assertThat(shared).isEqualTo(before);
	}

}
