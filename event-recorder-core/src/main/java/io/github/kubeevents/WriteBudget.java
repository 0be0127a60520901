package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;

/**
 * An optional limit on the API server requests of a broadcaster's sinks, like the 5 QPS / burst 10 client-side
 * rate limiter of a client-go clientset (the official Java client has none). A token bucket that starts full:
 * each request takes a token, waiting for it when there is none. Waiting threads reserve tokens in turn, so they
 * are served in order. Off unless configured (then behaviour is client-go's recorder over an unthrottled client).
 *
 * <p>Thread-safe.
 */
final class WriteBudget {

	private final double qps;

	private final int burst;

	private final Clock clock;

	private final LongAdder throttled = new LongAdder();

	private final LongAdder waitedNanos = new LongAdder();

	private double tokens;

	private Instant last;

	WriteBudget(double qps, int burst, Clock clock) {
		this.qps = qps;
		this.burst = burst;
		this.clock = clock;
		this.tokens = burst;
		this.last = clock.instant();
	}

	/**
	 * Takes a token, reserving one in the future when none is left.
	 * @return how long the caller must wait before its request; zero when a token was available
	 */
	synchronized Duration reserve() {
		Instant now = this.clock.instant();
		if (now.isAfter(this.last)) {
			Duration elapsed = Duration.between(this.last, now);
			this.tokens = Math.min(this.burst, this.tokens + (elapsed.getSeconds() + elapsed.getNano() / 1e9) * this.qps);
			this.last = now;
		}
		this.tokens -= 1;
		if (this.tokens >= 0) {
			return Duration.ZERO;
		}
		Duration wait = Duration.ofNanos((long) Math.ceil(-this.tokens / this.qps * 1e9));
		this.throttled.increment();
		this.waitedNanos.add(wait.toNanos());
		return wait;
	}

	double qps() {
		return this.qps;
	}

	int burst() {
		return this.burst;
	}

	/** Requests that had to wait. */
	long throttledCount() {
		return this.throttled.sum();
	}

	/** The total of those waits. */
	Duration totalWait() {
		return Duration.ofNanos(this.waitedNanos.sum());
	}

}
