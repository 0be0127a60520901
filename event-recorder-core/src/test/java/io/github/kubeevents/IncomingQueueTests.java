package io.github.kubeevents;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link IncomingQueue}: exact capacity, FIFO order with commands, the deep-sleep handshake, the fill threshold,
 * wake, interrupt and close. Waits that would hang on a bug are bounded by {@link Timeout}; nothing sleeps.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IncomingQueueTests {

	private static final long HOUR = TimeUnit.HOURS.toNanos(1);

	@Test
	void admitsExactlyCapacityEventsThenRefusesUntilOneIsTaken() throws InterruptedException {
		IncomingQueue queue = new IncomingQueue(1000);
		for (int i = 0; i < 1000; i++) {
			assertThat(queue.offer(i)).as("event %d", i).isTrue();
		}
		assertThat(queue.offer(1000)).isFalse();
		assertThat(queue.size()).isEqualTo(1000);
		assertThat(queue.poll(0)).isEqualTo(0);
		assertThat(queue.offer(1001)).isTrue();
		assertThat(queue.offer(1002)).isFalse();
		assertThat(queue.size()).isEqualTo(1000);
	}

	@Test
	void capacityIsExactWhenNotAPowerOfTwoMinusHeadroom() {
		IncomingQueue queue = new IncomingQueue(3);
		assertThat(queue.offer("a")).isTrue();
		assertThat(queue.offer("b")).isTrue();
		assertThat(queue.offer("c")).isTrue();
		assertThat(queue.offer("d")).isFalse();
		assertThat(queue.capacity()).isEqualTo(3);
	}

	@Test
	void commandsPassAFullQueueAndKeepTheirPlaceInOrder() throws InterruptedException {
		IncomingQueue queue = new IncomingQueue(4);
		queue.offer("e1");
		queue.offer("e2");
		assertThat(queue.putCommand("c1", 0)).isTrue();
		queue.offer("e3");
		assertThat(queue.offer("e4")).isFalse(); // e1, e2, c1, e3: the command counts toward the capacity
		assertThat(queue.putCommand("c2", 0)).isTrue(); // but may use the headroom
		assertThat(queue.size()).isEqualTo(5);
		List<Object> taken = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			taken.add(queue.poll(0));
		}
		assertThat(taken).containsExactly("e1", "e2", "c1", "e3", "c2");
		assertThat(queue.poll(0)).isNull();
	}

	@Test
	void commandWaitsWhileTheWholeRingIsFullAndGivesUpAtItsTimeout() throws InterruptedException {
		IncomingQueue queue = new IncomingQueue(1); // ring of 32: 1 event + 31 commands
		queue.offer("e");
		for (int i = 0; i < 31; i++) {
			assertThat(queue.putCommand(i, 0)).isTrue();
		}
		assertThat(queue.putCommand("late", TimeUnit.MILLISECONDS.toNanos(1))).isFalse();
		assertThat(queue.poll(0)).isEqualTo("e");
		assertThat(queue.putCommand("late", 0)).isTrue();
	}

	@Test
	void keepsEachProducersOrderAndLosesNothingUnderConcurrentProducers() throws Exception {
		int producers = 4;
		int perProducer = 50_000;
		IncomingQueue queue = new IncomingQueue(64); // small, so producers often find it full and retry
		Thread[] threads = new Thread[producers];
		for (int p = 0; p < producers; p++) {
			int id = p;
			threads[p] = new Thread(() -> {
				for (int seq = 0; seq < perProducer; seq++) {
					long item = ((long) id << 32) | seq;
					while (!queue.offer(item)) {
						Thread.onSpinWait();
					}
				}
			}, "producer-" + p);
			threads[p].start();
		}
		int[] next = new int[producers];
		for (int taken = 0; taken < producers * perProducer; taken++) {
			Object item = queue.poll(TimeUnit.SECONDS.toNanos(30));
			assertThat(item).as("item %d", taken).isNotNull();
			long value = (Long) item;
			int id = (int) (value >>> 32);
			assertThat((int) value).as("producer %d's order", id).isEqualTo(next[id]);
			next[id]++;
		}
		for (Thread thread : threads) {
			thread.join();
		}
		assertThat(next).containsOnly(perProducer);
		assertThat(queue.size()).isZero();
	}

	/**
	 * The handshake's window, made deterministic: a put lands after the consumer's last look at the empty ring
	 * and before it publishes SLEEPING. The producer then reads RUNNING and does not wake it, so the consumer must
	 * look at the ring once more after publishing SLEEPING; if it parked instead, it would sleep for its whole
	 * timeout (an hour) with the item queued, and the items would not arrive within the test's 10 s.
	 */
	@Test
	void aPutJustBeforeTheConsumerPublishesSleepingIsNotLost() throws InterruptedException {
		IncomingQueue queue = new IncomingQueue(10, IncomingQueue.DEFAULT_NAP_NANOS, 0, 1);
		AtomicInteger puts = new AtomicInteger();
		queue.beforeDeepSleep(() -> {
			if (puts.get() < 3) {
				queue.offer("racer-" + puts.incrementAndGet());
			}
		});
		ConcurrentLinkedQueue<Object> taken = new ConcurrentLinkedQueue<>();
		CountDownLatch tookThree = new CountDownLatch(1);
		Thread consumerThread = new Thread(() -> {
			try {
				while (taken.size() < 3) {
					taken.add(queue.poll(HOUR));
				}
				tookThree.countDown();
			}
			catch (InterruptedException ex) {
				// the test gave up
			}
		}, "consumer");
		consumerThread.start();
		boolean handedOver = tookThree.await(10, TimeUnit.SECONDS);
		consumerThread.interrupt();
		consumerThread.join();
		assertThat(handedOver).as("all three puts handed over, none lost in a deep sleep").isTrue();
		assertThat(taken).containsExactly("racer-1", "racer-2", "racer-3");
	}

	/**
	 * The handshake under real concurrency: with no quiet period the consumer goes into a deep sleep (an hour)
	 * whenever the queue is empty, so only a producer's wake-up can hand it the next item. Two producers put one
	 * item each in 50,000 bursts: in a quarter of them once the consumer sleeps, in the rest right after it took
	 * the previous items, after different short delays, so that the puts land all over the consumer's way into
	 * the sleep. A lost wake-up leaves the consumer asleep with an item queued, and the run does not finish
	 * within the test's 60 s.
	 */
	@Test
	void noWakeUpIsLostBetweenBurstsAndDeepSleeps() throws Exception {
		IncomingQueue queue = new IncomingQueue(1000, IncomingQueue.DEFAULT_NAP_NANOS, 0, 125);
		int producers = 2;
		int bursts = 50_000;
		AtomicInteger consumed = new AtomicInteger();
		AtomicReference<String> failure = new AtomicReference<>();
		Thread consumerThread = new Thread(() -> {
			try {
				for (int i = 0; i < producers * bursts; i++) {
					if (queue.poll(HOUR) == null) {
						failure.set("poll returned null at item " + i);
						return;
					}
					consumed.incrementAndGet();
				}
			}
			catch (InterruptedException ex) {
				failure.compareAndSet(null, "lost wake-up: the consumer still slept with " + queue.size()
						+ " item(s) queued after " + consumed.get() + " were handed over");
			}
		}, "consumer");
		consumerThread.start();
		List<Thread> threads = new ArrayList<>();
		for (int p = 0; p < producers; p++) {
			int id = p;
			Thread thread = new Thread(() -> {
				long sink = 0;
				for (int burst = 0; burst < bursts; burst++) {
					int expected = burst * producers;
					while (consumed.get() < expected) {
						if (failure.get() != null) {
							return;
						}
						Thread.onSpinWait();
					}
					if (burst % 4 == 0) {
						if (!spinUntil(queue::consumerSleeping, failure)) {
							return;
						}
					}
					else {
						for (int spin = (burst * 7 + id * 13) % 64; spin > 0; spin--) {
							Thread.onSpinWait();
						}
					}
					if (!queue.offer(burst)) {
						failure.compareAndSet(null, "refused in burst " + burst);
					}
				}
			}, "producer-" + p);
			threads.add(thread);
			thread.start();
		}
		// a lost wake-up stops all progress (the consumer sleeps for an hour); a busy machine only slows it, so the
		// consumer is interrupted only after 30 s without one item handed over, not after a fixed total time
		int seen = -1;
		long progressAt = System.nanoTime();
		while (consumerThread.isAlive()) {
			consumerThread.join(1000);
			int now = consumed.get();
			if (now != seen) {
				seen = now;
				progressAt = System.nanoTime();
			}
			else if (System.nanoTime() - progressAt > TimeUnit.SECONDS.toNanos(30)) {
				consumerThread.interrupt();
				consumerThread.join();
			}
		}
		for (Thread thread : threads) {
			thread.join();
		}
		assertThat(failure.get()).isNull();
		assertThat(consumed.get()).isEqualTo(producers * bursts);
	}

	@Test
	void aNappingConsumerIsWokenOnlyWhenTheQueueReachesTheFillThreshold() throws Exception {
		// naps and quiet period of an hour: only the fill threshold can end the consumer's wait
		IncomingQueue queue = new IncomingQueue(1000, HOUR, HOUR, 10);
		NappingConsumer consumer = NappingConsumer.start(queue, 11);
		for (int i = 0; i < 9; i++) {
			assertThat(queue.offer(i)).isTrue();
		}
		assertThat(queue.consumerNapping()).isTrue();
		assertThat(queue.size()).isEqualTo(9);
		assertThat(queue.offer(9)).isTrue(); // the tenth queued: wake
		consumer.tookAll().await();
		assertThat(consumer.taken()).containsExactly("first", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
		consumer.thread().join();
	}

	@Test
	void byDefaultANappingConsumerIsWokenOnlyByThePutThatFillsTheQueue() throws Exception {
		// until 2026-12 an eighth full woke it (2 of 16 here): the caller then woke the distribution thread onto
		// its own core; naps and quiet period of an hour, so only a producer's wake-up can end the wait
		IncomingQueue queue = new IncomingQueue(16, HOUR, HOUR);
		NappingConsumer consumer = NappingConsumer.start(queue, 17);
		for (int i = 0; i < 15; i++) {
			assertThat(queue.offer(i)).isTrue();
		}
		assertThat(queue.consumerNapping()).isTrue();
		assertThat(queue.size()).isEqualTo(15);
		assertThat(queue.offer(15)).isTrue(); // the sixteenth fills it: wake
		assertThat(consumer.tookAll().await(1, TimeUnit.MINUTES)).as("woken by the put that filled the queue").isTrue();
		assertThat(consumer.taken()).containsExactly("first", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
		consumer.thread().join();
	}

	@Test
	void aPutRefusedByAFullQueueWakesANappingConsumer() throws Exception {
		// a threshold above the capacity: no put that fits wakes it, as when the consumer began its nap only
		// after the queue had filled
		IncomingQueue queue = new IncomingQueue(4, HOUR, HOUR, 5);
		NappingConsumer consumer = NappingConsumer.start(queue, 5);
		for (int i = 0; i < 4; i++) {
			assertThat(queue.offer(i)).isTrue();
		}
		assertThat(queue.consumerNapping()).isTrue();
		assertThat(queue.offer("refused")).isFalse(); // full: refused, and the consumer woken
		assertThat(consumer.tookAll().await(1, TimeUnit.MINUTES)).as("woken by the refused put").isTrue();
		assertThat(consumer.taken()).containsExactly("first", 0, 1, 2, 3);
		consumer.thread().join();
	}

	@Test
	void aDeepSleepEndsAtItsTimeoutWithNull() throws InterruptedException {
		IncomingQueue queue = new IncomingQueue(10, IncomingQueue.DEFAULT_NAP_NANOS, 0, 1);
		long start = System.nanoTime();
		assertThat(queue.poll(TimeUnit.MILLISECONDS.toNanos(20))).isNull();
		assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
	}

	@Test
	void wakeEndsAWaitWithNullAndItemsComeFirst() throws Exception {
		IncomingQueue queue = new IncomingQueue(10, IncomingQueue.DEFAULT_NAP_NANOS, 0, 1);
		AtomicReference<Object> result = new AtomicReference<>("unset");
		Thread consumerThread = new Thread(() -> {
			try {
				result.set(queue.poll(HOUR));
			}
			catch (InterruptedException ex) {
				result.set(ex);
			}
		}, "consumer");
		consumerThread.start();
		spinUntil(queue::consumerSleeping, new AtomicReference<>());
		queue.wake();
		consumerThread.join();
		assertThat(result.get()).isNull();

		queue.wake(); // before the next wait: that wait ends at once, but only once the queue is empty
		queue.offer("e");
		assertThat(queue.poll(HOUR)).isEqualTo("e");
		assertThat(queue.poll(HOUR)).isNull();
	}

	@Test
	void interruptStopsTheConsumerEvenWithItemsQueued() throws InterruptedException {
		IncomingQueue queue = new IncomingQueue(10);
		queue.offer("e");
		Thread.currentThread().interrupt();
		assertThatExceptionOfType(InterruptedException.class).isThrownBy(() -> queue.poll(HOUR));
		assertThat(queue.poll(0)).isEqualTo("e");
	}

	@Test
	void pollNowTakesInOrderWithoutWaitingEvenWhenInterrupted() throws InterruptedException {
		IncomingQueue queue = new IncomingQueue(10);
		queue.offer("e1");
		queue.putCommand("marker", 0);
		queue.offer("e2");
		Thread.currentThread().interrupt();
		assertThat(queue.pollNow()).isEqualTo("e1");
		assertThat(queue.pollNow()).isEqualTo("marker");
		assertThat(queue.pollNow()).isEqualTo("e2");
		assertThat(queue.pollNow()).isNull();
		assertThat(Thread.interrupted()).isTrue();
	}

	@Test
	void closeHandsOverWhatIsQueuedAndWhatProducersAddAfterwards() throws InterruptedException {
		IncomingQueue queue = new IncomingQueue(10);
		queue.offer("e1");
		queue.putCommand("c1", 0);
		List<Object> left = new ArrayList<>();
		queue.close(left::add);
		assertThat(left).containsExactly("e1", "c1");
		assertThat(queue.isClosed()).isTrue();
		assertThat(queue.offer("e2")).isTrue();
		assertThat(left).containsExactly("e1", "c1", "e2");
		assertThat(queue.putCommand("c2", 0)).isFalse();
		assertThat(queue.size()).isZero();
	}

	/** Every item offered around the close is either taken by the consumer or handed to the handler, once. */
	@Test
	void closeRacingProducersHandsEachItemOverExactlyOnce() throws Exception {
		for (int run = 0; run < 20; run++) {
			IncomingQueue queue = new IncomingQueue(100_000);
			int producers = 3;
			int perProducer = 20_000;
			AtomicInteger accepted = new AtomicInteger();
			List<Thread> threads = new ArrayList<>();
			for (int p = 0; p < producers; p++) {
				Thread thread = new Thread(() -> {
					for (int i = 0; i < perProducer; i++) {
						if (queue.offer(i)) {
							accepted.incrementAndGet();
						}
					}
				}, "producer-" + p);
				threads.add(thread);
			}
			threads.forEach(Thread::start);
			int consumed = 0;
			int closeAfter = 1000 * run;
			while (consumed < closeAfter && queue.poll(TimeUnit.SECONDS.toNanos(10)) != null) {
				consumed++;
			}
			AtomicInteger leftOver = new AtomicInteger();
			queue.close((item) -> leftOver.incrementAndGet());
			for (Thread thread : threads) {
				thread.join();
			}
			assertThat(consumed + leftOver.get()).as("run %d", run).isEqualTo(accepted.get());
			assertThat(accepted.get()).isEqualTo(producers * perProducer);
		}
	}

	@Test
	void rejectsBadParameters() {
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> new IncomingQueue(0));
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new IncomingQueue(10, 0, 0, 1));
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new IncomingQueue(10, 1, -1, 1));
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new IncomingQueue(10, 1, 0, 0));
	}

	/** Spins (yielding) until the condition holds; {@code false} when another thread recorded a failure. */
	private static boolean spinUntil(BooleanSupplier condition, AtomicReference<String> failure) {
		while (!condition.getAsBoolean()) {
			if (failure.get() != null) {
				return false;
			}
			Thread.yield();
		}
		return true;
	}

	/**
	 * A consumer thread that takes {@code count} items, the first ("first", put here) at once, and is napping
	 * when {@link #start} returns: the queue ran empty after "first", and the quiet period has not passed.
	 */
	private record NappingConsumer(ConcurrentLinkedQueue<Object> taken, CountDownLatch tookAll, Thread thread) {

		static NappingConsumer start(IncomingQueue queue, int count) {
			assertThat(queue.offer("first")).isTrue();
			ConcurrentLinkedQueue<Object> taken = new ConcurrentLinkedQueue<>();
			CountDownLatch tookAll = new CountDownLatch(1);
			Thread thread = new Thread(() -> {
				try {
					while (taken.size() < count) {
						taken.add(queue.poll(HOUR));
					}
					tookAll.countDown();
				}
				catch (InterruptedException ex) {
					// ends the test's consumer
				}
			}, "consumer");
			thread.start();
			spinUntil(queue::consumerNapping, new AtomicReference<>());
			return new NappingConsumer(taken, tookAll, thread);
		}

	}

}
