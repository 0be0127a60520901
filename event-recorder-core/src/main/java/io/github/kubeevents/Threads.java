package io.github.kubeevents;

import java.util.concurrent.TimeUnit;

/** Waiting for the library's threads with a deadline. Stateless. */
final class Threads {

	private Threads() {
	}

	/**
	 * Waits for {@code thread} to end, until {@code deadlineNanos} ({@link System#nanoTime()}); a thread never
	 * started counts as ended. An interrupt of the waiting thread ends the wait and is kept.
	 * @return {@code true} when the thread has ended
	 */
	static boolean join(Thread thread, long deadlineNanos) {
		if (thread.getState() == Thread.State.NEW) {
			return true;
		}
		long remaining = deadlineNanos - System.nanoTime();
		try {
			if (remaining > 0) {
				TimeUnit.NANOSECONDS.timedJoin(thread, remaining);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return !thread.isAlive();
	}

}
