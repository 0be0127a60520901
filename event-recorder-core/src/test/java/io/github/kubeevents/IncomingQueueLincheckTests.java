package io.github.kubeevents;

import java.util.ArrayDeque;

import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Linearizability of {@link IncomingQueue} against a bounded FIFO ({@link BoundedFifo}), checked by Lincheck as
 * Caffeine checks its own buffers: recording threads call {@link #offer}, {@link #putCommand} and {@link #size} in
 * parallel, one consumer thread takes with {@link #poll} and {@link #pollNow} (the {@code consumer} group never runs
 * in parallel with itself). The model checker explores the interleavings of each generated scenario under
 * sequential consistency and prints the one that breaks the specification; the stress run adds real threads on
 * the real memory model.
 *
 * <p>What this does not check, and where it is checked: the consumer polls with a zero timeout, because under the
 * model checker {@link System#nanoTime()} is a constant (a positive timeout would never pass) and a timed park may
 * always end at once (Lincheck allows spurious wake-ups), so a lost wake-up before a deep sleep costs latency but
 * breaks no result; IncomingQueueTests pins the sleep handshake with its {@code beforeDeepSleep} hook. The close,
 * the consumer's last act, is not an operation here: SubscriberQueueModelTests model-checks it, in the subscriber's
 * abort and abandon.
 */
@Param(name = "item", gen = IntGen.class, conf = "1:9")
public class IncomingQueueLincheckTests {

	/** Small, so scenarios reach the bound; the ring then has 32 slots (2 + the 16-slot headroom, rounded up). */
	static final int CAPACITY = 2;

	static final int RING_SLOTS = 32;

	private final IncomingQueue queue = new IncomingQueue(CAPACITY);

	@Operation
	public boolean offer(@Param(name = "item") int event) {
		return this.queue.offer(event);
	}

	@Operation
	public boolean putCommand(@Param(name = "item") int command) throws InterruptedException {
		return this.queue.putCommand(command(command), 0);
	}

	@Operation
	public int size() {
		return this.queue.size();
	}

	@Operation(nonParallelGroup = "consumer")
	public @Nullable Object poll() throws InterruptedException {
		return this.queue.poll(0);
	}

	@Operation(nonParallelGroup = "consumer")
	public @Nullable Object pollNow() {
		return this.queue.pollNow();
	}

	@Test
	void modelChecking() {
		LincheckRuns.modelChecking().sequentialSpecification(BoundedFifo.class).check(getClass());
	}

	@Test
	void stress() {
		LincheckRuns.stress().sequentialSpecification(BoundedFifo.class).check(getClass());
	}

	/**
	 * The check can fail: a queue whose bound is a size check followed by a separate claim of a slot (where
	 * {@link IncomingQueue#offer} makes both one CAS) admits a third event when two producers pass the check
	 * together, and the model checker finds that interleaving.
	 */
	@Test
	void modelCheckingFindsABoundCheckedApartFromTheClaim() {
		assertThatExceptionOfType(LincheckAssertionError.class)
			.isThrownBy(() -> LincheckRuns.modelChecking(20, 300)
				.minimizeFailedScenario(false)
				.sequentialSpecification(BoundedFifo.class)
				.check(SizeCheckThenClaim.class))
			.withMessageContaining("= Invalid execution results =");
	}

	static String command(int id) {
		return "command-" + id;
	}

	/**
	 * The sequential specification: a FIFO in which events are admitted while fewer than {@link #CAPACITY} items
	 * (events and commands) are queued, and commands while the ring has a free slot.
	 */
	public static final class BoundedFifo {

		private final ArrayDeque<Object> items = new ArrayDeque<>();

		public boolean offer(int event) {
			if (this.items.size() >= CAPACITY) {
				return false;
			}
			this.items.add(event);
			return true;
		}

		public boolean putCommand(int command) {
			if (this.items.size() >= RING_SLOTS) {
				return false;
			}
			this.items.add(command(command));
			return true;
		}

		public int size() {
			return this.items.size();
		}

		public @Nullable Object poll() {
			return this.items.poll();
		}

		public @Nullable Object pollNow() {
			return this.items.poll();
		}

	}

	/**
	 * A deliberately broken queue for {@link #modelCheckingFindsABoundCheckedApartFromTheClaim}: {@link #offer}
	 * checks the size and then claims a slot in a second step (through {@link IncomingQueue#putCommand}, which
	 * ignores the event bound), so two producers can both see one free slot and both take one. Not a test itself
	 * (nested classes do not run on their own).
	 */
	@Param(name = "item", gen = IntGen.class, conf = "1:9")
	public static class SizeCheckThenClaim {

		private final IncomingQueue queue = new IncomingQueue(CAPACITY);

		@Operation
		public boolean offer(@Param(name = "item") int event) throws InterruptedException {
			if (this.queue.size() >= CAPACITY) {
				return false;
			}
			return this.queue.putCommand(event, 0);
		}

		@Operation
		public boolean putCommand(@Param(name = "item") int command) throws InterruptedException {
			return this.queue.putCommand(command(command), 0);
		}

		@Operation
		public int size() {
			return this.queue.size();
		}

		@Operation(nonParallelGroup = "consumer")
		public @Nullable Object poll() throws InterruptedException {
			return this.queue.poll(0);
		}

		@Operation(nonParallelGroup = "consumer")
		public @Nullable Object pollNow() {
			return this.queue.pollNow();
		}

	}

}
