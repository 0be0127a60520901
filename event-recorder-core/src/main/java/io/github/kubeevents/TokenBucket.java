package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;

/**
 * A passive token bucket (client-go's {@code NewTokenBucketPassiveRateLimiterWithClock}): it starts full with
 * {@code burst} tokens, refills continuously at {@code qps} tokens per second up to {@code burst}, and
 * {@link #tryAccept(Instant)} never waits.
 *
 * <p>Thread-safe.
 */
final class TokenBucket {

	/** Tolerance for floating-point refill error, so a token due at exactly t is available at t. */
	private static final double EPSILON = 1e-9;

	private final int burst;

	private final double qps;

	private double tokens;

	private Instant last;

	/**
	 * A full bucket.
	 * @param burst capacity and initial fill
	 * @param qps refill rate in tokens per second
	 * @param now the creation time
	 */
	TokenBucket(int burst, double qps, Instant now) {
		this.burst = burst;
		this.qps = qps;
		this.tokens = burst;
		this.last = now;
	}

	/**
	 * Takes one token if one is available at {@code now}.
	 * @param now the current time (from the correlator's clock)
	 * @return {@code true} when a token was taken
	 */
	synchronized boolean tryAccept(Instant now) {
		refill(now);
		if (this.tokens >= 1.0 - EPSILON) {
			this.tokens = Math.max(0.0, this.tokens - 1.0);
			return true;
		}
		return false;
	}

	/**
	 * The tokens available at {@code now}, without taking any.
	 * @param now the time to look at
	 * @return tokens left, between 0 and burst
	 */
	synchronized double tokensAt(Instant now) {
		return Math.min(this.burst, this.tokens + elapsedSeconds(now) * this.qps);
	}

	/**
	 * How long until the next whole token is available.
	 * @param now the time to look at
	 * @return zero when a token is available now
	 */
	synchronized Duration timeToNextToken(Instant now) {
		double available = tokensAt(now);
		if (available >= 1.0 - EPSILON) {
			return Duration.ZERO;
		}
		return Duration.ofNanos((long) Math.ceil((1.0 - available) / this.qps * 1_000_000_000L));
	}

	private void refill(Instant now) {
		this.tokens = tokensAt(now);
		if (now.isAfter(this.last)) {
			this.last = now;
		}
	}

	private double elapsedSeconds(Instant now) {
		if (!now.isAfter(this.last)) {
			return 0;
		}
		Duration elapsed = Duration.between(this.last, now);
		return elapsed.getSeconds() + elapsed.getNano() / 1e9;
	}

}
