package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The token bucket's arithmetic below a second: continuous refill measured in nanoseconds (across a second boundary
 * too), the wait for the next token, the cap at the burst, a clock that steps back, and the floating-point
 * tolerance. The spam-filter and write-budget tests step whole seconds or use exact fractions of them.
 */
class TokenBucketTests {

	/** Nine tenths into a second, so that a quarter of a second later crosses into the next one. */
	private static final Instant T0 = Instant.parse("2026-11-30T12:00:00.900Z");

	@Test
	void refillsContinuouslyWithinASecondAndAcrossASecondBoundary() {
		TokenBucket bucket = new TokenBucket(1, 2, T0);
		assertThat(bucket.tryAccept(T0)).isTrue();
		assertThat(bucket.tokensAt(T0)).isEqualTo(0.0);
		Instant quarter = T0.plusMillis(250);
		assertThat(bucket.tokensAt(quarter)).isEqualTo(0.5);
		assertThat(bucket.timeToNextToken(quarter)).isEqualTo(Duration.ofMillis(250));
		assertThat(bucket.tryAccept(quarter)).isFalse();
		// the half token stays; the next quarter second brings the other half
		assertThat(bucket.tokensAt(T0.plusMillis(400))).isEqualTo(0.8);
		assertThat(bucket.tryAccept(T0.plusMillis(500))).isTrue();
		assertThat(bucket.tokensAt(T0.plusMillis(500))).isEqualTo(0.0);
		assertThat(bucket.timeToNextToken(T0.plusMillis(500))).isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void refillStopsAtTheBurst() {
		TokenBucket bucket = new TokenBucket(2, 10, T0);
		assertThat(bucket.tryAccept(T0)).isTrue();
		assertThat(bucket.tokensAt(T0.plusMillis(50))).isEqualTo(1.5);
		assertThat(bucket.tokensAt(T0.plus(Duration.ofHours(1)))).isEqualTo(2.0);
		assertThat(bucket.timeToNextToken(T0.plusMillis(50))).isEqualTo(Duration.ZERO);
	}

	@Test
	void aClockThatStepsBackRefillsNothingAndTheRefillGoesOnFromTheLaterTime() {
		TokenBucket bucket = new TokenBucket(1, 1, T0);
		assertThat(bucket.tryAccept(T0)).isTrue();
		// earlier within the same second, and a whole second earlier
		assertThat(bucket.tokensAt(T0.minusMillis(300))).isEqualTo(0.0);
		assertThat(bucket.tryAccept(T0.minusMillis(300))).isFalse();
		assertThat(bucket.tryAccept(T0.minusSeconds(2))).isFalse();
		assertThat(bucket.tokensAt(T0)).isEqualTo(0.0);
		assertThat(bucket.tokensAt(T0.plusMillis(400))).isEqualTo(0.4);
		assertThat(bucket.timeToNextToken(T0.minusSeconds(2))).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void theToleranceIsOneBillionthOfAToken() {
		// at one token per second: a token due in one nanosecond is there, one due in two is not
		TokenBucket early = new TokenBucket(1, 1, T0);
		assertThat(early.tryAccept(T0)).isTrue();
		assertThat(early.timeToNextToken(T0.plusNanos(999_999_999))).isEqualTo(Duration.ZERO);
		assertThat(early.tryAccept(T0.plusNanos(999_999_999))).isTrue();
		TokenBucket tooEarly = new TokenBucket(1, 1, T0);
		assertThat(tooEarly.tryAccept(T0)).isTrue();
		assertThat(tooEarly.tryAccept(T0.plusNanos(999_999_998))).isFalse();
	}

}
