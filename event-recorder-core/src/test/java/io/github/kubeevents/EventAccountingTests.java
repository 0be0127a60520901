package io.github.kubeevents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 8, item 8: accounting at scale. Every submitted event is accepted or dropped at record time, and every
 * accepted event is written or dropped downstream, exactly, by the broadcaster's own counters
 * ({@code acceptedCount()}, {@code droppedByReason()}, {@code sinkStats()}, and each subscriber's queue-full drops
 * from {@code subscriberSnapshots()}).
 *
 * <p>{@code droppedByReason()} has one {@code queue_full} and one {@code shutdown} count for both stages. The
 * {@code queue_full} split is recoverable (a subscriber's own drops are in its snapshot); the {@code shutdown} split
 * is not. So each scenario makes one of the two {@code shutdown} stages empty by construction (all submissions end
 * before shutdown, or the drain completes in time with a sink that never fails), and the scenario with both is
 * checked by the total alone.
 */
class EventAccountingTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final int THREADS = 8;

	private static final int PER_THREAD = 125_000;

	/** One submission in this many is invalid (null type). */
	private static final int INVALID_EVERY = 1000;

	private final List<InvolvedObject> pods = new ArrayList<>();

	private LogCapture quiet;

	@BeforeEach
	void objects() throws Exception {
		for (int i = 0; i < 100; i++) {
			this.pods.add(InvolvedObject.of("Pod", "v1", "load", "pod-" + i));
		}
		// the floods below would otherwise print thousands of WARN lines
		this.quiet = LogCapture.of("io.github.kubeevents", Level.ERROR);
		// load the client's JSON machinery (seconds on a busy machine) before the sink is timed
		new ScriptedSink().create(io.github.kubeevents.CoreV1Events
			.of(TestEvents.recorded("Warm", "up", this.pods.get(0))));
	}

	@AfterEach
	void restore() {
		this.quiet.close();
		await().atMost(WAIT).untilAsserted(() -> assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty());
	}

	/** What the counters say, in one place. */
	private record Counts(long accepted, long queueFull, long queueFullAtSubscriber, long spam, long rejected,
			long exhausted, long shutdown, long invalid, long written, RecorderStats.Writes sink) {

		static Counts of(EventBroadcaster broadcaster) {
			Map<String, Long> dropped = broadcaster.stats().dropped();
			long atSubscribers = broadcaster.stats().subscribers()
				.stream()
				.mapToLong(RecorderStats.Subscriber::dropped)
				.sum();
			RecorderStats.Writes sink = broadcaster.stats().writes();
			return new Counts(broadcaster.stats().accepted(), dropped.get("queue_full"), atSubscribers,
					dropped.get("spam_filtered"), dropped.get("rejected_by_server"), dropped.get("retries_exhausted"),
					dropped.get("shutdown"), dropped.get("invalid_input"), sink.created() + sink.patched(), sink);
		}

		long queueFullAtRecord() {
			return this.queueFull - this.queueFullAtSubscriber;
		}

		long totalDropped() {
			return this.queueFull + this.spam + this.rejected + this.exhausted + this.shutdown + this.invalid;
		}

	}

	/** What the submitting threads did. */
	private record Submitted(long total, long invalid) {
	}

	/**
	 * Submits from {@link #THREADS} threads: each makes {@code atLeast} calls, goes on while {@code keepGoing}
	 * holds, then makes {@code extra} more. One call in {@link #INVALID_EVERY} has no type (invalid input).
	 * {@code meanwhile} runs on the calling thread once the threads have started.
	 */
	private Submitted submit(EventRecorder recorder, int objects, int atLeast, BooleanSupplier keepGoing, int extra,
			Runnable meanwhile) throws InterruptedException {
		LongAdder submitted = new LongAdder();
		LongAdder invalid = new LongAdder();
		CountDownLatch go = new CountDownLatch(1);
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < THREADS; t++) {
			Thread submitter = new Thread(() -> {
				try {
					go.await();
				}
				catch (InterruptedException ex) {
					return;
				}
				int n = 0;
				while (n < atLeast || keepGoing.getAsBoolean()) {
					submitOne(recorder, objects, n++, invalid);
				}
				for (int i = 0; i < extra; i++) {
					submitOne(recorder, objects, n++, invalid);
				}
				submitted.add(n);
			}, "submitter-" + t);
			submitter.start();
			threads.add(submitter);
		}
		go.countDown();
		meanwhile.run();
		for (Thread thread : threads) {
			thread.join();
		}
		return new Submitted(submitted.sum(), invalid.sum());
	}

	/** Event {@code n}: the same (object, reason, message) comes back every {@code 3 * objects} events. */
	private void submitOne(EventRecorder recorder, int objects, int n, LongAdder invalid) {
		EventType type = EventType.NORMAL;
		if (n % INVALID_EVERY == INVALID_EVERY - 1) {
			type = null;
			invalid.increment();
		}
		recorder.event(this.pods.get(n % objects), type, "Reason" + (n % 3), "message " + (n % (3 * objects)));
	}

	/**
	 * Waits for the library's threads to end before reading the counters. On a loaded machine the sink's thread
	 * can outlive the grace after the deadline; its queue is counted then, but the event inside its handler only
	 * when the handler returns.
	 */
	private static void awaitQuiescence() {
		await().atMost(WAIT).until(() -> EventBroadcasterTests.kubeEventsThreads().isEmpty());
	}

	@Test
	void aMillionEventsFromEightThreadsIntoASlowSinkAreAccountedForExactly() throws Exception {
		// 500 µs a call: the writers stay far behind the recording threads even on a loaded machine, so the sink's
		// backlog overflows as this test needs
		ScriptedSink sink = new ScriptedSink().withoutCallLog().delayEachCall(Duration.ofNanos(500_000));
		// every event the sink takes is a slow call (no spam filter, which would drain the backlog at once); with 4
		// objects the same event comes back every 12 events, so repeats are PATCHed
		// a small incoming queue and a small backlog, so that both overflow whatever the machine's load
		EventBroadcaster broadcaster = EventBroadcaster.builder()
			.incomingQueueCapacity(1024)
			.sinkBacklogCapacity(1024)
			.correlatorOptions(CorrelatorOptions.builder().spamFilterEnabled(false).build())
			.build();
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("load"));
		Submitted run = submit(recorder, 4, PER_THREAD, () -> false, 0, () -> {
		});
		long submitted = run.total();
		assertThat(submitted).isEqualTo(1_000_000);
		// every submission has returned: no event can be dropped at record time for shutdown
		assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isZero();
		// the sink is far behind, and its next call hangs until aborted: the deadline passes, the backlog is lost
		// to shutdown downstream
		sink.delayEachCall(Duration.ofHours(1));
		assertThat(broadcaster.shutdown(Duration.ofMillis(20))).isFalse();
		awaitQuiescence();
		Counts counts = Counts.of(broadcaster);
		long shutdownAtRecord = 0;

		assertThat(counts.invalid()).isEqualTo(run.invalid()).isEqualTo(1000);
		assertThat(counts.accepted() + counts.queueFullAtRecord() + shutdownAtRecord + counts.invalid())
			.as("accepted + queue_full(at record) + shutdown(at record) + invalid_input == submitted; %s", counts)
			.isEqualTo(submitted);
		assertThat(counts.written() + counts.queueFullAtSubscriber() + counts.spam() + counts.rejected()
				+ counts.exhausted() + (counts.shutdown() - shutdownAtRecord))
			.as("written + every downstream drop == accepted; %s", counts)
			.isEqualTo(counts.accepted());
		assertThat(counts.written()).as("the sink's own count").isEqualTo(sink.succeeded());
		// every stage downstream was exercised: the sink's full backlog drops for the sink (the distribution thread
		// never waits for it); the incoming queue overflows only when recording outruns distribution itself
		assertThat(counts.queueFullAtSubscriber()).isPositive();
		assertThat(counts.shutdown()).isPositive();
		assertThat(counts.written()).isPositive();
		assertThat(counts.sink().patched()).isPositive();
	}

	@Test
	void recordingAfterShutdownIsAccountedForExactly() throws Exception {
		ScriptedSink sink = new ScriptedSink().withoutCallLog();
		// small queues, so that queue_full happens at record time and at the subscriber whatever the machine's load
		EventBroadcaster broadcaster = EventBroadcaster.builder()
			.incomingQueueCapacity(1024)
			.subscriberOptions(new Subscription.Options(256, Subscription.FullQueuePolicy.DROP))
			.build();
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("load"));
		// 10 objects: 250 tokens in all, so the spam filter drops the rest of what the sink takes
		Submitted before = submit(recorder, 10, 40_000, () -> false, 0, () -> {
		});
		// a drain in time with a sink that never fails loses nothing downstream to shutdown
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		Submitted after = submit(recorder, 10, 1000, () -> false, 0, () -> {
		});
		long submitted = before.total() + after.total();
		Counts counts = Counts.of(broadcaster);
		long shutdownAtRecord = counts.shutdown();

		assertThat(shutdownAtRecord).isEqualTo(after.total() - after.invalid()).isEqualTo(7992);
		assertThat(counts.accepted() + counts.queueFullAtRecord() + shutdownAtRecord + counts.invalid())
			.as("accepted + queue_full(at record) + shutdown(at record) + invalid_input == submitted; %s", counts)
			.isEqualTo(submitted);
		assertThat(counts.written() + counts.queueFullAtSubscriber() + counts.spam() + counts.rejected()
				+ counts.exhausted())
			.as("written + every downstream drop == accepted; %s", counts)
			.isEqualTo(counts.accepted());
		assertThat(counts.written()).isEqualTo(sink.succeeded());
		assertThat(counts.invalid()).isEqualTo(before.invalid() + after.invalid());
		assertThat(counts.queueFullAtRecord()).isPositive();
		// no subscriber queue for a sink (it runs on the distribution thread): the subscriber options do not apply
		assertThat(counts.queueFullAtSubscriber()).isZero();
		assertThat(counts.spam()).isPositive();
		assertThat(counts.written()).isPositive();
	}

	@Test
	void recordingThatRacesACleanShutdownLosesNothingUncounted() throws Exception {
		ScriptedSink sink = new ScriptedSink().withoutCallLog();
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("load"));
		AtomicBoolean drained = new AtomicBoolean();
		Submitted run = submit(recorder, 100, 1000, () -> !broadcaster.isShutdown(), 1000, () -> {
			await().atMost(WAIT).until(() -> broadcaster.stats().accepted() > 2_000);
			drained.set(broadcaster.shutdown(WAIT));
		});
		assertThat(drained).isTrue();
		Counts counts = Counts.of(broadcaster);
		// an event accepted just as shutdown begins can land behind the shutdown marker and be dropped by the
		// distributor: a shutdown drop after acceptance that droppedByReason() cannot tell from one at record time
		assertThat(counts.written() + counts.totalDropped()).as("%s", counts).isEqualTo(run.total());
		assertThat(counts.shutdown()).as("each thread submitted 1000 more after shutdown").isGreaterThanOrEqualTo(7992);
		assertThat(counts.written()).isEqualTo(sink.succeeded());
		assertThat(counts.invalid()).isEqualTo(run.invalid());
	}

	@Test
	void shutdownDeadlineRacingRecordingLosesNothingUncounted() throws Exception {
		// 500 µs a call: the writers stay far behind the recording threads even on a loaded machine, so the sink's
		// backlog overflows as this test needs
		ScriptedSink sink = new ScriptedSink().withoutCallLog().delayEachCall(Duration.ofNanos(500_000));
		EventBroadcaster broadcaster = EventBroadcaster.builder()
			.correlatorOptions(CorrelatorOptions.builder().spamFilterEnabled(false).build())
			.build();
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("load"));
		long submitted = submit(recorder, 100, 1000, () -> !broadcaster.isShutdown(), 1000, () -> {
			await().atMost(WAIT).until(() -> broadcaster.stats().accepted() > 5_000);
			sink.delayEachCall(Duration.ofHours(1));
			assertThat(broadcaster.shutdown(Duration.ofMillis(5))).isFalse();
		}).total();
		awaitQuiescence();
		Counts counts = Counts.of(broadcaster);
		// both shutdown stages are non-empty here and droppedByReason() cannot tell them apart: only the total
		assertThat(counts.written() + counts.totalDropped()).as("%s", counts).isEqualTo(submitted);
		assertThat(counts.written() + counts.queueFullAtSubscriber() + counts.spam() + counts.rejected()
				+ counts.exhausted())
			.as("at most the accepted events are written or dropped downstream other than by shutdown")
			.isLessThanOrEqualTo(counts.accepted());
		assertThat(counts.written()).isEqualTo(sink.succeeded());
	}

	@Test
	void aThousandStartStopCyclesLeaveNoThreadBehind() {
		for (int i = 0; i < 1000; i++) {
			ScriptedSink sink = new ScriptedSink().withoutCallLog();
			EventBroadcaster broadcaster = EventBroadcaster.builder().build();
			broadcaster.startRecordingToSink(sink);
			broadcaster.startLogging();
			broadcaster.subscribe("handler", (event) -> {
			});
			broadcaster.start();
			broadcaster.newRecorder(EventSource.of("cycle")).event(this.pods.get(i % 100), EventType.NORMAL, "R", "m");
			if (i % 2 == 0) {
				assertThat(broadcaster.shutdown(WAIT)).isTrue();
				assertThat(sink.succeeded()).isEqualTo(1);
			}
			else {
				broadcaster.close();
			}
		}
		assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty();
	}

}
