package io.github.kubeevents;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits between write attempts (retry delays, the write budget, a server's Retry-After). Injected through the
 * builder so tests record the delays instead of waiting.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
interface Sleeper {

	/**
	 * Waits for {@code duration}, or less when {@link #wakeAll()} is called meanwhile.
	 * @param duration how long to wait
	 * @throws InterruptedException when the thread is interrupted
	 */
	void sleep(Duration duration) throws InterruptedException;

	/**
	 * Waits for {@code duration} unless {@code cancelled} is or becomes true. A cancellation that sets its flag and
	 * then calls {@link #wakeAll()} is never missed, even when it lands between the caller's last look at the flag
	 * and the start of the wait: the real sleeper reads the flag under the lock {@code wakeAll} takes.
	 * @return {@code false} when cancelled, before or during the wait
	 */
	default boolean sleepUnless(Duration duration, BooleanSupplier cancelled) throws InterruptedException {
		if (cancelled.getAsBoolean()) {
			return false;
		}
		sleep(duration);
		return !cancelled.getAsBoolean();
	}

	/**
	 * Ends every wait in progress at once (stop or shutdown began); later waits are not affected, so the caller
	 * decides with its own flag whether to wait at all. The default does nothing.
	 */
	default void wakeAll() {
	}

	/** A new real sleeper, which {@link #wakeAll()} wakes up, any number of times. */
	static Sleeper real() {
		return new Sleeper() {

			private long wakeUps;

			@Override
			public synchronized void sleep(Duration duration) throws InterruptedException {
				long generation = this.wakeUps;
				long deadline = System.nanoTime() + duration.toNanos();
				long remaining = duration.toNanos();
				while (remaining > 0 && generation == this.wakeUps) {
					wait(remaining / 1_000_000, (int) (remaining % 1_000_000));
					remaining = deadline - System.nanoTime();
				}
			}

			@Override
			public synchronized boolean sleepUnless(Duration duration, BooleanSupplier cancelled)
					throws InterruptedException {
				return Sleeper.super.sleepUnless(duration, cancelled);
			}

			@Override
			public synchronized void wakeAll() {
				this.wakeUps++;
				notifyAll();
			}

		};
	}

}
