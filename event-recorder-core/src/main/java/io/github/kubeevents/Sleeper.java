package io.github.kubeevents;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Waits between retries. Injected so tests can record the delays instead of sleeping.
 *
 * <p>Implementations must be thread-safe.
 */
public interface Sleeper {

	/**
	 * Waits for {@code duration}, or less once {@link #cancel()} was called.
	 * @param duration how long to wait
	 * @throws InterruptedException when the thread is interrupted
	 */
	void sleep(Duration duration) throws InterruptedException;

	/**
	 * Wakes every current sleep and makes later ones return at once (called when the broadcaster shuts down).
	 * The default does nothing.
	 */
	default void cancel() {
	}

	/**
	 * A real sleeper that {@link #cancel()} wakes up.
	 * @return a new cancellable sleeper
	 */
	static Sleeper cancellable() {
		CountDownLatch cancelled = new CountDownLatch(1);
		return new Sleeper() {

			@Override
			public void sleep(Duration duration) throws InterruptedException {
				cancelled.await(duration.toNanos(), TimeUnit.NANOSECONDS);
			}

			@Override
			public void cancel() {
				cancelled.countDown();
			}

		};
	}

}
