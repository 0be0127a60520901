package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsV1Sink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 12 items 1 and 4: a broadcaster survives stop/start cycles (a paused test context, a checkpoint) without
 * losing what was recorded before, during or after a stop, and without leaving a thread behind; a series whose
 * count is ahead of the server gets its final write before a stop or shutdown ends; a drop after the final summary
 * is still logged once.
 */
class EventBroadcasterRestartTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final Instant T0 = Instant.parse("2026-12-01T10:00:00.123456789Z");

	private final TickingClock clock = TickingClock.fixed(T0);

	private final List<EventBroadcaster> broadcasters = new ArrayList<>();

	@AfterEach
	void shutDown() {
		this.broadcasters.forEach((broadcaster) -> broadcaster.shutdown(WAIT));
		await().atMost(WAIT).untilAsserted(() -> assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty());
	}

	private EventBroadcaster broadcaster(EventBroadcaster.Builder builder) {
		EventBroadcaster broadcaster = builder.clock(this.clock).build();
		this.broadcasters.add(broadcaster);
		return broadcaster;
	}

	private static List<String> reasons(ScriptedSink sink) {
		return sink.calls().stream().map((call) -> call.event().getReason()).toList();
	}

	@Test
	void eventsRecordedBeforeDuringAndAfterAStopAreAllWritten() {
		ScriptedSink sink = new ScriptedSink();
		// one writer: one global write order, so the order of what is written can be asserted
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().sinkWriters(1));
		broadcaster.startRecordingToSink(sink);
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("c"));
		broadcaster.start();
		recorder.event(TestEvents.object("Pod", "a", "ns"), EventType.NORMAL, "Before", "m");
		assertThat(broadcaster.stop(WAIT)).isTrue();
		// what was recorded before the stop is written by the time it returns
		assertThat(reasons(sink)).containsExactly("Before");
		assertThat(broadcaster.stats().state()).isEqualTo("stopped");
		assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty();

		recorder.event(TestEvents.object("Pod", "b", "ns"), EventType.NORMAL, "WhileStopped", "m");
		assertThat(broadcaster.stats().queue().depth()).isEqualTo(1);
		assertThat(reasons(sink)).containsExactly("Before");

		broadcaster.start();
		recorder.event(TestEvents.object("Pod", "c", "ns"), EventType.NORMAL, "After", "m");
		await().atMost(WAIT).until(() -> sink.calls().size() == 3);
		assertThat(reasons(sink)).containsExactly("Before", "WhileStopped", "After");
		assertThat(broadcaster.stats().totalDropped()).isZero();
		assertThat(broadcaster.stats().writes().created()).isEqualTo(3);
	}

	@Test
	void aThousandStopStartCyclesLeaveNoThreadBehindAndLoseNothing() {
		ScriptedSink sink = new ScriptedSink();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.startRecordingToSink(sink);
		broadcaster.startLogging();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("c"));
		for (int i = 0; i < 1000; i++) {
			broadcaster.start();
			recorder.event(TestEvents.object("Pod", "p-" + i, "ns"), EventType.NORMAL, "Cycle" + i, "m");
			assertThat(broadcaster.stop(WAIT)).as("stop %d", i).isTrue();
			if (i % 100 == 0) {
				assertThat(EventBroadcasterTests.kubeEventsThreads()).as("threads after stop %d", i).isEmpty();
			}
		}
		assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty();
		assertThat(sink.calls()).hasSize(1000);
		assertThat(broadcaster.stats().accepted()).isEqualTo(1000);
		assertThat(broadcaster.stats().totalDropped()).isZero();
	}

	@Test
	void stopIsANoOpUnlessRunningAndNothingStartsAfterShutdown() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.startRecordingToSink(new ScriptedSink());
		assertThat(broadcaster.stop(WAIT)).as("not started").isFalse();
		assertThat(broadcaster.stats().state()).isEqualTo("new");
		broadcaster.start();
		assertThat(broadcaster.stop(WAIT)).isTrue();
		assertThat(broadcaster.stop(WAIT)).as("already stopped").isTrue();
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		broadcaster.start();
		assertThat(broadcaster.stats().state()).isEqualTo("terminated");
		assertThat(broadcaster.stop(WAIT)).isFalse();
		assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty();
	}

	@Test
	void aSeriesAheadOfTheServerGetsItsFinalCountBeforeAStopAndAShutdownEnd() {
		EventsV1SinkSubscriberTests.Script sink = new EventsV1SinkSubscriberTests.Script();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		ObjectRecorder db = broadcaster.newRecorder(new EventSource("example.com/c", "h")).about(TestEvents.object("Pod", "db-0", "ns"));
		for (int i = 0; i < 6; i++) {
			db.warning("Unhealthy", "probe failed");
		}
		assertThat(broadcaster.stop(WAIT)).isTrue();
		assertThat(sink.calls).extracting((call) -> (call.patch() != null) ? call.patch().count() : 1)
			.containsExactly(1, 2, 6);
		broadcaster.start();
		db.warning("Unhealthy", "probe failed");
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(sink.calls).extracting((call) -> (call.patch() != null) ? call.patch().count() : 1)
			.containsExactly(1, 2, 6, 7);
		assertThat(sink.calls.get(3).patch()).isEqualTo(new EventsV1Sink.SeriesPatch(7, T0));
	}

	@Test
	void aFinalCountThatCannotBeWrittenAtShutdownIsCountedInTheFinalSummary() {
		EventsV1SinkSubscriberTests.Script sink = new EventsV1SinkSubscriberTests.Script();
		sink.failAt.put(2, EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null));
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		ObjectRecorder db = broadcaster.newRecorder(new EventSource("example.com/c", "h")).about(TestEvents.object("Pod", "db-0", "ns"));
		try (LogCapture log = LogCapture.of(EventCounters.class, Level.INFO)) {
			for (int i = 0; i < 6; i++) {
				db.warning("Unhealthy", "probe failed");
			}
			await().atMost(WAIT).until(() -> sink.calls.size() == 2);
			assertThat(broadcaster.shutdown(WAIT)).isTrue();
			// shutdown gives the final write its one attempt (client-go's rule), then counts each of the 4
			// occurrences it carried: 6 accepted = 2 on the server + 4 dropped
			assertThat(sink.calls).hasSize(3);
			assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(4);
			assertThat(log.warnings()).last().asString()
				.startsWith("Kubernetes event recorder stopped: accepted 6, created 1, patched 1, dropped 4")
				.contains("shutdown=4");
		}
	}

	@Test
	void aDropAfterTheFinalSummaryIsStillLoggedOnce() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("c"));
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		try (LogCapture log = LogCapture.of(EventCounters.class, Level.INFO)) {
			recorder.event(TestEvents.object("Pod", "late", "ns"), EventType.WARNING, "Late", "m");
			recorder.event(TestEvents.object("Pod", "later", "ns"), EventType.WARNING, "Later", "m");
			assertThat(log.warnings()).singleElement().asString()
				.isEqualTo("Dropped 1 event(s) (shutdown) since the last report; latest: object=\"ns/late\" kind=\"Pod\""
						+ " type=\"Warning\" reason=\"Late\"");
		}
		assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(2);
	}

}
