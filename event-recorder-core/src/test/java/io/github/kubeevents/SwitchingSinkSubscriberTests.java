package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The composite of {@code auto}'s RBAC fallback, its hooks called directly as the distribution thread would: which
 * API each hook reaches before and after the switch, the bound of the rerouted occurrences, the series' held
 * occurrences handed over once each (or counted at a shutdown), and the snapshot.
 */
class SwitchingSinkSubscriberTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final EventSinkException FORBIDDEN = EventSinkException.status(403, "Forbidden",
			"events.events.k8s.io is forbidden");

	private final TickingClock clock = TickingClock.fixed(Instant.parse("2026-12-06T09:00:00Z"));

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	private final EventsV1SinkSubscriberTests.Script eventsV1 = new EventsV1SinkSubscriberTests.Script();

	private final ScriptedSink coreV1 = new ScriptedSink();

	private final AtomicInteger sleeps = new AtomicInteger();

	private final SinkSettings settings = TestSinks.settings(new RetryPolicy(3, Duration.ofSeconds(1)),
			(duration) -> this.sleeps.incrementAndGet(), (api, verb, result, duration) -> {
			}, this.clock);

	/** Whether the access review allows core/v1 (events.k8s.io/v1 is always refused). */
	private volatile boolean coreV1Allowed = true;

	private final ApiFallback apiFallback = new ApiFallback(new EventsAccess(
			(group, verb, namespace) -> group.isEmpty() && this.coreV1Allowed, EventsAccess.WRITE_VERBS, this.clock));

	private final EventsV1SinkSubscriber v1 = new EventsV1SinkSubscriber("sink", this.eventsV1,
			new ApiChoice(EventsApi.EVENTS_V1, "auto: discovery"), this.settings, this.counters,
			EventNaming.clientGo(), this.apiFallback, null, "");

	private final CoreV1SinkSubscriber core = new CoreV1SinkSubscriber("sink-core", this.coreV1,
			new ApiChoice(EventsApi.CORE_V1, "auto: fallback"), this.settings, this.counters);

	private final SwitchingSinkSubscriber sink = new SwitchingSinkSubscriber(this.v1, this.core, this.apiFallback, 2);

	/** Whether a test stopped the sink itself. */
	private boolean stopped;

	@AfterEach
	void stop() {
		if (!this.stopped) {
			TestSinks.abort(this.sink);
			this.sink.end(false);
		}
	}

	private static RecordedEvent occurrence() {
		return TestEvents.recorded("BackOff", "Back-off", TestEvents.object("Pod", "db-0", "ns"));
	}

	/** A write of {@code occurrences} on the events.k8s.io/v1 side that the server refuses with 403. */
	private WriteAttempts.State refusedWrite(int occurrences) {
		return this.v1.current().attempts().write("write", occurrence(), occurrences, (write, context) -> {
			throw FORBIDDEN;
		}).state();
	}

	/**
	 * Starts the sink and records three occurrences: a CREATE, the series' PATCH, and the third held in the series
	 * until the next pass.
	 */
	private void threeOccurrencesTheThirdHeldInTheSeries() {
		TestSinks.start(this.sink);
		this.sink.onEvent(occurrence());
		this.sink.onEvent(occurrence());
		await().atMost(WAIT).until(() -> this.eventsV1.calls.size() == 2);
		this.sink.onEvent(occurrence());
	}

	@Test
	void beforeTheSwitchEveryHookReachesEventsV1AndTheSnapshotSaysSo() {
		threeOccurrencesTheThirdHeldInTheSeries();
		// the passes are due 6 and 30 minutes after the start: a tick runs them (the series ends with its count)
		this.clock.advance(Duration.ofMinutes(30));
		this.sink.tick(this.clock.instant());
		await().atMost(WAIT).until(() -> this.eventsV1.calls.size() == 3);
		assertThat(this.eventsV1.calls).extracting(EventsV1SinkSubscriberTests.Call::verb)
			.containsExactly("create", "patch", "patch");
		assertThat(this.eventsV1.calls.get(2).patch().count()).isEqualTo(3);
		assertThat(this.coreV1.calls()).isEmpty();
		RecorderSnapshot.SinkSnapshot snapshot = this.sink.snapshot(10, (object) -> true);
		assertThat(snapshot.api()).isEqualTo("events.k8s.io/v1");
		assertThat(snapshot.apiReason()).isEqualTo("auto: discovery");
		assertThat(snapshot.series()).isNotNull();
		assertThat(snapshot.stats().created()).isEqualTo(1);
	}

	@Test
	void aRefusedWriteSwitchesAndItsOccurrencesAreWrittenOnCoreV1UpToTheBoundTheRestCountedAsQueueFull() {
		TestSinks.start(this.sink);
		assertThat(this.sink.current()).as("gauges and health read the run written").isSameAs(this.v1.current());
		assertThat(refusedWrite(3)).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.counters.dropped(DropReason.QUEUE_FULL)).as("a bound of 2").isEqualTo(1);
		assertThat(this.apiFallback.switched()).isNotNull();
		assertThat(this.sink.current()).isSameAs(this.core.current());
		assertThat(new InlineSink("sink", this.sink, this.counters, this.clock, (subscriber) -> {
		}).stats()).isEqualTo(this.core.current().stats("sink"));
		// the next hook on the subscriber thread hands the two over
		this.sink.tick(this.clock.instant());
		await().atMost(WAIT).until(() -> this.coreV1.calls().size() == 2);
		assertThat(this.coreV1.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch");
		RecorderSnapshot.SinkSnapshot snapshot = this.sink.snapshot(10, (object) -> true);
		assertThat(snapshot.api()).isEqualTo("core/v1");
		assertThat(snapshot.apiReason()).startsWith("auto: switched from events.k8s.io/v1");
		assertThat(snapshot.correlator()).isNotNull();
		assertThat(snapshot.stats().created()).as("the writes of both APIs").isEqualTo(1);
		assertThat(snapshot.stats().patched()).isEqualTo(1);
		assertThat(this.sink.current().health().read().rejectedInARow()).isZero();
	}

	@Test
	void aRefusalThatDoesNotSwitchIsADropOfEventsV1() {
		this.coreV1Allowed = false;
		TestSinks.start(this.sink);
		assertThat(refusedWrite(2)).isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(2);
		assertThat(this.apiFallback.switched()).isNull();
		assertThat(this.sink.current().health().read().rejectedInARow()).isEqualTo(1);
	}

	@Test
	void cancelAbortAndStartReachBothApisAndAStartAfterTheSwitchWritesCoreV1() {
		TestSinks.start(this.sink);
		refusedWrite(1);
		this.sink.onEvent(occurrence());
		await().atMost(WAIT).until(() -> this.coreV1.calls().size() == 2);

		TestSinks.cancel(this.sink);
		assertThat(this.coreV1.cancelCalls()).isEqualTo(1);
		assertThat(failingWithATransportError(this.v1)).as("cancelled: one attempt, no sleep")
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.sleeps).hasValue(0);
		TestSinks.start(this.sink);
		assertThat(failingWithATransportError(this.v1)).as("resumed: retried").isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.sleeps).hasValue(2);

		this.sink.beforeStop(false);
		this.sink.end(false);
		assertThat(TestSinks.join(this.sink, System.nanoTime() + WAIT.toNanos())).isTrue();
		TestSinks.start(this.sink);
		this.sink.onEvent(TestEvents.recorded("Started", "ok", TestEvents.object("Pod", "web-0", "ns")));
		await().atMost(WAIT).until(() -> this.coreV1.calls().size() == 3);

		TestSinks.abort(this.sink);
		this.sink.end(false);
		this.stopped = true;
		assertThat(this.coreV1.abortCalls()).isEqualTo(1);
		assertThat(this.sink.current().aborted()).isTrue();
	}

	/** A write of {@code side} that fails with a transport error every time. */
	private static WriteAttempts.State failingWithATransportError(SinkSubscriber side) {
		return side.current().attempts().write("write", occurrence(), 1, (write, context) -> {
			throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null);
		}).state();
	}

	@Test
	void aShutdownCountsWhatWasReroutedAndNotHandedOverAsShutdown() {
		TestSinks.start(this.sink);
		refusedWrite(2);
		// the deadline passed before the subscriber thread handed them over
		TestSinks.abort(this.sink);
		this.sink.end(true);
		this.stopped = true;
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(2);
		assertThat(this.coreV1.calls()).isEmpty();
	}

	@Test
	void theOccurrencesTheSeriesHeldAreHandedToCoreV1OnceEachAtTheSwitch() {
		threeOccurrencesTheThirdHeldInTheSeries();
		// then a refused write switches
		assertThat(refusedWrite(1)).isEqualTo(WriteAttempts.State.DROPPED);
		this.sink.tick(this.clock.instant());
		await().atMost(WAIT).until(() -> TestSinks.pending(this.core) == 0);
		assertThat(this.coreV1.calls()).as("the held one, then the refused one").extracting(ScriptedSink.Call::verb)
			.containsExactly("create", "patch");
		assertThat(this.coreV1.calls().get(1).patch().count()).isEqualTo(2);
		assertThat(this.eventsV1.calls).hasSize(2);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aShutdownCountsTheOccurrencesTheSeriesStillHeldAsShutdown() {
		threeOccurrencesTheThirdHeldInTheSeries();
		assertThat(this.sink.current().aborted()).isFalse();
		// the deadline passed before the final write
		TestSinks.abort(this.sink);
		assertThat(this.sink.current().aborted()).isTrue();
		this.sink.end(true);
		this.stopped = true;
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(1);
		assertThat(this.counters.totalDropped()).isEqualTo(1);
		assertThat(this.coreV1.calls()).isEmpty();
	}

	@Test
	void aResumeAfterACancelLetsCoreV1RetryAgain() {
		TestSinks.start(this.sink);
		TestSinks.cancel(this.sink);
		assertThat(failingWithATransportError(this.core)).as("cancelled: one attempt, no sleep")
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.sleeps).hasValue(0);
		TestSinks.start(this.sink);
		assertThat(failingWithATransportError(this.core)).as("resumed: retried")
			.isEqualTo(WriteAttempts.State.DROPPED);
		assertThat(this.sleeps).hasValue(2);
	}

	@Test
	void theWritersHaveNotEndedWhileTheEventsV1WriterRuns() {
		TestSinks.start(this.sink);
		this.sink.onEvent(occurrence());
		await().atMost(WAIT).until(() -> this.eventsV1.calls.size() == 1);
		assertThat(TestSinks.join(this.sink, System.nanoTime())).isFalse();
	}

}
