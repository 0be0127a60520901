package io.github.kubeevents.sink;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The retry policy: client-go's defaults, its validation and the delay rule of each API. */
class RetryPolicyTests {

	@Test
	void defaultsAreClientGos() {
		RetryPolicy policy = RetryPolicy.defaults();
		assertThat(policy.maxAttempts()).isEqualTo(12);
		assertThat(policy.sleep()).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void coreV1WaitsAJitteredSleepBeforeTheFirstRetryAndTheWholeSleepLater() {
		RetryPolicy policy = RetryPolicy.defaults();
		assertThat(policy.recordDelay(1, 0.0)).isEqualTo(Duration.ZERO);
		assertThat(policy.recordDelay(1, 0.25)).isEqualTo(Duration.ofMillis(2500));
		assertThat(policy.recordDelay(1, 0.999)).isEqualTo(Duration.ofMillis(9990));
		assertThat(policy.recordDelay(2, 0.25)).isEqualTo(Duration.ofSeconds(10));
		assertThat(policy.recordDelay(11, 0.0)).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void eventsV1WaitsTheSleepTimesOneToOneAndAQuarterBeforeEveryRetry() {
		RetryPolicy policy = RetryPolicy.defaults();
		assertThat(policy.eventsV1Delay(0.0)).isEqualTo(Duration.ofSeconds(10));
		assertThat(policy.eventsV1Delay(0.5)).isEqualTo(Duration.ofMillis(11_250));
		assertThat(policy.eventsV1Delay(0.999)).isEqualTo(Duration.ofNanos(12_497_500_000L));
	}

	@Test
	void oneAttemptAndNoSleepAreValidLessIsNot() {
		RetryPolicy once = new RetryPolicy(1, Duration.ZERO);
		assertThat(once.maxAttempts()).isEqualTo(1);
		assertThat(once.recordDelay(1, 0.5)).isEqualTo(Duration.ZERO);
		assertThatIllegalArgumentException().isThrownBy(() -> new RetryPolicy(0, Duration.ZERO))
			.withMessage("maxAttempts must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> new RetryPolicy(12, Duration.ofNanos(-1)))
			.withMessage("sleep must be zero or positive, was PT-0.000000001S");
		assertThatIllegalArgumentException().isThrownBy(() -> new RetryPolicy(12, null))
			.withMessage("sleep must be zero or positive, was null");
	}

}
