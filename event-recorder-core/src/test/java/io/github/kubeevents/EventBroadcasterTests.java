package io.github.kubeevents;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/** apimachinery's mux_test scenarios and client-go's broadcaster tests (TestLotsOfEvents, shutdown, leaks). */
class EventBroadcasterTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final List<EventBroadcaster> broadcasters = new ArrayList<>();

	private EventBroadcaster broadcaster(EventBroadcaster.Builder builder) {
		EventBroadcaster broadcaster = builder.build();
		this.broadcasters.add(broadcaster);
		return broadcaster;
	}

	@AfterEach
	void noThreadsLeftBehind() {
		for (EventBroadcaster broadcaster : this.broadcasters) {
			broadcaster.shutdown(WAIT);
		}
		assertThat(kubeEventsThreads()).isEmpty();
	}

	static Set<String> kubeEventsThreads() {
		return Thread.getAllStackTraces().keySet().stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith("kubeevents-"))
			.collect(Collectors.toSet());
	}

	private static RecordedEvent event(int i) {
		return TestEvents.recorded("Reason" + i, "message " + i, TestEvents.object("Pod", "pod-" + i, "ns"));
	}

	private static List<String> reasons(List<RecordedEvent> events) {
		return events.stream().map(RecordedEvent::reason).toList();
	}

	@Test
	void theRecordersLogCategoryIsTheBroadcastersClassNameThatUsersConfigure() {
		assertThat(RecorderLog.CATEGORY).isEqualTo(EventBroadcaster.class.getName());
		assertThat(RecorderLog.LOGGER.getName()).isEqualTo("io.github.kubeevents.EventBroadcaster");
	}

	@Test
	void everySubscriberGetsEveryEventInOrder() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		List<RecordedEvent> a = new CopyOnWriteArrayList<>();
		List<RecordedEvent> b = new CopyOnWriteArrayList<>();
		Subscription sa = broadcaster.subscribe("a", a::add);
		Subscription sb = broadcaster.subscribe("b", b::add);
		broadcaster.start();
		for (int i = 0; i < 4; i++) {
			assertThat(broadcaster.publish(event(i))).isTrue();
		}
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(reasons(a)).containsExactly("Reason0", "Reason1", "Reason2", "Reason3");
		assertThat(reasons(b)).containsExactly("Reason0", "Reason1", "Reason2", "Reason3");
		assertThat(sa.isActive()).isFalse();
		assertThat(sb.isActive()).isFalse();
	}

	@Test
	void newSubscriberSeesNoHistoryAndNoGaps() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		List<RecordedEvent> early = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("early", early::add);
		broadcaster.start();
		broadcaster.publish(event(0));
		broadcaster.publish(event(1));
		await().atMost(WAIT).until(() -> early.size() == 2);
		List<RecordedEvent> late = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("late", late::add);
		broadcaster.publish(event(2));
		broadcaster.publish(event(3));
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(reasons(early)).containsExactly("Reason0", "Reason1", "Reason2", "Reason3");
		assertThat(reasons(late)).containsExactly("Reason2", "Reason3");
	}

	@Test
	void fullSubscriberQueueDropsForThatSubscriberOnly() throws Exception {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<RecordedEvent> slow = new CopyOnWriteArrayList<>();
		List<RecordedEvent> fast = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("slow", (e) -> {
			entered.countDown();
			awaitLatch(release);
			slow.add(e);
		}, new Subscription.Options(1, Subscription.FullQueuePolicy.DROP));
		broadcaster.subscribe("fast", fast::add);
		broadcaster.start();
		broadcaster.publish(event(0));
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		broadcaster.publish(event(1));
		broadcaster.publish(event(2));
		await().atMost(WAIT).until(() -> fast.size() == 3);
		assertThat(broadcaster.snapshot(10).subscribers()).filteredOn((s) -> s.name().equals("slow"))
			.singleElement()
			.satisfies((s) -> {
				assertThat(s.dropped()).isEqualTo(1);
				assertThat(s.depth()).isEqualTo(1);
				assertThat(s.capacity()).isEqualTo(1);
			});
		release.countDown();
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(reasons(slow)).containsExactly("Reason0", "Reason1");
		assertThat(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())).isEqualTo(1);
	}

	@Test
	void waitPolicyLosesNothing() throws Exception {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		CountDownLatch release = new CountDownLatch(1);
		List<RecordedEvent> got = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("waited", (e) -> {
			awaitLatch(release);
			got.add(e);
		}, new Subscription.Options(1, Subscription.FullQueuePolicy.WAIT));
		broadcaster.start();
		for (int i = 0; i < 5; i++) {
			broadcaster.publish(event(i));
		}
		release.countDown();
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(got).hasSize(5);
		assertThat(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())).isZero();
	}

	@Test
	void publishNeverBlocksAndDropsBeyondCapacity() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().incomingQueueCapacity(1000));
		List<RecordedEvent> got = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("got", got::add);
		int accepted = 0;
		for (int i = 0; i < 1001; i++) {
			if (broadcaster.publish(event(i))) {
				accepted++;
			}
		}
		assertThat(accepted).isEqualTo(1000);
		assertThat(broadcaster.snapshot(1).queue()).isEqualTo(new RecorderStats.Queue(1000, 1000));
		assertThat(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())).isEqualTo(1);
		broadcaster.start();
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(got).hasSize(1000);
		assertThat(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())).isEqualTo(1);
	}

	@Test
	void afterShutdownPublishAndSubscribeAreRefusedNotThrown() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.start();
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(broadcaster.isRunning()).isFalse();
		assertThat(broadcaster.publish(event(0))).isFalse();
		broadcaster.newRecorder(EventSource.of("c"))
			.event(new V1Pod().metadata(new V1ObjectMeta().name("p").namespace("n")), EventType.NORMAL, "R", "m");
		assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(2);
		Subscription late = broadcaster.subscribe("late", (e) -> {
		});
		assertThat(late.isActive()).isFalse();
		late.close();
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
	}

	@Test
	void closedSubscriptionStopsReceivingOthersContinue() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		List<RecordedEvent> a = new CopyOnWriteArrayList<>();
		List<RecordedEvent> b = new CopyOnWriteArrayList<>();
		Subscription sa = broadcaster.subscribe("a", a::add);
		broadcaster.subscribe("b", b::add);
		broadcaster.start();
		broadcaster.publish(event(0));
		await().atMost(WAIT).until(() -> a.size() == 1 && b.size() == 1);
		sa.close();
		sa.close();
		broadcaster.publish(event(1));
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(reasons(a)).containsExactly("Reason0");
		assertThat(reasons(b)).containsExactly("Reason0", "Reason1");
	}

	@Test
	void failingHandlerDoesNotStopItsSubscription() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		AtomicInteger calls = new AtomicInteger();
		broadcaster.subscribe("flaky", (e) -> {
			calls.incrementAndGet();
			throw new IllegalStateException("handler bug");
		});
		broadcaster.start();
		broadcaster.publish(event(0));
		broadcaster.publish(event(1));
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(calls).hasValue(2);
	}

	@Test
	void lotsOfConcurrentEventsAreAllDeliveredAndRetried() throws Exception {
		ScriptedSink sink = new ScriptedSink().failEachEventTimes(4);
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder()
			.retryPolicy(new RetryPolicy(12, Duration.ZERO))
			.sleeper((d) -> {
			}));
		List<RecordedEvent> logged = new CopyOnWriteArrayList<>();
		broadcaster.subscribe("watcher", logged::add);
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(new EventSource("eventTest", "host"));
		ExecutorService pool = Executors.newFixedThreadPool(8);
		CountDownLatch done = new CountDownLatch(1000);
		for (int i = 0; i < 1000; i++) {
			int n = i;
			pool.execute(() -> {
				recorder.event(new V1Pod().metadata(new V1ObjectMeta().name("pod-" + n).namespace("ns")),
						EventType.NORMAL, "Reason" + n, "message " + n);
				done.countDown();
			});
		}
		assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
		pool.shutdown();
		await().atMost(Duration.ofSeconds(60)).until(() -> sink.stored().size() == 1000);
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(logged).hasSize(1000);
		assertThat(sink.stored()).hasSize(1000);
		assertThat(sink.calls()).hasSize(5000);
		assertThat(broadcaster.stats().dropped()).allSatisfy((reason, n) -> assertThat(n).as(reason).isZero());
		assertThat(broadcaster.snapshot(1).sinks()).singleElement()
			.satisfies((s) -> assertThat(s.stats()).isEqualTo(new RecorderStats.Writes(1000, 0, 4000, 0)));
	}

	@Test
	void shutdownCancelsRetrySleepsSoPendingEventsGetOneAttempt() throws Exception {
		ScriptedSink sink = new ScriptedSink();
		for (int i = 0; i < 100; i++) {
			sink.failNext(EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null));
		}
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder()
			.retryPolicy(new RetryPolicy(12, Duration.ofHours(1)))
			.jitter(() -> 0.99)
			.sinkWriters(1));
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		broadcaster.publish(event(0));
		broadcaster.publish(event(1));
		await().atMost(WAIT).until(() -> sink.calls().size() == 1);
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(sink.calls()).hasSize(2);
		assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(2);
	}

	@Test
	void shutdownDeadlineInterruptsAStuckSubscriberAndCountsWhatWasLeft() throws Exception {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch never = new CountDownLatch(1);
		broadcaster.subscribe("stuck", (e) -> {
			entered.countDown();
			try {
				never.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		broadcaster.start();
		for (int i = 0; i < 5; i++) {
			broadcaster.publish(event(i));
		}
		assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
		await().atMost(WAIT).until(() -> broadcaster.snapshot(1).queue().depth() == 0);
		assertThat(broadcaster.shutdown(Duration.ofMillis(200))).isFalse();
		assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag())).isEqualTo(4);
		assertThat(kubeEventsThreads()).isEmpty();
	}

	@Test
	void eachSinkHasItsOwnCorrelator() {
		ScriptedSink first = new ScriptedSink();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		Subscription s1 = broadcaster.startRecordingToSink(first);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("c"));
		V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("p").namespace("n"));
		for (int i = 0; i < 3; i++) {
			recorder.event(pod, EventType.NORMAL, "R", "same");
		}
		await().atMost(WAIT).until(() -> first.calls().size() == 3);
		s1.close();
		ScriptedSink second = new ScriptedSink();
		broadcaster.startRecordingToSink(second);
		for (int i = 0; i < 3; i++) {
			recorder.event(pod, EventType.NORMAL, "R", "same");
		}
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(first.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "patch");
		assertThat(second.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "patch");
		assertThat(second.calls().get(2).patch().count()).isEqualTo(3);
	}

	@Test
	void snapshotReportsSinkCountersAndCorrelatorState() {
		ScriptedSink sink = new ScriptedSink();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.startRecordingToSink(sink);
		broadcaster.startLogging();
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(EventSource.of("c"));
		V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("p").namespace("n"));
		recorder.event(pod, EventType.NORMAL, "R", "m");
		recorder.event(pod, EventType.NORMAL, "R", "m");
		await().atMost(WAIT).until(() -> sink.calls().size() == 2);
		var snapshot = broadcaster.snapshot(10);
		assertThat(snapshot.running()).isTrue();
		assertThat(snapshot.subscribers()).extracting(RecorderStats.Subscriber::name)
			.containsExactly("sink", "logging");
		assertThat(snapshot.sinks()).singleElement().satisfies((s) -> {
			assertThat(s.stats()).isEqualTo(new RecorderStats.Writes(1, 1, 0, 0));
			assertThat(s.correlator().observedEvents()).singleElement().satisfies((o) -> assertThat(o.count()).isEqualTo(2));
		});
		assertThat(snapshot.dropped().keySet()).containsExactly("queue_full", "spam_filtered", "rejected_by_server",
				"retries_exhausted", "shutdown", "invalid_input");
		assertThat(broadcaster.stats().accepted()).isEqualTo(2);
		assertThat(broadcaster.stats().queue().capacity()).isEqualTo(EventBroadcaster.Builder.DEFAULT_INCOMING_QUEUE_CAPACITY);
		assertThat(broadcaster.stats().writes()).isEqualTo(new RecorderStats.Writes(1, 1, 0, 0));
		assertThat(broadcaster.isShutdown()).isFalse();
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
		assertThat(broadcaster.isShutdown()).isTrue();
		assertThat(broadcaster.stats().writes()).isEqualTo(new RecorderStats.Writes(1, 1, 0, 0));
	}

	@Test
	void aSinksCapacityIsItsBacklogOverEveryWriterAndNoSubscriberQueue() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder()
			.subscriberOptions(new Subscription.Options(7, Subscription.FullQueuePolicy.DROP))
			.sinkWriters(3)
			.sinkBacklogCapacity(5));
		broadcaster.startRecordingToSink(new ScriptedSink());
		broadcaster.startLogging();
		// the sink runs on the distribution thread, which drops a write its full backlog cannot take
		assertThat(broadcaster.stats().subscribers()).containsExactly(new RecorderStats.Subscriber("sink", 0, 5,
				"drop", 0), new RecorderStats.Subscriber("logging", 0, 7, "drop", 0));
		assertThatIllegalArgumentException().isThrownBy(() -> EventBroadcaster.builder().sinkBacklogCapacity(0))
			.withMessage("sinkBacklogCapacity must be between 1 and 16777216, was 0");
	}

	@Test
	void everyQueueCapacityIsBounded() {
		int max = Subscription.Options.MAX_QUEUE_CAPACITY;
		assertThat(max).isEqualTo(16_777_216);
		assertThatIllegalArgumentException().isThrownBy(() -> EventBroadcaster.builder().incomingQueueCapacity(max + 1))
			.withMessage("incoming queue capacity must be between 1 and 16777216, was 16777217");
		assertThatIllegalArgumentException().isThrownBy(() -> EventBroadcaster.builder().sinkBacklogCapacity(max + 1))
			.withMessage("sinkBacklogCapacity must be between 1 and 16777216, was 16777217");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Subscription.Options(Integer.MAX_VALUE, Subscription.FullQueuePolicy.DROP))
			.withMessage("subscriber queue capacity must be between 1 and 16777216, was 2147483647");
		assertThat(EventBroadcaster.builder().incomingQueueCapacity(max).sinkBacklogCapacity(max)).isNotNull();
	}

	@Test
	void unstartedBroadcasterRunsNoThreadAndShutsDownCleanly() {
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder());
		broadcaster.publish(event(0));
		assertThat(kubeEventsThreads()).isEmpty();
		assertThat(broadcaster.shutdown(WAIT)).isTrue();
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
