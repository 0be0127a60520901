package io.github.kubeevents;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A sink's backlog (issue 36): the distribution thread never waits for a sink. A burst of first events that a slow
 * server cannot take yet is held in the sink's backlog and written once it answers (issue 26's first burst, still
 * without loss); past the backlog's capacity the sink drops the write as {@code queue_full} for itself alone, while
 * the user's handlers and other sinks get every event at once; a stop or shutdown ends by its deadline, and what is
 * left is counted as {@code shutdown}, once per occurrence.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SinkBacklogTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final Gate gate = new Gate();

	private EventBroadcaster broadcaster;

	private LogCapture quiet;

	@BeforeEach
	void quiet() {
		// the shutdowns below drop on purpose; their WARN lines say nothing here
		this.quiet = LogCapture.of("io.github.kubeevents", Level.ERROR);
	}

	@AfterEach
	void shutDown() {
		this.gate.open();
		if (this.broadcaster != null) {
			this.broadcaster.shutdown(WAIT);
		}
		this.quiet.close();
	}

	@Test
	void tenThousandDistinctFirstWritesToASlowServerAreAllWrittenNoneDroppedAsQueueFull() {
		// the defaults: 4 writers and a backlog of 20,000
		this.broadcaster = EventBroadcaster.builder().build();
		this.broadcaster.startRecordingToSink(this.gate.coreV1());
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("burst"));
		for (int i = 0; i < 10_000; i++) {
			recorder.event(TestEvents.object("Pod", "pod-" + i, "burst"), EventType.NORMAL, "Started", "started");
		}
		// the server holds one request per writer; everything else waits in the sink's backlog, none in the
		// incoming queue: the distribution thread goes on
		await().atMost(WAIT)
			.until(() -> this.gate.inFlight() == 4 && sinkQueue().depth() == 10_000 - 4
					&& this.broadcaster.stats().queue().depth() == 0);
		RecorderStats stats = this.broadcaster.stats();
		assertThat(stats.accepted()).isEqualTo(10_000);
		assertThat(totalDropped(stats)).isZero();
		assertThat(sinkQueue()).isEqualTo(new RecorderStats.Subscriber("sink", 10_000 - 4,
				EventBroadcaster.Builder.DEFAULT_SINK_BACKLOG_CAPACITY, "drop", 0));

		this.gate.open();
		await().atMost(WAIT).until(() -> this.broadcaster.stats().writes().created() == 10_000);
		assertThat(this.broadcaster.shutdown(WAIT)).isTrue();
		stats = this.broadcaster.stats();
		assertThat(this.gate.created()).isEqualTo(10_000);
		assertThat(totalDropped(stats)).isZero();
		assertThat(stats.accepted()).as("accepted = written + dropped")
			.isEqualTo(stats.writes().created() + stats.writes().patched() + totalDropped(stats));
	}

	/**
	 * client-go's watchers each drop their own events when full ({@code watch.DropIfChannelFull}): a full sink drops
	 * its write as {@code queue_full}, counted for it alone, and a user's handler and a second sink get every event
	 * at once, in order.
	 */
	@Test
	void aFullBacklogDropsForItsSinkAloneAndTheHandlerAndAnotherSinkGetEveryEventAtOnce() {
		this.broadcaster = EventBroadcaster.builder().sinkWriters(1).sinkBacklogCapacity(2).build();
		this.broadcaster.startRecordingToSink(this.gate.coreV1());
		ScriptedSink other = new ScriptedSink();
		this.broadcaster.startRecordingToSink(other);
		List<String> handled = new CopyOnWriteArrayList<>();
		this.broadcaster.subscribe("handler", (event) -> handled.add(event.regarding().name()));
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("burst"));
		// pod-0 at the stuck server, pod-1 and pod-2 in the stuck sink's backlog, pod-3 to pod-5 dropped there;
		// the other sink writes each one before the next is recorded (its backlog of 2 never fills)
		for (int i = 0; i < 6; i++) {
			recorder.event(TestEvents.object("Pod", "pod-" + i, "burst"), EventType.NORMAL, "Started", "started");
			int recorded = i + 1;
			await().atMost(WAIT).until(() -> handled.size() == recorded && other.stored().size() == recorded
					&& this.gate.inFlight() == 1);
		}
		assertThat(handled).as("the handler does not wait for the stuck sink")
			.containsExactly("pod-0", "pod-1", "pod-2", "pod-3", "pod-4", "pod-5");
		RecorderStats stats = this.broadcaster.stats();
		assertThat(stats.dropped(DropReason.QUEUE_FULL.tag())).isEqualTo(3);
		assertThat(stats.subscribers()).containsExactly(new RecorderStats.Subscriber("sink", 2, 2, "drop", 3),
				new RecorderStats.Subscriber("sink-2", 0, 2, "drop", 0),
				new RecorderStats.Subscriber("handler", 0, 10_000, "drop", 0));
		assertThat(stats.queue().depth()).as("nothing waits in the incoming queue").isZero();

		this.gate.open();
		await().atMost(WAIT).until(() -> this.gate.created() == 3);
		assertThat(this.broadcaster.shutdown(WAIT)).isTrue();
		stats = this.broadcaster.stats();
		assertThat(stats.writes().created()).as("3 by the stuck sink, 6 by the other").isEqualTo(9);
		assertThat(totalDropped(stats)).isEqualTo(3);
	}

	@Test
	void aShutdownWhileTheSinksServerIsStuckEndsByItsDeadlineAndCountsEveryEvent() {
		this.broadcaster = EventBroadcaster.builder().sinkWriters(1).sinkBacklogCapacity(2).build();
		this.broadcaster.startRecordingToSink(this.gate.coreV1());
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("burst"));
		recorder.event(TestEvents.object("Pod", "pod-0", "burst"), EventType.NORMAL, "Started", "started");
		await().atMost(WAIT).until(() -> this.gate.inFlight() == 1);
		for (int i = 1; i < 10; i++) {
			recorder.event(TestEvents.object("Pod", "pod-" + i, "burst"), EventType.NORMAL, "Started", "started");
		}
		// one write at the server, two in the backlog, seven dropped there
		await().atMost(WAIT).until(() -> this.gate.inFlight() == 1 && sinkQueue().depth() == 2 && queueFull() == 7);

		assertShutdownEndsByItsDeadline();
		RecorderStats stats = this.broadcaster.stats();
		assertThat(stats.accepted()).isEqualTo(10);
		assertThat(stats.dropped(DropReason.QUEUE_FULL.tag())).isEqualTo(7);
		assertThat(stats.dropped(DropReason.SHUTDOWN.tag())).as("the one at the server and the two held").isEqualTo(3);
		assertThat(stats.accepted()).isEqualTo(stats.writes().created() + totalDropped(stats));
	}

	@Test
	void aSeriesFinalWriteThatMeetsAFullBacklogAtShutdownIsCountedOncePerOccurrence() {
		this.broadcaster = EventBroadcaster.builder().sinkWriters(1).sinkBacklogCapacity(1).build();
		this.broadcaster.startRecordingToSink(this.gate.eventsV1());
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("burst"));
		InvolvedObject pod = TestEvents.object("Pod", "db-0", "burst");
		recorder.event(pod, EventType.WARNING, "Unhealthy", "probe failed");
		await().atMost(WAIT).until(() -> this.gate.inFlight() == 1);
		for (int i = 1; i < 7; i++) {
			recorder.event(pod, EventType.WARNING, "Unhealthy", "probe failed");
		}
		// the CREATE at the server, the PATCH of the second occurrence filling the backlog; five occurrences held
		// by the series, whose final PATCH the shutdown submits into the full backlog
		await().atMost(WAIT).until(() -> this.gate.inFlight() == 1 && sinkQueue().depth() == 1);

		assertShutdownEndsByItsDeadline();
		RecorderStats stats = this.broadcaster.stats();
		assertThat(stats.accepted()).isEqualTo(7);
		assertThat(stats.dropped(DropReason.QUEUE_FULL.tag())).as("the five occurrences of the final PATCH")
			.isEqualTo(5);
		assertThat(stats.dropped(DropReason.SHUTDOWN.tag())).as("the CREATE and the PATCH").isEqualTo(2);
		assertThat(this.gate.created()).isZero();
	}

	/** A short deadline: the stuck request is cancelled at its abort, and every thread has ended within the grace after. */
	private void assertShutdownEndsByItsDeadline() {
		assertThat(this.broadcaster.shutdown(Duration.ofMillis(200))).as("the deadline passed").isFalse();
		assertThat(EventBroadcasterTests.kubeEventsThreads()).as("no thread was abandoned").isEmpty();
	}

	private long queueFull() {
		return this.broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag());
	}

	private RecorderStats.Subscriber sinkQueue() {
		return this.broadcaster.stats().subscribers().get(0);
	}

	private static long totalDropped(RecorderStats stats) {
		return stats.dropped().values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * A server that holds every request until {@link #open()} (a slow or frozen API server), counting what it holds;
	 * the sink's abort (the stop deadline) fails the held and later requests, as the real sinks do.
	 */
	private static final class Gate {

		/** Counted down when the server answers again, or at the abort. */
		private final CountDownLatch released = new CountDownLatch(1);

		private final AtomicInteger inFlight = new AtomicInteger();

		private final AtomicInteger created = new AtomicInteger();

		private volatile boolean aborted;

		void open() {
			this.released.countDown();
		}

		void abort() {
			this.aborted = true;
			this.released.countDown();
		}

		int inFlight() {
			return this.inFlight.get();
		}

		int created() {
			return this.created.get();
		}

		private void pass() throws EventSinkException {
			this.inFlight.incrementAndGet();
			try {
				this.released.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "interrupted", ex);
			}
			finally {
				this.inFlight.decrementAndGet();
			}
			if (this.aborted) {
				throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "aborted", null);
			}
		}

		EventSink coreV1() {
			return new EventSink() {

				@Override
				public CoreV1Event create(CoreV1Event event) throws EventSinkException {
					pass();
					Gate.this.created.incrementAndGet();
					return event;
				}

				@Override
				public CoreV1Event patch(CoreV1Event event, CountPatch patch) throws EventSinkException {
					pass();
					return event;
				}

				@Override
				public void abort() {
					Gate.this.abort();
				}

			};
		}

		EventsV1Sink eventsV1() {
			return new EventsV1Sink() {

				@Override
				public EventsV1Event create(EventsV1Event event) throws EventSinkException {
					pass();
					Gate.this.created.incrementAndGet();
					return event;
				}

				@Override
				public EventsV1Event patch(EventsV1Event event, SeriesPatch patch) throws EventSinkException {
					pass();
					return event;
				}

				@Override
				public void abort() {
					Gate.this.abort();
				}

			};
		}

	}

}
