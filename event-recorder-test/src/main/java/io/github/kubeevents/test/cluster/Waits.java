package io.github.kubeevents.test.cluster;

import java.util.concurrent.TimeUnit;

/** Polling with a deadline ({@link System#nanoTime()} based). Stateless. */
final class Waits {

	private static final long POLL_MILLIS = 100;

	private Waits() {
	}

	/**
	 * A deadline {@code timeout} from now.
	 * @param timeout how long
	 * @return the deadline in {@link System#nanoTime()} terms
	 */
	static long deadline(java.time.Duration timeout) {
		return System.nanoTime() + timeout.toNanos();
	}

	/**
	 * Pauses briefly before the next poll.
	 * @param deadline from {@link #deadline}
	 * @param waitingFor what is awaited, for the exception message
	 * @throws IllegalStateException when the deadline has passed or the thread is interrupted
	 */
	static void pause(long deadline, String waitingFor) {
		if (System.nanoTime() - deadline > 0) {
			throw new IllegalStateException("timed out waiting for " + waitingFor);
		}
		try {
			TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while waiting for " + waitingFor, ex);
		}
	}

}
