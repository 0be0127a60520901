package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The retry loop of one sink's run on its own, on the calling thread, with the delays recorded instead of waited:
 * the retry delays of both APIs, what a stop, an interrupt or a refusal does to a write, and the failures health
 * reads. The request gate (timing, Retry-After) is {@link SinkRequestsTests}'.
 */
class WriteAttemptsTests {

	private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");

	private final TickingClock clock = TickingClock.fixed(T0);

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	/** The ticker requests and holds are timed on; arbitrary start, as {@link System#nanoTime()}'s is. */
	private final AtomicLong ticker = new AtomicLong(5_000_000_000_000L);

	private final List<Duration> sleeps = new ArrayList<>();

	private final List<String> requests = new ArrayList<>();

	private final RecordedEvent event = TestEvents.recorded("BackOff", "Back-off", TestEvents.object("Pod", "web-0", "ns"));

	/** Records a wait without letting time pass (as if the other writers' requests ran meanwhile). */
	private final Sleeper recording = this.sleeps::add;

	/** Records a wait and lets it pass on the ticker. */
	private final Sleeper passing = (duration) -> {
		this.sleeps.add(duration);
		this.ticker.addAndGet(duration.toNanos());
	};

	/** The sink the writers' requests reach: each test says what its calls answer. */
	private final FunctionSink sink = new FunctionSink();

	private SinkRun<CoreV1Event, EventSink.CountPatch> run;

	private WriteAttempts attempts(EventsApi api, RetryPolicy policy, Sleeper sleeper, DoubleSupplier jitter) {
		SinkSettings settings = new SinkSettings(policy, sleeper, jitter,
				(name, verb, result, duration) -> this.requests.add(name + " " + verb + " " + result + " " + duration),
				null, this.clock, 1, 1000, EventsApi.AUTO, EventBroadcaster.Builder.DEFAULT_REQUEST_TIMEOUT, 4096,
				CorrelatorOptions.builder().clock(this.clock).build(),
				CorrelatorOptions.builder().clock(this.clock).build(), false, EventShape.CLIENT_GO, false, null,
				this.ticker::get);
		this.run = new SinkRun<>("test", api, this.sink, "https://10.0.0.1:6443", settings, this.counters,
				new SinkWritersTests.NoTarget());
		this.run.start();
		return this.run.attempts();
	}

	private WriteAttempts attempts(Sleeper sleeper) {
		return attempts(EventsApi.CORE_V1, new RetryPolicy(12, Duration.ofSeconds(10)), sleeper, () -> 0.5);
	}

	/** A sink whose calls run what the test set. */
	static final class FunctionSink implements EventSink {

		/** One call of the sink. */
		@FunctionalInterface
		interface Call {

			CoreV1Event answer() throws EventSinkException;

		}

		volatile Call onCreate = () -> new CoreV1Event().metadata(new V1ObjectMeta().name("created"));

		volatile Call onPatch = () -> new CoreV1Event().metadata(new V1ObjectMeta().name("patched"));

		@Override
		public CoreV1Event create(CoreV1Event event) throws EventSinkException {
			return this.onCreate.answer();
		}

		@Override
		public CoreV1Event patch(CoreV1Event event, CountPatch patch) throws EventSinkException {
			return this.onPatch.answer();
		}

	}

	/** What a writer's attempt writes: a CREATE of this Event. */
	private static final CoreV1Event BODY = new CoreV1Event().metadata(new V1ObjectMeta().name("web-0.1").namespace("ns"));

	/** An attempt that creates {@link #BODY} through the run's requests. */
	private WriteAttempts.Writer<String, CoreV1Event> creating() {
		return (write, context) -> this.run.requests().create(context, BODY);
	}

	private WriteAttempts.State write(WriteAttempts attempts, int occurrences, WriteAttempts.Writer<String, ?> writer) {
		return attempts.write("write", this.event, occurrences, writer).state();
	}

	private WriteAttempts.State writeOnce(WriteAttempts attempts, int occurrences, WriteAttempts.Writer<String, ?> writer) {
		return attempts.writeOnce("write", this.event, occurrences, writer).state();
	}

	private static EventSinkException transport() {
		return EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null);
	}

	private static EventSinkException throttled(Duration retryAfter) {
		return new EventSinkException(EventSinkException.Kind.HTTP_STATUS, 429, "TooManyRequests", false, retryAfter,
				"too many requests", null);
	}

	/** An attempt that fails with {@code failure} every time and counts its runs. */
	private static WriteAttempts.Writer<String, Object> failing(AtomicInteger runs, EventSinkException failure) {
		return (write, context) -> {
			runs.incrementAndGet();
			throw failure;
		};
	}

	/** A write whose CREATE the server answers: health hears of a written event from the request. */
	private final WriteAttempts.Writer<String, Object> succeeding = (write, context) -> this.run.requests()
		.create(context, BODY);

	@Test
	void coreV1RetriesWaitTheJitteredSleepFirstThenTheWholeSleepUntilTheAttemptsAreUsedUp() {
		WriteAttempts attempts = attempts(EventsApi.CORE_V1, new RetryPolicy(4, Duration.ofSeconds(10)),
				this.recording, () -> 0.25);
		AtomicInteger runs = new AtomicInteger();
		assertThat(write(attempts, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(runs).hasValue(4);
		assertThat(this.sleeps).containsExactly(Duration.ofMillis(2500), Duration.ofSeconds(10), Duration.ofSeconds(10));
		assertThat(this.counters.dropped(DropReason.RETRIES_EXHAUSTED)).isEqualTo(1);
		assertThat(this.counters.totalDropped()).isEqualTo(1);
		assertThat(attempts.stats()).isEqualTo(new RecorderStats.Writes(0, 0, 3, 1));
	}

	@Test
	void eventsV1RetriesWaitTheSleepTimesOneToOneAndAQuarter() {
		WriteAttempts attempts = attempts(EventsApi.EVENTS_V1, new RetryPolicy(3, Duration.ofSeconds(10)),
				this.recording, () -> 0.5);
		AtomicInteger runs = new AtomicInteger();
		assertThat(write(attempts, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(runs).hasValue(3);
		assertThat(this.sleeps).containsExactly(Duration.ofMillis(11_250), Duration.ofMillis(11_250));
	}

	@Test
	void oneAttemptPolicyNeverWaits() {
		WriteAttempts attempts = attempts(EventsApi.CORE_V1, new RetryPolicy(1, Duration.ofSeconds(10)), this.recording,
				() -> 0.5);
		AtomicInteger runs = new AtomicInteger();
		assertThat(write(attempts, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(runs).hasValue(1);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.dropped(DropReason.RETRIES_EXHAUSTED)).isEqualTo(1);
	}

	@Test
	void writeOnceReportsARetryableFailureAsNotWrittenWithoutADrop() {
		WriteAttempts attempts = attempts(this.recording);
		AtomicInteger runs = new AtomicInteger();
		assertThat(writeOnce(attempts, 3, failing(runs, transport())))
			.isEqualTo(WriteAttempts.State.NOT_WRITTEN);
		assertThat(runs).hasValue(1);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.totalDropped()).isZero();
		assertThat(attempts.stats()).isEqualTo(new RecorderStats.Writes(0, 0, 0, 0));
		assertThat(writeOnce(attempts, 3, this.succeeding)).isEqualTo(WriteAttempts.State.WRITTEN);
	}

	@Test
	void refusalsAreDroppedAtOnceAndCountedInARowUnlessExpectedUntilAWriteSucceeds() {
		WriteAttempts attempts = attempts(this.recording);
		AtomicInteger runs = new AtomicInteger();
		EventSinkException invalid = EventSinkException.status(422, "Invalid", "bad event");
		assertThat(write(attempts, 1, failing(runs, invalid))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(write(attempts, 1, failing(runs, invalid))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.run.health().read().rejectedInARow()).isEqualTo(2);
		assertThat(write(attempts, 1,
				failing(runs, EventSinkException.status(409, "AlreadyExists", "exists"))))
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(write(attempts, 1, failing(runs, new EventSinkException(EventSinkException.Kind.HTTP_STATUS,
				403, "Forbidden", true, "namespace is terminating", null))))
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.run.health().read().rejectedInARow()).as("AlreadyExists and a terminating namespace are expected").isEqualTo(2);
		assertThat(runs).hasValue(4);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(4);

		assertThat(write(attempts, 1,
				failing(runs, EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION, "no name", null))))
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.counters.dropped(DropReason.INVALID_INPUT)).isEqualTo(1);
		assertThat(this.run.health().read().rejectedInARow()).isEqualTo(2);

		assertThat(write(attempts, 1, this.succeeding)).isEqualTo(WriteAttempts.State.WRITTEN);
		assertThat(this.run.health().read().rejectedInARow()).isZero();
		assertThat(attempts.stats()).isEqualTo(new RecorderStats.Writes(1, 0, 0, 5));
	}

	@Test
	void aFailedWriteCountsEveryOccurrenceItCarriedWhateverTheReason() {
		WriteAttempts attempts = attempts(EventsApi.EVENTS_V1, new RetryPolicy(2, Duration.ofSeconds(10)),
				this.recording, () -> 0.5);
		AtomicInteger runs = new AtomicInteger();
		// a series write carrying 5 new occurrences, refused; 4, attempts used up; 3, construction failed
		assertThat(write(attempts, 5, failing(runs, EventSinkException.status(422, "Invalid", "bad"))))
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.counters.lastRejection().error())
			.isEqualTo("Server rejected event carrying 5 occurrences (will not retry!): bad");
		assertThat(write(attempts, 4, failing(runs, transport()))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(write(attempts, 3, failing(runs,
				EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION, "no name", null))))
			.isEqualTo(WriteAttempts.State.DROPPED);
		// a repeated final count carries none: the refusal is logged, nothing is lost
		assertThat(write(attempts, 0, failing(runs, EventSinkException.status(422, "Invalid", "bad"))))
			.isEqualTo(WriteAttempts.State.DROPPED);
		this.run.cancel();
		assertThat(write(attempts, 7, failing(runs, transport()))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(5);
		assertThat(this.counters.dropped(DropReason.RETRIES_EXHAUSTED)).isEqualTo(4);
		assertThat(this.counters.dropped(DropReason.INVALID_INPUT)).isEqualTo(3);
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(7);
		assertThat(this.counters.totalDropped()).isEqualTo(19);
		assertThat(attempts.stats().failed()).as("failed writes, not occurrences").isEqualTo(5);
	}

	@Test
	void aRefusedHeartbeatLeavesItsOccurrencesToTheNextWriteUnlessTheForbiddenHandlerTakesThemOver() {
		WriteAttempts attempts = attempts(this.recording);
		AtomicInteger runs = new AtomicInteger();
		try (LogCapture log = LogCapture.of(WriteAttempts.class, Level.WARN)) {
			assertThat(writeOnce(attempts, 5, failing(runs, EventSinkException.status(422, "Invalid", "bad"))))
				.isEqualTo(WriteAttempts.State.NOT_WRITTEN);
			assertThat(log.warnings()).singleElement()
				.asString()
				.startsWith("Unable to write event series (one attempt; its 5 new occurrence(s) wait for the series'"
						+ " next write)");
		}
		assertThat(this.counters.totalDropped()).isZero();
		assertThat(this.run.health().read().rejectedInARow()).isEqualTo(1);
		List<Integer> rerouted = new ArrayList<>();
		attempts.onForbidden((recorded, occurrences, verb, refusal) -> rerouted.add(occurrences));
		assertThat(writeOnce(attempts, 5,
				failing(runs, EventSinkException.status(403, "Forbidden", "cannot patch events"))))
			.as("the switch took the 5 occurrences over")
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(rerouted).containsExactly(5);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aDeletedAndATerminatingNamespaceAreOneSituationCountedWithOneWarningPerNamespacePerIntervalAndNoRefusal() {
		WriteAttempts attempts = attempts(this.recording);
		AtomicInteger runs = new AtomicInteger();
		EventSinkException deleted = EventSinkException.status(404, "NotFound", "namespaces \"ns\" not found");
		EventSinkException terminating = new EventSinkException(EventSinkException.Kind.HTTP_STATUS, 403, "Forbidden",
				true, "unable to create new content in namespace ns because it is being terminated", null);
		RecordedEvent elsewhere = TestEvents.recorded("BackOff", "Back-off", TestEvents.object("Pod", "web-0", "other"));
		try (LogCapture log = LogCapture.of(EventCounters.class, Level.WARN)) {
			for (int i = 0; i < 3; i++) {
				write(attempts, 1, failing(runs, deleted));
				write(attempts, 2, failing(runs, terminating));
			}
			attempts.write("write", elsewhere, 1, failing(runs, deleted));
			assertThat(log.warnings()).hasSize(2);
			assertThat(log.warnings().get(0)).startsWith("Dropped event (rejected_by_server): namespace 'ns' is gone"
					+ " (deleted or terminating); its Events are counted as rejected_by_server, and logged at DEBUG for"
					+ " the next PT10S");
			assertThat(log.warnings().get(1)).startsWith("Dropped event (rejected_by_server): namespace 'other' is gone");
			this.clock.advance(Duration.ofSeconds(10));
			write(attempts, 1, failing(runs, deleted));
			assertThat(log.warnings()).as("the interval passed").hasSize(3);
		}
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(3 + 6 + 1 + 1);
		assertThat(this.run.health().read().rejectedInARow()).as("not a refusal of the recorder: health unchanged").isZero();
		assertThat(this.counters.lastRejection()).isNull();
	}

	@Test
	void theForbiddenHandlerTakesTheOccurrencesOverOrLeavesTheDrop() {
		WriteAttempts attempts = attempts(this.recording);
		EventSinkException forbidden = EventSinkException.status(403, "Forbidden", "cannot create events");
		List<String> told = new ArrayList<>();
		attempts.onForbidden((recorded, occurrences, verb, refusal) -> {
			told.add(recorded.reason() + " x" + occurrences + " " + verb + " " + refusal.statusCode());
			return occurrences > 1;
		});
		assertThat(write(attempts, 3, failing(new AtomicInteger(), forbidden)))
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.counters.totalDropped()).as("taken over").isZero();
		assertThat(attempts.stats().failed()).isZero();
		assertThat(this.run.health().read().rejectedInARow()).isZero();

		assertThat(write(attempts, 1, failing(new AtomicInteger(), forbidden)))
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(1);
		assertThat(attempts.stats().failed()).isEqualTo(1);
		assertThat(this.run.health().read().rejectedInARow()).isEqualTo(1);
		assertThat(told).containsExactly("BackOff x3 create 403", "BackOff x1 create 403");

		// the handler is told the verb of the request the server refused
		this.sink.onPatch = () -> {
			throw forbidden;
		};
		assertThat(write(attempts, 2, (write, context) -> this.run.requests()
			.patch(context, BODY, new EventSink.CountPatch(2, null, "patched")))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(told).last().isEqualTo("BackOff x2 patch 403");
	}

	@Test
	void aCancelledWriteGetsItsCurrentAttemptOnlyUntilResume() {
		List<String> wakeUps = new ArrayList<>();
		WriteAttempts attempts = attempts(EventsApi.CORE_V1, new RetryPolicy(3, Duration.ofSeconds(10)),
				new Sleeper() {

					@Override
					public void sleep(Duration duration) {
						WriteAttemptsTests.this.sleeps.add(duration);
					}

					@Override
					public void wakeAll() {
						wakeUps.add("wakeAll");
					}

				}, () -> 0.5);
		this.run.cancel();
		assertThat(wakeUps).containsExactly("wakeAll");
		AtomicInteger runs = new AtomicInteger();
		assertThat(write(attempts, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(runs).hasValue(1);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(1);

		this.run.start();
		runs.set(0);
		assertThat(write(attempts, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(runs).hasValue(3);
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(10));
		assertThat(this.counters.dropped(DropReason.RETRIES_EXHAUSTED)).isEqualTo(1);
		assertThat(attempts.stats()).isEqualTo(new RecorderStats.Writes(0, 0, 2, 2));
	}

	@Test
	void aStopBetweenTheFailedAttemptAndItsRetryWaitEndsTheWriteWithoutWaiting() {
		// the stop arrives while the retry delay is computed: after the attempt's check, before the wait
		WriteAttempts[] self = new WriteAttempts[1];
		self[0] = attempts(EventsApi.CORE_V1, new RetryPolicy(12, Duration.ofSeconds(10)), this.recording, () -> {
			this.run.cancel();
			return 0.5;
		});
		AtomicInteger runs = new AtomicInteger();
		assertThat(write(self[0], 1, failing(runs, transport()))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(runs).hasValue(1);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(1);
		assertThat(self[0].stats()).isEqualTo(new RecorderStats.Writes(0, 0, 0, 1));
	}

	@Test
	void anInterruptedRetryWaitDropsTheWriteAndKeepsTheInterrupt() {
		WriteAttempts attempts = attempts((duration) -> {
			throw new InterruptedException("test");
		});
		AtomicInteger runs = new AtomicInteger();
		try {
			assertThat(write(attempts, 1, failing(runs, transport())))
				.isEqualTo(WriteAttempts.State.DROPPED);
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(runs).hasValue(1);
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(1);
		assertThat(attempts.stats()).isEqualTo(new RecorderStats.Writes(0, 0, 0, 1));
	}

	@Test
	void everyFailedAttemptIsCountedForHealthWhateverItsClassUntilAnEventIsWritten() {
		WriteAttempts attempts = attempts(EventsApi.CORE_V1, new RetryPolicy(2, Duration.ofSeconds(10)),
				this.recording, () -> 0.5);
		AtomicInteger runs = new AtomicInteger();
		assertThat(this.run.health().read().failedInARow()).isZero();
		assertThat(this.run.health().read().lastFailure()).isNull();
		assertThat(this.run.health().read().lastWritten()).isNull();

		// a transport failure retried once, then given up
		assertThat(write(attempts, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.run.health().read().failedInARow()).isEqualTo(2);
		assertThat(this.run.health().read().lastFailure()).isEqualTo(new RecorderStats.Failure(T0, "core/v1", "create",
				"transport_error", "connection refused", "https://10.0.0.1:6443", true));
		assertThat(this.run.health().read().rejectedInARow()).as("no refusal").isZero();

		// a 5xx answer still busy after its Retry-After waits, retried, with the verb of the failed request
		this.sink.onPatch = () -> {
			throw EventSinkException.unavailable(EventSinkException.status(503, "ServiceUnavailable", "etcd is down"));
		};
		this.clock.advance(Duration.ofSeconds(1));
		WriteAttempts.Writer<String, CoreV1Event> patching = (write, context) -> this.run.requests()
			.patch(context, BODY, new EventSink.CountPatch(2, null, "patched"));
		assertThat(write(attempts, 1, patching)).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.run.health().read().failedInARow()).isEqualTo(4);
		assertThat(this.run.health().read().lastFailure()).isEqualTo(new RecorderStats.Failure(T0.plusSeconds(1), "core/v1",
				"patch", "server_error", "etcd is down (still busy after the waits it asked for)",
				"https://10.0.0.1:6443", true));

		// a refusal counts, not given up after retries; the expected ones do not count
		assertThat(write(attempts, 1, failing(runs, EventSinkException.status(422, "Invalid", "bad"))))
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.run.health().read().failedInARow()).isEqualTo(5);
		assertThat(this.run.health().read().lastFailure().result()).isEqualTo("client_error");
		assertThat(this.run.health().read().lastFailure().givenUp()).isFalse();
		assertThat(write(attempts, 1, failing(runs, EventSinkException.status(409, "AlreadyExists", "exists"))))
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.run.health().read().failedInARow()).isEqualTo(5);

		// a written event clears them; its request took 7 ms on the ticker
		this.clock.advance(Duration.ofSeconds(1));
		this.sink.onCreate = () -> {
			this.ticker.addAndGet(Duration.ofMillis(7).toNanos());
			return new CoreV1Event().metadata(new V1ObjectMeta().name("created"));
		};
		assertThat(write(attempts, 1, creating())).isEqualTo(WriteAttempts.State.WRITTEN);
		assertThat(this.requests).last().isEqualTo("core/v1 create success PT0.007S");
		assertThat(this.run.health().read().failedInARow()).isZero();
		assertThat(this.run.health().read().lastFailure()).isNull();
		assertThat(this.run.health().read().lastWritten()).isEqualTo(T0.plusSeconds(2));
	}

	@Test
	void aHeartbeatThatFailsIsNotGivenUpItsOccurrencesWaitForTheNextWrite() {
		WriteAttempts attempts = attempts(this.recording);
		assertThat(writeOnce(attempts, 2, failing(new AtomicInteger(), transport())))
			.isEqualTo(WriteAttempts.State.NOT_WRITTEN);
		assertThat(this.run.health().read().failedInARow()).isEqualTo(1);
		assertThat(this.run.health().read().lastFailure().givenUp()).isFalse();
	}

	@Test
	void aBookkeepingFailureOfTheWriterBeforeAnyRequestIsAnInvalidInputDropNotAServerFailure() {
		WriteAttempts attempts = attempts(this.recording);
		assertThat(write(attempts, 2, (write, context) -> {
			throw new IllegalStateException("no name");
		})).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.counters.dropped(DropReason.INVALID_INPUT)).isEqualTo(2);
		assertThat(this.run.health().read().failedInARow()).isZero();
		assertThat(this.run.health().read().rejectedInARow()).isZero();
	}

}
