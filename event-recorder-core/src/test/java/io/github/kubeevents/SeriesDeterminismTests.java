package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import io.github.kubeevents.sink.EventsV1Sink;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 12 item 7: the series bookkeeping decides every request from the recorded sequence and the series
 * schedule alone, never from when a write completed. One recorded sequence (occurrences of a few events over an
 * hour and a half of a manual clock, crossing finish passes and heartbeats) is fed many times through a broadcaster
 * with four real writer threads; every run must make exactly the same requests. Before, with finish writes handed
 * to the writers ahead of the heartbeat pass, whether an idle series also got a heartbeat PATCH depended on thread
 * timing.
 */
class SeriesDeterminismTests {

	private static final Instant T0 = Instant.parse("2026-12-01T09:00:00.250000Z");

	private static final Duration WAIT = Duration.ofSeconds(20);

	/** One step of a recorded sequence: move the clock, then record an occurrence of one of the events. */
	private record Step(Duration advance, String pod, String reason) {
	}

	private static List<Step> sequence(long seed) {
		Random random = new Random(seed);
		List<Step> steps = new ArrayList<>();
		for (int i = 0; i < 120; i++) {
			// mostly seconds apart, sometimes minutes (so series finish, and heartbeats come due, in between)
			Duration advance = (random.nextInt(10) < 8) ? Duration.ofSeconds(1 + random.nextInt(20))
					: Duration.ofMinutes(1 + random.nextInt(8));
			steps.add(new Step(advance, "pod-" + random.nextInt(4), (random.nextBoolean()) ? "BackOff" : "Unhealthy"));
		}
		return steps;
	}

	/** The requests of one run, per object (writes about one object keep their order; objects interleave). */
	private static Map<String, List<String>> run(List<Step> steps) {
		TickingClock clock = TickingClock.fixed(T0);
		EventsV1SinkSubscriberTests.Script sink = new EventsV1SinkSubscriberTests.Script();
		EventBroadcaster broadcaster = EventBroadcaster.builder().clock(clock).sinkWriters(4).build();
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(new EventSource("example.com/controller", "host-1"));
		try {
			for (Step step : steps) {
				clock.advance(step.advance());
				recorder.about(TestEvents.object("Pod", step.pod(), "ns")).warning(step.reason(), "m");
				// the next step moves the clock only once the sink subscriber has taken this occurrence
				await().atMost(WAIT)
					.pollDelay(Duration.ZERO)
					.pollInterval(Duration.ofMillis(1))
					.until(() -> broadcaster.stats().subscribers().get(0).depth() == 0);
			}
			clock.advance(Duration.ofMinutes(40));
			await().atMost(WAIT)
				.until(() -> broadcaster.snapshot(0).sinks().get(0).series().size() == 0
						&& broadcaster.stats().subscribers().get(0).depth() == 0);
		}
		finally {
			broadcaster.shutdown(WAIT);
		}
		Map<String, List<String>> requests = new TreeMap<>();
		for (EventsV1SinkSubscriberTests.Call call : sink.calls) {
			EventsV1Sink.SeriesPatch patch = call.patch();
			requests.computeIfAbsent(call.event().getRegarding().getName(), (k) -> new ArrayList<>())
				.add(call.verb() + " " + call.event().getMetadata().getName() + " " + call.event().getReason()
						+ ((patch != null) ? " count=" + patch.count() + " last=" + patch.lastObservedTime() : ""));
		}
		return requests;
	}

	@Test
	void oneRecordedSequenceAlwaysMakesTheSameRequests() {
		List<Step> steps = sequence(1201);
		Map<String, List<String>> first = run(steps);
		assertThat(first.values().stream().mapToInt(List::size).sum()).as("requests of the sequence").isGreaterThan(30);
		assertThat(first.values().stream().flatMap(List::stream)).as("heartbeats and finishes happen")
			.anyMatch((request) -> request.startsWith("patch") && !request.contains("count=2 "));
		for (int i = 1; i < 10; i++) {
			assertThat(run(steps)).as("run %d", i).isEqualTo(first);
		}
	}

}
