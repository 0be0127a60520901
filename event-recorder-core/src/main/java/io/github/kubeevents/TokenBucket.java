package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;

/**
 * A token bucket: it starts full with {@code burst} tokens and refills continuously at {@code qps} tokens per
 * second up to {@code burst}. It serves both of the recorder's rate limits:
 * <ul>
 * <li>the spam filter's passive limiter (client-go's {@code NewTokenBucketPassiveRateLimiterWithClock}):
 * {@link #tryAccept(Instant)} takes a token if one is there and never waits;</li>
 * <li>the optional write budget of the sinks (like a clientset's client-side rate limiter, {@code x/time/rate}'s
 * {@code Reserve}): {@link #reserve(Instant)} always takes a token, borrowing from the future when none is left,
 * and says how long the caller must wait for it, so waiting callers are served in order. The reservations that
 * had to wait, and their waits, are counted.</li>
 * </ul>
 * Time comes from the caller (the injected clock), so tests step it exactly.
 *
 * <p>Thread-safe.
 */
final class TokenBucket {

	/** Tolerance for floating-point refill error, so a token due at exactly t is available at t. */
	private static final double EPSILON = 1e-9;

	private static final double NANOS_PER_SECOND = 1_000_000_000.0;

	private final int burst;

	private final double qps;

	private double tokens;

	/** The last refill time as two numbers rather than an {@link Instant}: 16 bytes less per spam-filter entry. */
	private long lastSecond;

	private int lastNano;

	private long throttled;

	private long waitedNanos;

	TokenBucket(int burst, double qps, Instant now) {
		this.burst = burst;
		this.qps = qps;
		this.tokens = burst;
		this.lastSecond = now.getEpochSecond();
		this.lastNano = now.getNano();
	}

	/** Whether a token is available at {@code now} (the correlator's clock), taking it if so. */
	synchronized boolean tryAccept(Instant now) {
		refill(now);
		if (this.tokens >= 1.0 - EPSILON) {
			this.tokens = Math.max(0.0, this.tokens - 1.0);
			return true;
		}
		return false;
	}

	/**
	 * Takes one token, reserving one in the future when none is left.
	 * @return how long the caller must wait before using its token; zero when one was available
	 */
	synchronized Duration reserve(Instant now) {
		refill(now);
		this.tokens -= 1.0;
		if (this.tokens >= -EPSILON) {
			return Duration.ZERO;
		}
		long wait = (long) Math.ceil(-this.tokens / this.qps * NANOS_PER_SECOND);
		this.throttled++;
		this.waitedNanos += wait;
		return Duration.ofNanos(wait);
	}

	/**
	 * The tokens available at {@code now}, without taking any.
	 * @return tokens left, at most burst (negative while reservations borrow from the future)
	 */
	synchronized double tokensAt(Instant now) {
		return Math.min(this.burst, this.tokens + elapsedSeconds(now) * this.qps);
	}

	/** How long until the next whole token is available at {@code now}: zero when one is available. */
	synchronized Duration timeToNextToken(Instant now) {
		double available = tokensAt(now);
		if (available >= 1.0 - EPSILON) {
			return Duration.ZERO;
		}
		return Duration.ofNanos((long) Math.ceil((1.0 - available) / this.qps * NANOS_PER_SECOND));
	}

	int burst() {
		return this.burst;
	}

	double qps() {
		return this.qps;
	}

	/** Reservations that had to wait. */
	synchronized long throttledCount() {
		return this.throttled;
	}

	/** The total of those waits. */
	synchronized Duration totalWait() {
		return Duration.ofNanos(this.waitedNanos);
	}

	private void refill(Instant now) {
		this.tokens = tokensAt(now);
		if (isAfterLast(now)) {
			this.lastSecond = now.getEpochSecond();
			this.lastNano = now.getNano();
		}
	}

	private boolean isAfterLast(Instant now) {
		return now.getEpochSecond() > this.lastSecond
				|| (now.getEpochSecond() == this.lastSecond && now.getNano() > this.lastNano);
	}

	/** {@code Duration.between(last, now)} in seconds, computed as that Duration's seconds and nanos would be. */
	private double elapsedSeconds(Instant now) {
		if (!isAfterLast(now)) {
			return 0;
		}
		long seconds = now.getEpochSecond() - this.lastSecond;
		int nanos = now.getNano() - this.lastNano;
		if (nanos < 0) {
			seconds--;
			nanos += 1_000_000_000;
		}
		return seconds + nanos / NANOS_PER_SECOND;
	}

}
