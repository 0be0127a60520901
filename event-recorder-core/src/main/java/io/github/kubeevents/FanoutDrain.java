package io.github.kubeevents;

import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The waiting part of a {@link Fanout} shutdown: subscribers stop waiting between retries, then the distribution
 * thread and every started subscriber thread get until the deadline to drain; past it they are interrupted and their
 * requests in flight cancelled, and threads that still have not ended {@link #ABORT_GRACE} later are abandoned with
 * what their queues still hold counted as {@code shutdown} drops.
 *
 * <p>Used once, by the thread that began the shutdown; the subscriber list is the fan-out's copy-on-write list, so it
 * may be read while the distribution thread still changes it.
 */
final class FanoutDrain {

	/** Shutdown is the broadcaster's, so are its log lines. */
	private static final Logger shutdownLogger = LoggerFactory.getLogger(EventBroadcaster.class);

	/** How long threads that ignored the deadline get after their requests were cancelled. */
	private static final Duration ABORT_GRACE = Duration.ofSeconds(1);

	private final Thread distributor;

	private final List<SubscriberQueue> started;

	/**
	 * A drain of these threads.
	 * @param distributor the fan-out's distribution thread (may never have been started)
	 * @param started every subscriber whose thread was started
	 */
	FanoutDrain(Thread distributor, List<SubscriberQueue> started) {
		this.distributor = distributor;
		this.started = started;
	}

	/**
	 * Drains, escalating as described in the class comment.
	 * @param timeout the deadline
	 * @param cancelWaits ends every wait between retries
	 * @return {@code true} when everything drained in time
	 */
	boolean drain(Duration timeout, Runnable cancelWaits) {
		for (SubscriberQueue subscriber : this.started) {
			subscriber.cancel();
		}
		cancelWaits.run();
		boolean clean = awaitTermination(System.nanoTime() + timeout.toNanos());
		if (!clean) {
			shutdownLogger.warn("Event broadcaster did not drain within {}; cancelling requests in flight", timeout);
			abort();
			if (!awaitTermination(System.nanoTime() + ABORT_GRACE.toNanos())) {
				shutdownLogger.warn("Event threads still running {} after the deadline; abandoning them", ABORT_GRACE);
				abandon();
			}
		}
		return clean;
	}

	/**
	 * Waits for the distribution thread and every subscriber thread until {@code deadlineNanos}.
	 * @return {@code true} when all of them ended
	 */
	private boolean awaitTermination(long deadlineNanos) {
		boolean clean = Threads.join(this.distributor, deadlineNanos);
		for (SubscriberQueue subscriber : this.started) {
			clean &= subscriber.join(deadlineNanos);
		}
		return clean;
	}

	/** The deadline passed: interrupt every thread; what is still queued is counted as {@code shutdown}. */
	private void abort() {
		this.distributor.interrupt();
		for (SubscriberQueue subscriber : this.started) {
			subscriber.abort();
		}
	}

	/** Threads outlived the grace after {@link #abort()}: count what their queues still hold. */
	private void abandon() {
		for (SubscriberQueue subscriber : this.started) {
			if (subscriber.isAlive()) {
				subscriber.drainAbandoned();
			}
		}
	}

}
