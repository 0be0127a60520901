package io.github.kubeevents;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The writer threads of one sink, driven as the sink's subscriber drives them: a stop whose deadline passes while a
 * writer is stuck in a call that ignores interrupts abandons that writer; a start while it is still stuck leaves
 * the queue to it (no second thread on one queue), so once it returns it must go on with the writes the new run
 * queued, rather than end at the stop's end marker or the stop's interrupt and leave them, and the subscriber that
 * waits for room in that queue, without a thread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SinkWritersTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final SinkWriters writers = new SinkWriters("test", 1, 2);

	private final CountDownLatch release = new CountDownLatch(1);

	private final List<String> written = new CopyOnWriteArrayList<>();

	private final List<String> dropped = new CopyOnWriteArrayList<>();

	@AfterEach
	void end() {
		this.release.countDown();
		this.writers.abort();
	}

	@Test
	void aWriterAbandonedByAStopGoesOnWithTheWritesOfTheNextStartOnceItReturns() throws Exception {
		CountDownLatch stuck = new CountDownLatch(1);
		this.writers.start();
		this.writers.submit("pod", new Write("stuck") {

			@Override
			public void run() {
				stuck.countDown();
				deafToInterrupts(SinkWritersTests.this.release);
				super.run();
			}

		});
		assertThat(stuck.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

		// the stop: its subscriber thread closes the writers and waits; the deadline aborts and interrupts it
		Thread stop = new Thread(this.writers::closeAndJoin);
		stop.start();
		await().atMost(WAIT).until(() -> stop.getState() == Thread.State.WAITING);
		this.writers.abort();
		stop.interrupt();
		stop.join(WAIT.toMillis());
		assertThat(stop.isAlive()).isFalse();

		// the next start, while the writer is still stuck: its writes queue behind the stop's end marker
		this.writers.start();
		assertThat(this.writers.submit("pod", new Write("a"))).isTrue();
		assertThat(this.writers.submit("pod", new Write("b"))).isTrue();
		this.release.countDown();
		await().atMost(WAIT).until(() -> this.written.size() == 3);
		assertThat(this.written).containsExactly("stuck", "a", "b");
		assertThat(this.dropped).isEmpty();

		// the same thread serves the run, and a later stop ends it
		assertThat(this.writers.submit("pod", new Write("c"))).isTrue();
		this.writers.closeAndJoin();
		assertThat(this.written).containsExactly("stuck", "a", "b", "c");
		assertThat(this.writers.join(System.nanoTime() + WAIT.toNanos())).isTrue();
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

	private class Write implements SinkWriters.Write {

		private final String name;

		Write(String name) {
			this.name = name;
		}

		@Override
		public void run() {
			SinkWritersTests.this.written.add(this.name);
		}

		@Override
		public void dropped(DropReason reason) {
			SinkWritersTests.this.dropped.add(this.name + " " + reason.tag());
		}

	}

}
