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
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The write attempts of one sink on their own, on the calling thread, with the delays recorded instead of waited
 * and requests timed on a test ticker: the retry delays of both APIs, what a stop, an interrupt or a refusal does to
 * a write, the request times the listener gets, and the Retry-After hold every writer of the sink honours.
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

	private WriteAttempts attempts(EventsApi api, RetryPolicy policy, Sleeper sleeper, DoubleSupplier jitter) {
		SinkSettings settings = new SinkSettings(policy, sleeper, jitter,
				(name, verb, result, duration) -> this.requests.add(name + " " + verb + " " + result + " " + duration),
				null, this.clock, 1, 1000, EventsApi.AUTO, EventBroadcaster.Builder.DEFAULT_REQUEST_TIMEOUT, 4096,
				CorrelatorOptions.builder().clock(this.clock).build(),
				CorrelatorOptions.builder().clock(this.clock).build(), false, EventShape.CLIENT_GO);
		return new WriteAttempts(api, settings, this.counters, this.ticker::get);
	}

	private WriteAttempts attempts(Sleeper sleeper) {
		return attempts(EventsApi.CORE_V1, new RetryPolicy(12, Duration.ofSeconds(10)), sleeper, () -> 0.5);
	}

	private static EventSinkException transport() {
		return EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null);
	}

	private static EventSinkException throttled(Duration retryAfter) {
		return new EventSinkException(EventSinkException.Kind.HTTP_STATUS, 429, "TooManyRequests", false, retryAfter,
				"too many requests", null);
	}

	/** An attempt that fails with {@code failure} every time and counts its runs. */
	private static WriteAttempts.Attempt failing(AtomicInteger runs, EventSinkException failure) {
		return (requests) -> {
			runs.incrementAndGet();
			throw failure;
		};
	}

	@Test
	void coreV1RetriesWaitTheJitteredSleepFirstThenTheWholeSleepUntilTheAttemptsAreUsedUp() {
		WriteAttempts attempts = attempts(EventsApi.CORE_V1, new RetryPolicy(4, Duration.ofSeconds(10)),
				this.recording, () -> 0.25);
		AtomicInteger runs = new AtomicInteger();
		assertThat(attempts.write(this.event, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.Outcome.DROPPED);
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
		assertThat(attempts.write(this.event, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(runs).hasValue(3);
		assertThat(this.sleeps).containsExactly(Duration.ofMillis(11_250), Duration.ofMillis(11_250));
	}

	@Test
	void oneAttemptPolicyNeverWaits() {
		WriteAttempts attempts = attempts(EventsApi.CORE_V1, new RetryPolicy(1, Duration.ofSeconds(10)), this.recording,
				() -> 0.5);
		AtomicInteger runs = new AtomicInteger();
		assertThat(attempts.write(this.event, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(runs).hasValue(1);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.dropped(DropReason.RETRIES_EXHAUSTED)).isEqualTo(1);
	}

	@Test
	void writeOnceReportsARetryableFailureAsNotWrittenWithoutADrop() {
		WriteAttempts attempts = attempts(this.recording);
		AtomicInteger runs = new AtomicInteger();
		assertThat(attempts.writeOnce(this.event, 3, failing(runs, transport())))
			.isEqualTo(WriteAttempts.Outcome.NOT_WRITTEN);
		assertThat(runs).hasValue(1);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.totalDropped()).isZero();
		assertThat(attempts.stats()).isEqualTo(new RecorderStats.Writes(0, 0, 0, 0));
		assertThat(attempts.writeOnce(this.event, 3, (requests) -> {
		})).isEqualTo(WriteAttempts.Outcome.WRITTEN);
	}

	@Test
	void refusalsAreDroppedAtOnceAndCountedInARowUnlessExpectedUntilAWriteSucceeds() {
		WriteAttempts attempts = attempts(this.recording);
		AtomicInteger runs = new AtomicInteger();
		EventSinkException invalid = EventSinkException.status(422, "Invalid", "bad event");
		assertThat(attempts.write(this.event, 1, failing(runs, invalid))).isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(attempts.write(this.event, 1, failing(runs, invalid))).isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(attempts.rejectedInARow()).isEqualTo(2);
		assertThat(attempts.write(this.event, 1,
				failing(runs, EventSinkException.status(409, "AlreadyExists", "exists"))))
			.isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(attempts.write(this.event, 1, failing(runs, new EventSinkException(EventSinkException.Kind.HTTP_STATUS,
				403, "Forbidden", true, "namespace is terminating", null))))
			.isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(attempts.rejectedInARow()).as("AlreadyExists and a terminating namespace are expected").isEqualTo(2);
		assertThat(runs).hasValue(4);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(4);

		assertThat(attempts.write(this.event, 1,
				failing(runs, EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION, "no name", null))))
			.isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(this.counters.dropped(DropReason.INVALID_INPUT)).isEqualTo(1);
		assertThat(attempts.rejectedInARow()).isEqualTo(2);

		assertThat(attempts.write(this.event, 1, (requests) -> {
		})).isEqualTo(WriteAttempts.Outcome.WRITTEN);
		assertThat(attempts.rejectedInARow()).isZero();
		assertThat(attempts.stats()).isEqualTo(new RecorderStats.Writes(0, 0, 0, 5));
	}

	@Test
	void aFailedWriteCountsEveryOccurrenceItCarriedWhateverTheReason() {
		WriteAttempts attempts = attempts(EventsApi.EVENTS_V1, new RetryPolicy(2, Duration.ofSeconds(10)),
				this.recording, () -> 0.5);
		AtomicInteger runs = new AtomicInteger();
		// a series write carrying 5 new occurrences, refused; 4, attempts used up; 3, construction failed
		assertThat(attempts.write(this.event, 5, failing(runs, EventSinkException.status(422, "Invalid", "bad"))))
			.isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(this.counters.lastRejection().error())
			.isEqualTo("Server rejected event carrying 5 occurrences (will not retry!): bad");
		assertThat(attempts.write(this.event, 4, failing(runs, transport()))).isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(attempts.write(this.event, 3, failing(runs,
				EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION, "no name", null))))
			.isEqualTo(WriteAttempts.Outcome.DROPPED);
		// a repeated final count carries none: the refusal is logged, nothing is lost
		assertThat(attempts.write(this.event, 0, failing(runs, EventSinkException.status(422, "Invalid", "bad"))))
			.isEqualTo(WriteAttempts.Outcome.DROPPED);
		attempts.cancel();
		assertThat(attempts.write(this.event, 7, failing(runs, transport()))).isEqualTo(WriteAttempts.Outcome.DROPPED);
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
			assertThat(attempts.writeOnce(this.event, 5, failing(runs, EventSinkException.status(422, "Invalid", "bad"))))
				.isEqualTo(WriteAttempts.Outcome.NOT_WRITTEN);
			assertThat(log.warnings()).singleElement()
				.asString()
				.startsWith("Unable to write event series (one attempt; its 5 new occurrence(s) wait for the series'"
						+ " next write)");
		}
		assertThat(this.counters.totalDropped()).isZero();
		assertThat(attempts.rejectedInARow()).isEqualTo(1);
		List<Integer> rerouted = new ArrayList<>();
		attempts.onForbidden((recorded, occurrences, verb, refusal) -> rerouted.add(occurrences));
		assertThat(attempts.writeOnce(this.event, 5,
				failing(runs, EventSinkException.status(403, "Forbidden", "cannot patch events"))))
			.as("the switch took the 5 occurrences over")
			.isEqualTo(WriteAttempts.Outcome.DROPPED);
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
		try (LogCapture log = LogCapture.of(WriteAttempts.class, Level.WARN)) {
			for (int i = 0; i < 3; i++) {
				attempts.write(this.event, 1, failing(runs, deleted));
				attempts.write(this.event, 2, failing(runs, terminating));
			}
			attempts.write(elsewhere, 1, failing(runs, deleted));
			assertThat(log.warnings()).hasSize(2);
			assertThat(log.warnings().get(0)).startsWith("Dropped event (rejected_by_server): namespace 'ns' is gone"
					+ " (deleted or terminating); its Events are counted as rejected_by_server, and logged at DEBUG for"
					+ " the next PT10S");
			assertThat(log.warnings().get(1)).startsWith("Dropped event (rejected_by_server): namespace 'other' is gone");
			this.clock.advance(Duration.ofSeconds(10));
			attempts.write(this.event, 1, failing(runs, deleted));
			assertThat(log.warnings()).as("the interval passed").hasSize(3);
		}
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(3 + 6 + 1 + 1);
		assertThat(attempts.rejectedInARow()).as("not a refusal of the recorder: health unchanged").isZero();
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
		assertThat(attempts.write(this.event, 3, failing(new AtomicInteger(), forbidden)))
			.isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(this.counters.totalDropped()).as("taken over").isZero();
		assertThat(attempts.stats().failed()).isZero();
		assertThat(attempts.rejectedInARow()).isZero();

		assertThat(attempts.write(this.event, 1, failing(new AtomicInteger(), forbidden)))
			.isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(1);
		assertThat(attempts.stats().failed()).isEqualTo(1);
		assertThat(attempts.rejectedInARow()).isEqualTo(1);
		assertThat(told).containsExactly("BackOff x3 create 403", "BackOff x1 create 403");

		// the handler is told the verb of the request the server refused
		assertThat(attempts.write(this.event, 2, (requests) -> requests.request("patch", () -> {
			throw forbidden;
		}))).isEqualTo(WriteAttempts.Outcome.DROPPED);
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
		attempts.cancel();
		assertThat(wakeUps).containsExactly("wakeAll");
		AtomicInteger runs = new AtomicInteger();
		assertThat(attempts.write(this.event, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.Outcome.DROPPED);
		assertThat(runs).hasValue(1);
		assertThat(this.sleeps).isEmpty();
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(1);

		attempts.resume();
		runs.set(0);
		assertThat(attempts.write(this.event, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.Outcome.DROPPED);
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
			self[0].cancel();
			return 0.5;
		});
		AtomicInteger runs = new AtomicInteger();
		assertThat(self[0].write(this.event, 1, failing(runs, transport()))).isEqualTo(WriteAttempts.Outcome.DROPPED);
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
			assertThat(attempts.write(this.event, 1, failing(runs, transport())))
				.isEqualTo(WriteAttempts.Outcome.DROPPED);
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(runs).hasValue(1);
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(1);
		assertThat(attempts.stats()).isEqualTo(new RecorderStats.Writes(0, 0, 0, 1));
	}

	/** A created Event's server stamp is compared with the recorder's clock just before the CREATE was sent. */
	@Test
	void aCreatedEventsServerStampIsComparedWithTheClockAroundTheCreate() throws Exception {
		WriteAttempts attempts = attempts(this.passing);
		CoreV1Event created = new CoreV1Event()
			.metadata(new V1ObjectMeta().creationTimestamp(OffsetDateTime.ofInstant(T0.minusSeconds(60), ZoneOffset.UTC)));
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			assertThat(attempts.request("create", null, () -> created)).isSameAs(created);
			assertThat(log.warnings()).singleElement()
				.asString()
				.startsWith("The recorder's clock is at least 59000 ms ahead of the API server's");
		}
	}

	@Test
	void requestsAreTimedOnTheTickerAndCountedByVerb() throws Exception {
		WriteAttempts attempts = attempts(this.passing);
		assertThat(attempts.request("create", null, () -> {
			this.ticker.addAndGet(250_000_000L);
			return "created";
		})).isEqualTo("created");
		assertThat(attempts.request("patch", null, () -> {
			this.ticker.addAndGet(40_000_000L);
			return "patched";
		})).isEqualTo("patched");
		EventSinkException invalid = EventSinkException.status(422, "Invalid", "bad event");
		try {
			attempts.request("patch", null, () -> {
				this.ticker.addAndGet(3_000_000L);
				throw invalid;
			});
		}
		catch (EventSinkException ex) {
			assertThat(ex).isSameAs(invalid);
		}
		assertThat(this.requests).containsExactly("core/v1 create success PT0.25S", "core/v1 patch success PT0.04S",
				"core/v1 patch client_error PT0.003S");
		assertThat(attempts.stats()).isEqualTo(new RecorderStats.Writes(1, 1, 0, 0));
		assertThat(this.sleeps).isEmpty();
	}

	@Test
	void aRetryAfterIsWaitedAndTheRequestRepeatedThenARequestAtTheEndOfTheHoldDoesNotWait() throws Exception {
		WriteAttempts attempts = attempts(this.passing);
		AtomicInteger sent = new AtomicInteger();
		assertThat(attempts.request("create", null, () -> {
			if (sent.incrementAndGet() == 1) {
				throw throttled(Duration.ofSeconds(2));
			}
			return "created";
		})).isEqualTo("created");
		assertThat(sent).hasValue(2);
		assertThat(this.counters.throttledBySource()).containsExactly(Map.entry("api_priority_and_fairness", 1L),
				Map.entry("event_rate_limit", 0L));
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(2));
		// the wait ended exactly when the hold does: the sink's next request goes at once
		assertThat(attempts.request("create", null, () -> "again")).isEqualTo("again");
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(2));
		assertThat(this.requests).containsExactly("core/v1 create client_error PT0S", "core/v1 create success PT0S",
				"core/v1 create success PT0S");
	}

	@Test
	void aShorterRetryAfterDoesNotShortenTheHoldALongerOneStarted() throws Exception {
		// one thread plays the sink's writers in turn; the recording sleeper lets no time pass, the test moves it
		WriteAttempts attempts = attempts(this.recording);
		AtomicInteger sent = new AtomicInteger();
		attempts.request("create", null, () -> {
			if (sent.incrementAndGet() == 1) {
				throw throttled(Duration.ofSeconds(30));
			}
			return "first writer";
		});
		this.ticker.addAndGet(Duration.ofSeconds(1).toNanos());
		attempts.request("create", null, () -> {
			if (sent.incrementAndGet() == 3) {
				throw throttled(Duration.ofSeconds(5));
			}
			return "second writer";
		});
		this.ticker.addAndGet(Duration.ofSeconds(9).toNanos());
		attempts.request("create", null, () -> "third writer");
		// 30 s asked at 0 s; 29 s left at 1 s, whose own 5 s answer ends earlier; 20 s left at 10 s
		assertThat(this.sleeps).containsExactly(Duration.ofSeconds(30), Duration.ofSeconds(29), Duration.ofSeconds(5),
				Duration.ofSeconds(20));
		assertThat(sent).hasValue(4);
	}

}
