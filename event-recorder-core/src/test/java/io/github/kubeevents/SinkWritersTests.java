package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.kubeevents.sink.RetryPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The writer threads of one sink and its backlog, driven as the sink's run drives them: the backlog never waits (a
 * full one drops the write as {@code queue_full} at once) and a write of any object may use all of it; a stop whose
 * deadline passes while a writer is stuck in a call that ignores interrupts abandons that writer; a start while it
 * is still stuck leaves the queue to it (no second thread on one queue), so once it returns it must go on with the
 * writes the new run queued, rather than end at the stop's end marker or the stop's interrupt and leave them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SinkWritersTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final CountDownLatch release = new CountDownLatch(1);

	private final List<String> written = new CopyOnWriteArrayList<>();

	private final List<String> dropped = new CopyOnWriteArrayList<>();

	private final CountDownLatch stuck = new CountDownLatch(1);

	private final SinkWriters.Target<String> target = new SinkWriters.Target<>() {

		@Override
		public void write(String write) {
			if (write.startsWith("stuck")) {
				SinkWritersTests.this.stuck.countDown();
				deafToInterrupts(SinkWritersTests.this.release);
			}
			SinkWritersTests.this.written.add(write);
		}

		@Override
		public void dropped(String write, DropReason reason) {
			SinkWritersTests.this.dropped.add(write + " " + reason.tag());
		}

		@Override
		public void writeCarried(int thread) {
		}

	};

	private SinkRun<?, ?> run = run(1, 2);

	private SinkRun<?, ?> run(int writers, int capacity) {
		SinkSettings settings = TestSinks.settings(RetryPolicy.defaults(), Sleeper.real(), (api, verb, result, d) -> {
		}, Clock.fixed(TestEvents.TIME, ZoneOffset.UTC));
		return TestSinks.run(new SinkSettings(settings.retryPolicy(), settings.sleeper(), settings.jitter(),
				settings.requestListener(), null, settings.clock(), writers, capacity, settings.eventsApi(),
				settings.requestTimeout(), settings.seriesCacheSize(), settings.coreV1Correlation(),
				settings.eventsV1Correlation(), false, settings.shape(), false, null, System::nanoTime),
				new ScriptedSink(), this.target);
	}

	private static RecordedEvent pod(String name) {
		return TestEvents.recorded("Started", "started", TestEvents.object("Pod", name, "shop"));
	}

	private SinkWriters<String> writers() {
		return this.run.writers();
	}

	@AfterEach
	void end() {
		this.release.countDown();
		this.run.abort();
	}

	@Test
	void aFullBacklogDropsTheWriteAtOnceAsQueueFullAndAnyObjectMayUseAllOfIt() throws Exception {
		this.run = run(4, 3);
		this.run.start();
		assertThat(writers().submit(pod("web-0"), "stuck")).isTrue();
		assertThat(this.stuck.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		// one object, one writer thread: its queue takes the whole backlog of 3
		assertThat(writers().submit(pod("web-0"), "a")).isTrue();
		assertThat(writers().submit(pod("web-0"), "b")).isTrue();
		assertThat(writers().submit(pod("web-0"), "c")).isTrue();
		assertThat(writers().depth()).isEqualTo(3);
		// full: another object's write is dropped at once, whatever thread would write it
		assertThat(writers().submit(pod("web-1"), "d")).isFalse();
		assertThat(writers().submit(pod("web-0"), "e")).isFalse();
		assertThat(this.dropped).containsExactly("d queue_full", "e queue_full");
		assertThat(writers().queueFullCount()).isEqualTo(2);
		this.release.countDown();
		await().atMost(WAIT).until(() -> this.written.size() == 4);
		assertThat(this.written).containsExactly("stuck", "a", "b", "c");
		assertThat(writers().depth()).isZero();
		assertThat(writers().submit(pod("web-1"), "f")).isTrue();
		await().atMost(WAIT).until(() -> this.written.contains("f"));
	}

	@Test
	void aWriterAbandonedByAStopGoesOnWithTheWritesOfTheNextStartOnceItReturns() throws Exception {
		this.run.start();
		assertThat(writers().submit(pod("web-0"), "stuck")).isTrue();
		assertThat(this.stuck.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

		// the stop: the sink's ending thread ends the run and waits; the deadline aborts it
		Thread stop = new Thread(this.run::end);
		stop.start();
		await().atMost(WAIT).until(() -> stop.getState() == Thread.State.TIMED_WAITING);
		this.run.abort();
		stop.join(WAIT.toMillis());
		assertThat(stop.isAlive()).isFalse();

		// the next start, while the writer is still stuck: its writes queue behind the stop's end marker
		this.run.start();
		assertThat(writers().submit(pod("web-0"), "a")).isTrue();
		assertThat(writers().submit(pod("web-0"), "b")).isTrue();
		this.release.countDown();
		await().atMost(WAIT).until(() -> this.written.size() == 3);
		assertThat(this.written).containsExactly("stuck", "a", "b");
		assertThat(this.dropped).isEmpty();

		// the same thread serves the run, and a later stop ends it
		assertThat(writers().submit(pod("web-0"), "c")).isTrue();
		this.run.end();
		assertThat(this.written).containsExactly("stuck", "a", "b", "c");
		assertThat(this.run.join(System.nanoTime() + WAIT.toNanos())).isTrue();
	}

	@Test
	void aRunThatWritesNothingStartsNoThread() {
		SinkRun<?, ?> idle = new SinkRun<>("idle", io.github.kubeevents.sink.EventsApi.CORE_V1, new ScriptedSink(), "",
				TestSinks.settings(RetryPolicy.defaults(), Sleeper.real(), (api, verb, result, d) -> {
				}, Clock.fixed(TestEvents.TIME, ZoneOffset.UTC)), new EventCounters(Clock.systemUTC(), WAIT),
				this.target);
		idle.start();
		assertThat(Thread.getAllStackTraces().keySet())
			.noneMatch((thread) -> thread.getName().startsWith("kubeevents-writer-idle"));
		idle.end();
		assertThat(idle.join(System.nanoTime())).isTrue();
	}

	/** A target for runs whose writes the test makes on its own thread: no writer thread gets any. */
	static final class NoTarget implements SinkWriters.Target<Object> {

		@Override
		public void write(Object write) {
			throw new AssertionError("no write is submitted");
		}

		@Override
		public void dropped(Object write, DropReason reason) {
			throw new AssertionError("no write is submitted");
		}

		@Override
		public void writeCarried(int thread) {
		}

	}

	/** Waits for {@code latch}, deaf to interrupts (kept for the caller), as a stuck I/O call is. */
	private static void deafToInterrupts(CountDownLatch latch) {
		boolean interrupted = false;
		while (true) {
			try {
				latch.await();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

}
