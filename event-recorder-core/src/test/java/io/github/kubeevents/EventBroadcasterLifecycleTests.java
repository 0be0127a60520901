package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.RetryPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The broadcaster's lifecycle: nothing runs before {@code start()}, one state that only moves forward, only the
 * first shutdown waits, the shutdown deadline holds (blocked subscribers are interrupted or abandoned, sinks
 * aborted) and every event lost to it is counted. No test measures a duration: blocked handlers wait on latches
 * and the assertions look at states and counters.
 */
class EventBroadcasterLifecycleTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final List<EventBroadcaster> broadcasters = new ArrayList<>();

	/** Opened at the end of each test so no handler stays blocked. */
	private final CountDownLatch release = new CountDownLatch(1);

	private EventBroadcaster broadcaster(EventBroadcaster.Builder builder) {
		EventBroadcaster broadcaster = builder.build();
		this.broadcasters.add(broadcaster);
		return broadcaster;
	}

	@AfterEach
	void noThreadsLeftBehind() {
		this.release.countDown();
		for (EventBroadcaster broadcaster : this.broadcasters) {
			broadcaster.shutdown(WAIT);
		}
		await().atMost(WAIT).untilAsserted(() -> assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty());
	}

	private static RecordedEvent event(int i) {
		return TestEvents.recorded("Reason" + i, "message " + i, TestEvents.object("Pod", "pod-" + i, "ns"));
	}

	/** A handler that blocks on {@link #release} (interruptibly), after signalling {@code entered}. */
	private EventHandler blockedUntilReleased(CountDownLatch entered, AtomicBoolean interrupted) {
		return (event) -> {
			entered.countDown();
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
				Thread.currentThread().interrupt();
			}
		};
	}

	/** A handler that ignores interrupts until {@link #release} opens (like a read from a frozen socket). */
	private EventHandler deafUntilReleased(CountDownLatch entered) {
		return (event) -> {
			entered.countDown();
			boolean interrupted = false;
			while (true) {
				try {
					this.release.await();
					break;
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		};
	}

	private static int subscriberDepth(EventBroadcaster broadcaster, String name) {
		return broadcaster.stats().subscribers()
			.stream()
			.filter((s) -> s.name().equals(name))
			.mapToInt(RecorderStats.Subscriber::depth)
			.sum();
	}

	@Test
	void noThreadRunsBeforeStart() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.subscribe("early", (event) -> {
		});
		broadcaster.startRecordingToSink(new ScriptedSink());
		broadcaster.startLogging();
		broadcaster.newRecorder(EventSource.of("c")).event(TestEvents.object("Pod", "p", "ns"), EventType.NORMAL, "R", "m");
		assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty();
		assertThat(broadcaster.isRunning()).isFalse();
		assertThat(broadcaster.isShutdown()).isFalse();
		assertThat(broadcaster.snapshot(1).state()).isEqualTo("new");
		assertThat(broadcaster.stats().queue().depth()).isEqualTo(1);
		broadcaster.start();
		// the sink runs on the distribution thread, no subscriber thread of its own, unlike a handler's and the
		// logger's; of its four writer threads, the one of the object's queue starts with its first write
		await().atMost(WAIT).until(() -> broadcaster.stats().writes().created() == 1);
		assertThat(EventBroadcasterTests.kubeEventsThreads()).hasSize(4)
			.contains("kubeevents-broadcaster", "kubeevents-subscriber-early", "kubeevents-subscriber-logging")
			.filteredOn((name) -> name.matches("kubeevents-writer-sink-[0-3]"))
			.hasSize(1);
	}

	@Test
	void subscribersAddedBeforeStartGetWhatWasPublishedBeforeStart() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		List<RecordedEvent> early = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("early", early::add);
		for (int i = 0; i < 3; i++) {
			assertThat(broadcaster.publish(event(i))).isTrue();
		}
		broadcaster.start();
		List<RecordedEvent> late = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("late", late::add);
		broadcaster.publish(event(3));
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(early).extracting(RecordedEvent::reason).containsExactly("Reason0", "Reason1", "Reason2", "Reason3");
		assertThat(late).extracting(RecordedEvent::reason).containsExactly("Reason3");
	}

	@Test
	void shutdownWithoutStartDeliversWhatWasPublished() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		List<RecordedEvent> got = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("got", got::add);
		broadcaster.publish(event(0));
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(got).hasSize(1);
	}

	@Test
	void stateOnlyMovesForward() throws Exception {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		CountDownLatch entered = new CountDownLatch(1);
		broadcaster.subscribe("blocked", blockedUntilReleased(entered, new AtomicBoolean()));
		assertThat(broadcaster.snapshot(0).state()).isEqualTo("new");
		broadcaster.start();
		broadcaster.start();
		assertThat(broadcaster.snapshot(0).state()).isEqualTo("running");
		assertThat(broadcaster.isRunning()).isTrue();
		broadcaster.publish(event(0));
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> broadcaster.shutdown(Duration.ofHours(1)));
		await().atMost(WAIT).until(broadcaster::isShutdown);
		assertThat(broadcaster.snapshot(0).state()).isEqualTo("draining");
		assertThat(broadcaster.isRunning()).isFalse();
		broadcaster.start();
		assertThat(broadcaster.snapshot(0).state()).as("start after shutdown does nothing").isEqualTo("draining");
		this.release.countDown();
		assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(broadcaster.snapshot(0).state()).isEqualTo("terminated");
		broadcaster.start();
		assertThat(broadcaster.snapshot(0).state()).isEqualTo("terminated");
		assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty();
	}

	@Test
	void secondShutdownAndCloseReturnAtOnceWhileTheFirstStillWaits() throws Exception {
		try (LogCapture log = LogCapture.of(EventCounters.class, Level.INFO)) {
			secondShutdownAndCloseReturnAtOnce();
			assertThat(log.messages(Level.INFO))
				.as("only the call that waited writes the final summary, with the final counts")
				.filteredOn((line) -> line.startsWith("Kubernetes event recorder stopped"))
				.containsExactly("Kubernetes event recorder stopped: accepted 1, created 0, patched 0, dropped 0 {queue_full=0, spam_filtered=0,"
						+ " rejected_by_server=0, retries_exhausted=0, shutdown=0, invalid_input=0}");
		}
	}

	private void secondShutdownAndCloseReturnAtOnce() throws Exception {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		CountDownLatch entered = new CountDownLatch(1);
		AtomicBoolean interrupted = new AtomicBoolean();
		broadcaster.subscribe("blocked", blockedUntilReleased(entered, interrupted));
		broadcaster.start();
		broadcaster.publish(event(0));
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> broadcaster.shutdown(Duration.ofHours(1)));
		await().atMost(WAIT).until(broadcaster::isShutdown);
		// the guard only stops a hang: a second call that waited for the first would wait an hour
		CompletableFuture<Boolean> second = CompletableFuture.supplyAsync(() -> broadcaster.shutdown(Duration.ofHours(1)));
		CompletableFuture<Void> close = CompletableFuture.runAsync(broadcaster::close);
		await().atMost(WAIT).until(() -> second.isDone() && close.isDone());
		assertThat(second.get()).as("not drained (yet)").isFalse();
		assertThat(this.release.getCount()).as("the subscriber is still blocked").isEqualTo(1);
		assertThat(first).isNotDone();
		this.release.countDown();
		assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(interrupted).isFalse();
		assertThat(broadcaster.shutdown(Duration.ofHours(1))).as("after a clean drain").isTrue();
		broadcaster.close();
	}

	@Test
	void aSubscriberThatThrowsLosesNoEventUncounted() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		List<String> received = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("picky", (event) -> {
			if (event.reason().equals("Reason1")) {
				throw new IllegalStateException("cannot handle " + event.reason());
			}
			received.add(event.reason());
		});
		broadcaster.start();
		try (LogCapture log = LogCapture.of(SubscriberQueue.class, Level.ERROR)) {
			for (int i = 0; i < 3; i++) {
				broadcaster.publish(event(i));
			}
			await().atMost(WAIT).until(() -> received.size() == 2);
			assertThat(log.messages(Level.ERROR)).singleElement()
				.asString()
				.startsWith("Event subscriber 'picky' failed on object=\"ns/pod-1\"")
				.endsWith("(dropped, counted as invalid_input)");
		}
		assertThat(received).containsExactly("Reason0", "Reason2");
		assertThat(broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(1);
	}

	@Test
	void closedSinksLeaveTheirCountsAndAreForgotten() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.start();
		ObjectRecorder recorder = broadcaster.newRecorder(new EventSource("example.com/web", "web-0"))
			.about(TestEvents.object("Pod", "web-1", "ns"));
		for (int i = 0; i < 100; i++) {
			Subscription subscription = broadcaster.startRecordingToSink(new ScriptedSink());
			recorder.normal("Restarted", "restart " + i);
			long written = i + 1;
			await().atMost(WAIT).until(() -> broadcaster.stats().writes().created() == written);
			subscription.close();
		}
		await().atMost(WAIT).until(() -> broadcaster.sinkCount() == 0);
		assertThat(broadcaster.stats().writes().created()).as("what the closed sinks wrote").isEqualTo(100);
		assertThat(broadcaster.snapshot(0).sinks()).isEmpty();
	}

	@Test
	void aSinkSubscribedAfterShutdownIsRetiredAndAClientsSinkAsksTheServerNothing() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.start();
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		Subscription custom = broadcaster.startRecordingToSink(new ScriptedSink());
		assertThat(custom.isActive()).isFalse();
		assertThat(broadcaster.sinkCount()).as("the refused sink is retired, not kept for good").isZero();
		List<String> requests = new CopyOnWriteArrayList<>();
		Subscription client = broadcaster.startRecordingTo(new EventsClient() {

			@Override
			public EventSink coreV1Sink(Duration requestTimeout) {
				requests.add("coreV1Sink");
				return new ScriptedSink();
			}

			@Override
			public EventsV1Sink eventsV1Sink(Duration requestTimeout) {
				requests.add("eventsV1Sink");
				return new EventsV1SinkSubscriberTests.Script();
			}

			@Override
			public boolean servesEventsV1(Duration timeout) {
				requests.add("discovery");
				return true;
			}

			@Override
			public boolean eventsAllowed(String apiGroup, String verb, String namespace, Duration timeout) {
				requests.add("access review");
				return true;
			}

		});
		assertThat(client.isActive()).isFalse();
		assertThat(requests).as("no discovery, no access review").isEmpty();
		assertThat(broadcaster.sinkCount()).isZero();
	}

	@Test
	void closeUsesTheBuildersShutdownTimeout() throws Exception {
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.WARN)) {
			EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().shutdownTimeout(Duration.ofMillis(1)));
			CountDownLatch entered = new CountDownLatch(1);
			AtomicBoolean interrupted = new AtomicBoolean();
			broadcaster.subscribe("blocked", blockedUntilReleased(entered, interrupted));
			broadcaster.start();
			broadcaster.publish(event(0));
			assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
			broadcaster.close();
			assertThat(interrupted).as("interrupted at the deadline").isTrue();
			assertThat(this.release.getCount()).isEqualTo(1);
			List<String> warnings = log.warnings();
			assertThat(warnings).first()
				.isEqualTo("Event broadcaster did not drain within PT0.001S; cancelling requests in flight");
			broadcaster.close();
			assertThat(log.warnings()).as("the second close does not wait again").isEqualTo(warnings);
		}
	}

	@Test
	void shutdownUsesTheBuildersTimeoutToo() throws Exception {
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.WARN)) {
			EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().shutdownTimeout(Duration.ofMillis(2)));
			CountDownLatch entered = new CountDownLatch(1);
			broadcaster.subscribe("blocked", blockedUntilReleased(entered, new AtomicBoolean()));
			broadcaster.start();
			broadcaster.publish(event(0));
			assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(broadcaster.shutdown()).isFalse();
			assertThat(log.warnings()).first().asString().contains("PT0.002S");
		}
	}

	@Test
	void blockedSubscriberIsInterruptedAtTheDeadlineAndItsQueueCountedAsShutdown() throws Exception {
		try (LogCapture summary = LogCapture.of(EventCounters.class, Level.INFO)) {
			EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
			CountDownLatch entered = new CountDownLatch(1);
			AtomicBoolean interrupted = new AtomicBoolean();
			broadcaster.subscribe("stuck", blockedUntilReleased(entered, interrupted));
			broadcaster.start();
			for (int i = 0; i < 5; i++) {
				broadcaster.publish(event(i));
			}
			assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
			await().atMost(WAIT).until(() -> broadcaster.stats().queue().depth() == 0 && subscriberDepth(broadcaster, "stuck") == 4);
			assertThat(broadcaster.shutdown(Duration.ofMillis(1))).isFalse();
			assertThat(interrupted).isTrue();
			assertThat(this.release.getCount()).isEqualTo(1);
			assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(4);
			assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty();
			assertThat(summary.warnings()).contains("Kubernetes event recorder stopped: accepted 5, created 0, patched 0, "
					+ "dropped 4 {queue_full=0, spam_filtered=0, rejected_by_server=0, retries_exhausted=0, shutdown=4, invalid_input=0}");
		}
	}

	@Test
	void subscriberIgnoringInterruptsIsAbandonedAndItsQueueCountedAsShutdown() throws Exception {
		try (LogCapture summary = LogCapture.of(EventCounters.class, Level.INFO)) {
			EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
			CountDownLatch entered = new CountDownLatch(1);
			broadcaster.subscribe("deaf", deafUntilReleased(entered));
			broadcaster.start();
			for (int i = 0; i < 5; i++) {
				broadcaster.publish(event(i));
			}
			assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
			await().atMost(WAIT).until(() -> broadcaster.stats().queue().depth() == 0 && subscriberDepth(broadcaster, "deaf") == 4);
			assertThat(broadcaster.shutdown(Duration.ofMillis(1))).isFalse();
			assertThat(EventBroadcasterTests.kubeEventsThreads()).as("abandoned, still blocked")
				.containsExactly("kubeevents-subscriber-deaf");
			assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(4);
			assertThat(summary.warnings()).contains("Kubernetes event recorder stopped: accepted 5, created 0, patched 0, "
					+ "dropped 4 {queue_full=0, spam_filtered=0, rejected_by_server=0, retries_exhausted=0, shutdown=4, invalid_input=0}");
			this.release.countDown();
			await().atMost(WAIT).until(() -> EventBroadcasterTests.kubeEventsThreads().isEmpty());
			assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).as("counted once").isEqualTo(4);
		}
	}

	@Test
	void eventWaitingForRoomUnderTheWaitPolicyIsCountedWhenTheDeadlinePasses() throws Exception {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		CountDownLatch entered = new CountDownLatch(1);
		broadcaster.subscribe("waited-for", blockedUntilReleased(entered, new AtomicBoolean()),
				new Subscription.Options(1, Subscription.FullQueuePolicy.WAIT));
		broadcaster.start();
		for (int i = 0; i < 3; i++) {
			broadcaster.publish(event(i));
		}
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		// event 0 in the handler, event 1 in the queue, event 2 held by the distributor waiting for room
		await().atMost(WAIT).until(() -> broadcaster.stats().queue().depth() == 0 && subscriberDepth(broadcaster, "waited-for") == 1);
		assertThat(broadcaster.shutdown(Duration.ofMillis(1))).isFalse();
		assertThat(broadcaster.stats().accepted()).isEqualTo(3);
		assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(2);
		assertThat(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())).isZero();
	}

	@Test
	void sinkIsAbortedWhenTheDeadlinePassesAndItsPendingEventsCountedAsShutdown() throws Exception {
		ScriptedSink sink = new ScriptedSink().delayEachCall(Duration.ofHours(1));
		// one writer: event 1 waits in the queue behind event 0
		EventBroadcaster broadcaster = broadcaster(
				EventBroadcaster.builder().retryPolicy(new RetryPolicy(12, Duration.ofHours(1))).sinkWriters(1));
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		broadcaster.publish(event(0));
		broadcaster.publish(event(1));
		await().atMost(WAIT).until(() -> sink.callCount() == 1 && subscriberDepth(broadcaster, "sink") == 1);
		assertThat(broadcaster.shutdown(Duration.ofMillis(1))).isFalse();
		assertThat(sink.abortCalls()).isEqualTo(1);
		assertThat(sink.cancelCalls()).isGreaterThanOrEqualTo(1);
		assertThat(sink.callCount()).as("the queued event gets no call after the deadline").isEqualTo(1);
		assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(2);
		assertThat(broadcaster.stats().writes().failed()).isEqualTo(1);
		assertThat(EventBroadcasterTests.kubeEventsThreads()).isEmpty();
	}

	@Test
	void sinkIsCancelledButNotAbortedWhenTheDrainIsInTime() {
		ScriptedSink sink = new ScriptedSink();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		broadcaster.publish(event(0));
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(sink.cancelCalls()).isEqualTo(1);
		assertThat(sink.abortCalls()).isZero();
		assertThat(sink.succeeded()).isEqualTo(1);
	}

	@Test
	void oneClockForEventsCorrelatorAndSummariesUnlessTheOptionsSetTheirOwn() {
		Instant start = Instant.parse("2026-11-30T12:00:00Z");
		TickingClock clock = TickingClock.fixed(start);
		ScriptedSink sink = new ScriptedSink();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder()
			.clock(clock)
			.correlatorOptions(CorrelatorOptions.builder().burst(1).build()));
		broadcaster.startRecordingToSink(sink);
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("c"));
		InvolvedObject pod = TestEvents.object("Pod", "p", "ns");
		recorder.event(pod, EventType.NORMAL, "A", "m");
		recorder.event(pod, EventType.NORMAL, "B", "m");
		broadcaster.start();
		await().atMost(WAIT).until(() -> broadcaster.stats().dropped(DropReason.SPAM_FILTERED.tag()) == 1);
		clock.advance(Duration.ofSeconds(300));
		recorder.event(pod, EventType.NORMAL, "C", "m");
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(sink.calls()).extracting((call) -> call.event().getReason()).containsExactly("A", "C");
		assertThat(sink.calls().get(1).event().getFirstTimestamp().toInstant()).isEqualTo(start.plusSeconds(300));

		TickingClock own = TickingClock.fixed(start);
		ScriptedSink second = new ScriptedSink();
		EventBroadcaster twoClocks = broadcaster(EventBroadcaster.builder()
			.clock(clock)
			.correlatorOptions(CorrelatorOptions.builder().burst(1).clock(own).build()));
		twoClocks.startRecordingToSink(second);
		EventRecorder other = twoClocks.newRecorder(EventSource.of("c"));
		other.event(pod, EventType.NORMAL, "A", "m");
		clock.advance(Duration.ofSeconds(300));
		other.event(pod, EventType.NORMAL, "B", "m");
		assertThat(twoClocks.shutdown(WAIT)).isTrue();
		assertThat(second.calls()).as("the correlator's own clock did not move").hasSize(1);
		assertThat(twoClocks.stats().dropped(DropReason.SPAM_FILTERED.tag())).isEqualTo(1);
	}

}
