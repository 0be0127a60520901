package io.github.kubeevents;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The real sleeper's wake-up: a stop sets its flag and wakes every wait; no interleaving may leave a writer in a
 * retry delay or a Retry-After wait after that (a missed wake-up turns the stop's drain into a deadline drop).
 */
class SleeperTests {

	/** Only a hang makes the guard fire: every wait in these tests is a day long unless woken. */
	private static final Duration GUARD = Duration.ofSeconds(30);

	private static final Duration DAY = Duration.ofDays(1);

	@Test
	void aCancelledFlagEndsTheWaitBeforeItBegins() {
		Sleeper sleeper = Sleeper.real();
		assertTimeoutPreemptively(GUARD, () -> assertThat(sleeper.sleepUnless(DAY, () -> true)).isFalse());
	}

	@Test
	void aCancellationBetweenTheLastLookAtTheFlagAndTheWaitIsNotMissed() {
		Sleeper sleeper = Sleeper.real();
		AtomicBoolean cancelled = new AtomicBoolean();
		AtomicBoolean first = new AtomicBoolean(true);
		// the cancelling thread runs right after the sleeper read the flag as false, as a stop racing a retry does
		assertTimeoutPreemptively(GUARD, () -> assertThat(sleeper.sleepUnless(DAY, () -> {
			boolean value = cancelled.get();
			if (first.getAndSet(false)) {
				Thread stop = new Thread(() -> {
					cancelled.set(true);
					sleeper.wakeAll();
				});
				stop.start();
			}
			return value;
		})).isFalse());
	}

	@Test
	void aWakeUpEndsAWaitInProgressAndLaterWaitsStillWait() throws Exception {
		Sleeper sleeper = Sleeper.real();
		AtomicBoolean cancelled = new AtomicBoolean();
		Thread waiter = new Thread(() -> {
			try {
				sleeper.sleepUnless(DAY, cancelled::get);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		waiter.start();
		while (waiter.getState() != Thread.State.TIMED_WAITING) {
			Thread.onSpinWait();
		}
		cancelled.set(true);
		sleeper.wakeAll();
		waiter.join(GUARD.toMillis());
		assertThat(waiter.isAlive()).isFalse();
		assertThat(sleeper.sleepUnless(Duration.ofMillis(1), () -> false)).as("a later wait runs to its end").isTrue();
	}

}
