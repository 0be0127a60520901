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
 * Issue 26 item 5: no first-burst loss that the queues upstream could have held. A full writer queue makes the
 * distribution thread (which runs the sink's step) wait for room instead of dropping the write as
 * {@code queue_full}, so a burst that the incoming queue accepted is written once a slow server answers; a stop or shutdown still ends the wait by its deadline, and
 * what is left is counted as {@code shutdown}, once per occurrence.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WriterBackpressureTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final Gate gate = new Gate();

	private EventBroadcaster broadcaster;

	private LogCapture quiet;

	private LogCapture waits;

	@BeforeEach
	void quiet() {
		// the shutdowns below drop on purpose; their WARN lines say nothing here
		this.quiet = LogCapture.of("io.github.kubeevents", Level.ERROR);
		this.waits = LogCapture.of(SinkWriters.class, Level.DEBUG);
	}

	@AfterEach
	void shutDown() {
		this.gate.open();
		if (this.broadcaster != null) {
			this.broadcaster.shutdown(WAIT);
		}
		this.waits.close();
		this.quiet.close();
	}

	/** Whether distribution found a writer queue full and waited (it then waits until the gate opens). */
	private boolean distributionWaited() {
		return this.waits.messages(Level.DEBUG).stream().anyMatch((line) -> line.contains("waits for room"));
	}

	@Test
	void tenThousandDistinctFirstWritesToASlowServerAreAllWrittenNoneDroppedAsQueueFull() {
		// the defaults: an incoming queue of 10,000, 4 writers of 1000 each
		this.broadcaster = EventBroadcaster.builder().build();
		this.broadcaster.startRecordingToSink(this.gate.coreV1());
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("burst"));
		for (int i = 0; i < 10_000; i++) {
			recorder.event(TestEvents.object("Pod", "pod-" + i, "burst"), EventType.NORMAL, "Started", "started");
		}
		// the server holds one request per writer; everything else waits in the queues, the distribution thread
		// holding one event whose write waits for room in a full writer queue
		await().atMost(WAIT)
			.until(() -> distributionWaited() ? this.gate.inFlight() == 4 && sinkQueue().depth() == 4 * 1000
					&& this.broadcaster.stats().queue().depth() == 10_000 - 4 - 4 * 1000 - 1 : queueFull() > 0);
		RecorderStats stats = this.broadcaster.stats();
		assertThat(stats.accepted()).isEqualTo(10_000);
		assertThat(stats.dropped(DropReason.QUEUE_FULL.tag())).as("while the writers are saturated").isZero();
		assertThat(distributionWaited()).isTrue();
		assertThat(totalDropped(stats)).isZero();
		assertThat(this.broadcaster.stats().queue().depth()).as("the wait shows as the incoming queue's depth")
			.isEqualTo(10_000 - 4 - 4 * EventBroadcaster.Builder.DEFAULT_WRITER_QUEUE_CAPACITY - 1);

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
	 * The price of the wait, chosen deliberately (SinkWriters): a sink runs on the distribution thread, so while it
	 * waits for room in a full writer queue, a user's handler gets no event either; it gets every one, in order, once
	 * the server answers, and nothing is lost meanwhile. (With a subscriber thread per sink, the handler got all five
	 * at once.)
	 */
	@Test
	void aFullWriterQueueHoldsUpAUserHandlerWhichThenGetsEveryEventInOrder() {
		this.broadcaster = EventBroadcaster.builder().sinkWriters(1).writerQueueCapacity(1).build();
		this.broadcaster.startRecordingToSink(this.gate.coreV1());
		List<String> handled = new CopyOnWriteArrayList<>();
		this.broadcaster.subscribe("handler", (event) -> handled.add(event.regarding().name()));
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("burst"));
		for (int i = 0; i < 5; i++) {
			recorder.event(TestEvents.object("Pod", "pod-" + i, "burst"), EventType.NORMAL, "Started", "started");
		}
		// pod-0 at the server, pod-1 in the writer queue, pod-2 in the distribution thread's hand waiting for room
		// (the sink comes first: it subscribed first), pod-3 and pod-4 in the incoming queue
		await().atMost(WAIT)
			.until(() -> distributionWaited() && this.gate.inFlight() == 1 && sinkQueue().depth() == 1
					&& this.broadcaster.stats().queue().depth() == 2);
		assertThat(handled).as("the handler waits with the sink").containsExactly("pod-0", "pod-1");

		this.gate.open();
		await().atMost(WAIT).until(() -> handled.size() == 5 && this.gate.created() == 5);
		assertThat(handled).containsExactly("pod-0", "pod-1", "pod-2", "pod-3", "pod-4");
		assertThat(totalDropped(this.broadcaster.stats())).isZero();
	}

	@Test
	void aShutdownWhileDistributionWaitsForAFullWriterQueueEndsByItsDeadlineAndCountsEveryEvent() {
		this.broadcaster = EventBroadcaster.builder().sinkWriters(1).writerQueueCapacity(2).build();
		this.broadcaster.startRecordingToSink(this.gate.coreV1());
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("burst"));
		for (int i = 0; i < 10; i++) {
			recorder.event(TestEvents.object("Pod", "pod-" + i, "burst"), EventType.NORMAL, "Started", "started");
		}
		// one write at the server, two in the writer queue, one in the distribution thread's hand waiting for room,
		// six in the incoming queue
		await().atMost(WAIT)
			.until(() -> distributionWaited() ? this.gate.inFlight() == 1 && sinkQueue().depth() == 2
					&& this.broadcaster.stats().queue().depth() == 6 : queueFull() > 0);
		assertThat(queueFull()).isZero();

		assertShutdownEndsByItsDeadline();
		RecorderStats stats = this.broadcaster.stats();
		assertThat(stats.accepted()).isEqualTo(10);
		assertThat(stats.dropped(DropReason.QUEUE_FULL.tag())).isZero();
		assertThat(stats.dropped(DropReason.SHUTDOWN.tag())).as("every event not written").isEqualTo(10);
		assertThat(stats.accepted()).isEqualTo(stats.writes().created() + totalDropped(stats));
	}

	@Test
	void aSeriesFinalWriteWaitingForAFullWriterQueueAtShutdownIsCountedOncePerOccurrence() {
		this.broadcaster = EventBroadcaster.builder().sinkWriters(1).writerQueueCapacity(1).build();
		this.broadcaster.startRecordingToSink(this.gate.eventsV1());
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(EventSource.of("burst"));
		InvolvedObject pod = TestEvents.object("Pod", "db-0", "burst");
		for (int i = 0; i < 7; i++) {
			recorder.event(pod, EventType.WARNING, "Unhealthy", "probe failed");
		}
		// the CREATE at the server, the PATCH of the second occurrence filling the writer queue; five occurrences
		// held by the series, whose final PATCH the shutdown submits and which must wait for room
		await().atMost(WAIT).until(() -> this.gate.inFlight() == 1 && sinkQueue().depth() == 1);

		assertShutdownEndsByItsDeadline();
		RecorderStats stats = this.broadcaster.stats();
		assertThat(stats.accepted()).isEqualTo(7);
		assertThat(stats.dropped(DropReason.QUEUE_FULL.tag())).isZero();
		assertThat(stats.dropped(DropReason.SHUTDOWN.tag()))
			.as("the CREATE, the PATCH and the five occurrences of the final PATCH")
			.isEqualTo(7);
		assertThat(this.gate.created()).isZero();
	}

	/** A short deadline: the wait for room ends at its abort, and every thread has ended within the grace after. */
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
