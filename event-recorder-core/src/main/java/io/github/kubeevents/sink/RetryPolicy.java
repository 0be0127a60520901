package io.github.kubeevents.sink;

import java.time.Duration;

/**
 * How often and how long the recorder retries a write that failed with a retryable error (client-go's
 * {@code maxTriesPerEvent} and {@code sleepDuration}): up to {@code maxAttempts} attempts in all, waiting before
 * each retry by the rule of the API written, as client-go does:
 * <ul>
 * <li>core/v1 ({@code tools/record}, {@link #recordDelay}): the first retry waits {@code sleep × U[0,1)} (full
 * jitter, so clients do not retry in lock-step after an outage), every later retry waits {@code sleep};</li>
 * <li>events.k8s.io/v1 ({@code tools/events}, {@link #eventsV1Delay}): every retry waits
 * {@code sleep × [1, 1.25)} ({@code wait.Jitter(sleep, 0.25)}).</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 *
 * @param maxAttempts total attempts per event including the first; default 12
 * @param sleep the base delay between attempts; default 10 s
 */
public record RetryPolicy(int maxAttempts, Duration sleep) {

	/** client-go's {@code maxTriesPerEvent}. */
	public static final int DEFAULT_MAX_ATTEMPTS = 12;

	/** client-go's {@code defaultSleepDuration}. */
	public static final Duration DEFAULT_SLEEP = Duration.ofSeconds(10);

	/**
	 * Validates the policy.
	 * @throws IllegalArgumentException when maxAttempts &lt; 1 or sleep is negative
	 */
	public RetryPolicy {
		if (maxAttempts < 1) {
			throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
		}
		if (sleep == null || sleep.isNegative()) {
			throw new IllegalArgumentException("sleep must be zero or positive, was " + sleep);
		}
	}

	/**
	 * client-go's defaults: 12 attempts, 10 s.
	 * @return the default policy
	 */
	public static RetryPolicy defaults() {
		return new RetryPolicy(DEFAULT_MAX_ATTEMPTS, DEFAULT_SLEEP);
	}

	/**
	 * The wait before retry number {@code retry} of a core/v1 write (client-go's {@code recordToSink}).
	 * @param retry 1 for the first retry (after the first failed attempt), 2 for the second, ...
	 * @param uniform a uniform random number in [0, 1)
	 * @return {@code sleep × uniform} for the first retry, {@code sleep} afterwards
	 */
	public Duration recordDelay(int retry, double uniform) {
		if (retry <= 1) {
			return Duration.ofNanos((long) (this.sleep.toNanos() * uniform));
		}
		return this.sleep;
	}

	/**
	 * The wait before any retry of an events.k8s.io/v1 write (client-go's {@code attemptRecording}).
	 * @param uniform a uniform random number in [0, 1)
	 * @return {@code sleep × (1 + 0.25 × uniform)}
	 */
	public Duration eventsV1Delay(double uniform) {
		return Duration.ofNanos((long) (this.sleep.toNanos() * (1 + 0.25 * uniform)));
	}

}
