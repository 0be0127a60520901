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

	/** The last refill time, as two numbers rather than an {@link Instant} (24 bytes less per spam-filter entry). */
	private long lastSecond;

	private int lastNano;

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
		this.lastSecond = now.getEpochSecond();
		this.lastNano = now.getNano();
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
		return seconds + nanos / 1e9;
	}

}
