package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29 item 2: the minimum interval between count updates of a core/v1 Event (opt-in). Repeats within the
 * interval of the Event's last write are coalesced into one PATCH with the latest count and timestamp, written when
 * the interval ends or at a stop; what a shutdown past its deadline still holds is counted once per occurrence.
 * The spam filter is off in these tests so that every one of the repeats reaches the sink's decision.
 */
class MinUpdateIntervalTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private static final Duration INTERVAL = Duration.ofSeconds(30);

	private final TickingClock clock = TickingClock.fixed(START);

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	private final ScriptedSink sink = new ScriptedSink();

	private final List<CoreV1SinkSubscriber> recordings = new CopyOnWriteArrayList<>();

	private final InvolvedObject pod = TestEvents.object("Pod", "web-0", "ns");

	@AfterEach
	void stopWriters() {
		this.recordings.forEach((recording) -> recording.end(false));
	}

	private CoreV1SinkSubscriber recording(Duration interval) {
		CorrelatorOptions options = CorrelatorOptions.builder().spamFilterEnabled(false).minUpdateInterval(interval)
			.clock(this.clock).build();
		SinkSettings settings = TestSinks.settings(new RetryPolicy(3, Duration.ZERO), (duration) -> {
		}, (api, verb, result, duration) -> {
		}, this.clock, EventShape.CLIENT_GO, options);
		CoreV1SinkSubscriber recording = new CoreV1SinkSubscriber("sink", this.sink,
				new ApiChoice(EventsApi.CORE_V1, "configured"), settings, this.counters);
		TestSinks.start(recording);
		this.recordings.add(recording);
		return recording;
	}

	/** One occurrence of the same Warning, at the clock's time; the clock then moves on by {@code step}. */
	private void occur(CoreV1SinkSubscriber recording, Duration step) {
		recording.onEvent(new RecordedEvent(this.pod, null, EventType.WARNING, "BackOff", null,
				"Back-off restarting failed container", Map.of(), TestEvents.SOURCE, this.clock.instant()));
		this.clock.advance(step);
	}

	private void tickAt(CoreV1SinkSubscriber recording, Instant time) {
		this.clock.advance(Duration.between(this.clock.instant(), time));
		recording.tick(this.clock.instant());
		settle(recording);
	}

	private static void settle(CoreV1SinkSubscriber recording) {
		Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> TestSinks.pending(recording) == 0);
	}

	private List<String> calls() {
		return this.sink.calls().stream()
			.map((call) -> call.verb() + ((call.patch() != null) ? " " + call.patch().count() : ""))
			.toList();
	}

	private int storedCount() {
		return this.sink.stored().values().iterator().next().getCount();
	}

	@Test
	void aThousandRepeatBurstIsOneCreateAndOnePatchWithTheExactCountWhenTheIntervalEnds() {
		CoreV1SinkSubscriber recording = recording(INTERVAL);
		for (int i = 0; i < 1000; i++) {
			occur(recording, Duration.ofMillis(10));
		}
		settle(recording);
		assertThat(calls()).containsExactly("create");
		assertThat(recording.snapshot(0, (object) -> true).correlator())
			.satisfies((correlator) -> assertThat(correlator.heldUpdates()).isEqualTo(1))
			.satisfies((correlator) -> assertThat(correlator.heldOccurrences()).isEqualTo(999));
		tickAt(recording, START.plus(INTERVAL).minusMillis(1));
		assertThat(calls()).containsExactly("create");
		tickAt(recording, START.plus(INTERVAL));
		assertThat(calls()).containsExactly("create", "patch 1000");
		assertThat(recording.snapshot(0, (object) -> true).correlator().heldOccurrences()).isZero();
		// released once: a later tick writes nothing more
		tickAt(recording, START.plus(INTERVAL).plus(INTERVAL));
		assertThat(calls()).containsExactly("create", "patch 1000");
		// the latest occurrence's time, 9.99 s after the first, in core/v1's whole seconds
		assertThat(this.sink.calls().get(1).patch().lastTimestamp()).isEqualTo(CoreV1Events.timestamp(START.plusSeconds(9)));
		assertThat(storedCount()).isEqualTo(1000);
		assertThat(this.counters.totalDropped()).isZero();
		assertThat(recording.writes()).isEqualTo(new RecorderStats.Writes(1, 1, 0, 0));
	}

	@Test
	void withoutTheIntervalEveryRepeatIsAPatchAsInClientGo() {
		CoreV1SinkSubscriber recording = recording(Duration.ZERO);
		for (int i = 0; i < 1000; i++) {
			occur(recording, Duration.ofMillis(10));
		}
		settle(recording);
		assertThat(this.sink.calls()).hasSize(1000);
		assertThat(calls().get(999)).isEqualTo("patch 1000");
		assertThat(storedCount()).isEqualTo(1000);
	}

	@Test
	void aRepeatAfterTheIntervalEndedGoesAtOnceWithWhatWasHeldAndStartsTheNextInterval() {
		CoreV1SinkSubscriber recording = recording(INTERVAL);
		occur(recording, Duration.ofSeconds(5));
		occur(recording, Duration.ofSeconds(26));
		occur(recording, Duration.ofSeconds(9));
		occur(recording, Duration.ZERO);
		settle(recording);
		// created at 0, held at 5, released with the repeat at 31, which holds the one at 40 until 61
		assertThat(calls()).containsExactly("create", "patch 3");
		assertThat(recording.snapshot(0, (object) -> true).correlator().heldOccurrences()).isEqualTo(1);
		tickAt(recording, START.plusSeconds(60));
		assertThat(calls()).containsExactly("create", "patch 3");
		tickAt(recording, START.plusSeconds(61));
		assertThat(calls()).containsExactly("create", "patch 3", "patch 4");
		assertThat(storedCount()).isEqualTo(4);
	}

	@Test
	void aStopWritesWhatIsHeldWithoutWaitingForTheInterval() {
		CoreV1SinkSubscriber recording = recording(INTERVAL);
		for (int i = 0; i < 5; i++) {
			occur(recording, Duration.ofSeconds(1));
		}
		recording.beforeStop(false);
		settle(recording);
		assertThat(calls()).containsExactly("create", "patch 5");
		// released once: neither the end of the interval nor the end of the stop writes it again
		tickAt(recording, START.plus(INTERVAL));
		recording.end(false);
		assertThat(calls()).containsExactly("create", "patch 5");
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aShutdownPastItsDeadlineCountsEveryHeldOccurrenceAsShutdown() {
		CoreV1SinkSubscriber recording = recording(INTERVAL);
		for (int i = 0; i < 5; i++) {
			occur(recording, Duration.ofSeconds(1));
		}
		settle(recording);
		TestSinks.abort(recording);
		recording.end(true);
		assertThat(calls()).containsExactly("create");
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(4);
		assertThat(this.counters.totalDropped()).isEqualTo(4);
	}

	@Test
	void aCoalescedPatchInFlightWhenTheShutdownDeadlinePassesIsCountedOncePerOccurrenceItCarried() {
		CoreV1SinkSubscriber recording = recording(INTERVAL);
		for (int i = 0; i < 5; i++) {
			occur(recording, Duration.ofSeconds(1));
		}
		settle(recording);
		// the server hangs: the final write of the 4 held repeats is in flight when the deadline passes
		this.sink.delayEachCall(Duration.ofHours(1));
		TestSinks.cancel(recording);
		recording.beforeStop(true);
		Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> this.sink.callCount() == 2);
		TestSinks.abort(recording);
		recording.end(true);
		assertThat(calls()).containsExactly("create", "patch 5");
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(4);
		assertThat(this.counters.totalDropped()).isEqualTo(4);
	}

	@Test
	void aCoalescedPatchTheServerRefusesIsCountedOncePerOccurrenceItCarried() {
		CoreV1SinkSubscriber recording = recording(INTERVAL);
		for (int i = 0; i < 7; i++) {
			occur(recording, Duration.ofSeconds(1));
		}
		settle(recording);
		this.sink.failNext(EventSinkException.status(500, "InternalError", "boom"));
		tickAt(recording, START.plus(INTERVAL));
		assertThat(calls()).containsExactly("create", "patch 7");
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(6);
		assertThat(this.counters.totalDropped()).isEqualTo(6);
	}

	@Test
	void heldUpdatesAreBoundedAndOneBeyondTheBoundIsWrittenAtOnce() {
		UpdateCoalescer coalescer = new UpdateCoalescer(INTERVAL, 10, 1);
		CorrelationResult firstOfA = result("a", 1);
		CorrelationResult firstOfB = result("b", 1);
		RecordedEvent recorded = TestEvents.recorded("BackOff", "m", this.pod);
		assertThat(coalescer.offer(recorded, firstOfA, START)).hasSize(1);
		assertThat(coalescer.offer(recorded, firstOfB, START)).hasSize(1);
		assertThat(coalescer.offer(recorded, result("a", 2), START.plusSeconds(1))).isEmpty();
		assertThat(coalescer.offer(recorded, result("a", 3), START.plusSeconds(2))).isEmpty();
		assertThat(coalescer.heldEvents()).isEqualTo(1);
		assertThat(coalescer.heldOccurrences()).isEqualTo(2);
		List<UpdateCoalescer.Release> beyond = coalescer.offer(recorded, result("b", 2), START.plusSeconds(2));
		assertThat(beyond).extracting((release) -> release.result().event().getCount()).containsExactly(2);
		List<UpdateCoalescer.Release> all = coalescer.releaseAll();
		assertThat(all).extracting((release) -> release.result().event().getCount() + "x" + release.occurrences())
			.containsExactly("3x2");
		assertThat(coalescer.heldOccurrences()).isZero();
	}

	@Test
	void aNewEventUnderAHeldNameWritesTheHeldUpdateFirst() {
		UpdateCoalescer coalescer = new UpdateCoalescer(INTERVAL, 10);
		RecordedEvent recorded = TestEvents.recorded("BackOff", "m", this.pod);
		coalescer.offer(recorded, result("a", 1), START);
		assertThat(coalescer.offer(recorded, result("a", 2), START.plusSeconds(1))).isEmpty();
		assertThat(coalescer.offer(recorded, result("a", 1), START.plusSeconds(2)))
			.extracting((release) -> release.result().event().getCount() + "x" + release.occurrences())
			.containsExactly("2x1", "1x1");
		assertThat(coalescer.heldEvents()).isZero();
		assertThat(coalescer.heldOccurrences()).isZero();
		assertThat(coalescer.releaseAll()).isEmpty();
	}

	@Test
	void aZeroIntervalCoalescesNothingAndCostsNothing() {
		assertThat(new UpdateCoalescer(Duration.ZERO, 10).enabled()).isFalse();
		assertThat(new UpdateCoalescer(Duration.ofMillis(1), 10).enabled()).isTrue();
	}

	private static CorrelationResult result(String name, int count) {
		CoreV1Event event = TestEvents.event("BackOff", "m", TestEvents.ref("Pod", "web-0", "ns")).count(count);
		event.getMetadata().setName(name);
		return new CorrelationResult(event, null, false);
	}

}
