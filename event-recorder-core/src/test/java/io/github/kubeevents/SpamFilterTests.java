package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;

import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** client-go's TestEventSpamFilter plus the token bucket's numbers. */
class SpamFilterTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private final CoreV1Event original = TestEvents.event("OriginalReason", "Original Message", TestEvents.ref("Pod", "my-pod", "my-ns"));

	private static SpamFilter filter(java.util.function.Function<CoreV1Event, String> key) {
		return new SpamFilter(CorrelatorOptions.builder().burst(1).spamKeyFunction(key).build(),
				new TickingClock(START, Duration.ofSeconds(1)));
	}

	@Test
	void defaultKeySharesTheBudgetAcrossReasons() {
		SpamFilter filter = filter(EventKeys::spamKey);
		assertThat(filter.filter(this.original)).isFalse();
		CoreV1Event differentReason = TestEvents.event("SomeOtherReason", "Original Message", TestEvents.ref("Pod", "my-pod", "my-ns"));
		assertThat(filter.filter(differentReason)).isTrue();
	}

	@Test
	void keyWithReasonGivesEachReasonItsOwnBudget() {
		SpamFilter filter = filter(EventKeys::spamKeyWithReason);
		assertThat(filter.filter(this.original)).isFalse();
		CoreV1Event differentReason = TestEvents.event("SomeOtherReason", "Original Message", TestEvents.ref("Pod", "my-pod", "my-ns"));
		assertThat(filter.filter(differentReason)).isFalse();
	}

	@Test
	void keyWithReasonStillSharesTheBudgetAcrossMessages() {
		SpamFilter filter = filter(EventKeys::spamKeyWithReason);
		assertThat(filter.filter(this.original)).isFalse();
		CoreV1Event differentMessage = TestEvents.event("OriginalReason", "some other message", TestEvents.ref("Pod", "my-pod", "my-ns"));
		assertThat(filter.filter(differentMessage)).isTrue();
	}

	@Test
	void bucketStartsFullWith25ThenRefillsOneTokenEvery300Seconds() {
		TickingClock clock = TickingClock.fixed(START);
		SpamFilter filter = new SpamFilter(CorrelatorOptions.defaults(), clock);
		for (int i = 0; i < 25; i++) {
			assertThat(filter.filter(this.original)).as("event %d", i + 1).isFalse();
		}
		assertThat(filter.filter(this.original)).isTrue();
		assertThat(filter.snapshot(1, (object) -> true).get(0).tokensLeft()).isEqualTo(0.0);
		assertThat(filter.snapshot(1, (object) -> true).get(0).timeToNextToken()).isEqualTo(Duration.ofSeconds(300));
		clock.advance(Duration.ofSeconds(299));
		assertThat(filter.filter(this.original)).isTrue();
		clock.advance(Duration.ofSeconds(1));
		assertThat(filter.filter(this.original)).isFalse();
		assertThat(filter.filter(this.original)).isTrue();
	}

	@Test
	void normalAndWarningHaveSeparateBuckets() {
		TickingClock clock = TickingClock.fixed(START);
		SpamFilter filter = new SpamFilter(CorrelatorOptions.builder().burst(1).build(), clock);
		assertThat(filter.filter(this.original)).isFalse();
		assertThat(filter.filter(this.original)).isTrue();
		CoreV1Event warning = TestEvents.event("OriginalReason", "Original Message", TestEvents.ref("Pod", "my-pod", "my-ns")).type("Warning");
		assertThat(filter.filter(warning)).isFalse();
	}

	@Test
	void cacheIsBoundedAndAForgottenKeyStartsWithAFullBucket() {
		TickingClock clock = TickingClock.fixed(START);
		SpamFilter filter = new SpamFilter(CorrelatorOptions.builder().burst(1).cacheSize(8).build(), clock);
		for (int i = 0; i < 500; i++) {
			filter.filter(TestEvents.event("r", "m", TestEvents.ref("Pod", "pod-" + i, "my-ns")));
		}
		assertThat(filter.size()).isLessThanOrEqualTo(8);
		int fresh = 0;
		for (int i = 0; i < 500; i++) {
			if (!filter.filter(TestEvents.event("r", "m", TestEvents.ref("Pod", "pod-" + i, "my-ns")))) {
				fresh++;
			}
		}
		// at most 8 keys can still hold an empty bucket; every other key was evicted and starts full again
		assertThat(fresh).isGreaterThanOrEqualTo(492);
	}

	@Test
	void disabledFilterNeverSkips() {
		SpamFilter filter = new SpamFilter(CorrelatorOptions.builder().burst(1).spamFilterEnabled(false).build(),
				TickingClock.fixed(START));
		for (int i = 0; i < 100; i++) {
			assertThat(filter.filter(this.original)).isFalse();
		}
		assertThat(filter.size()).isZero();
	}

	@Test
	void optionsRejectValuesClientGoWouldSilentlyReplace() {
		assertThatIllegalArgumentException().isThrownBy(() -> CorrelatorOptions.builder().burst(0).build())
			.withMessageContaining("burst");
		assertThatIllegalArgumentException().isThrownBy(() -> CorrelatorOptions.builder().qps(0).build())
			.withMessageContaining("qps");
		assertThatIllegalArgumentException().isThrownBy(() -> CorrelatorOptions.builder().cacheSize(0).build())
			.withMessageContaining("cacheSize");
		assertThatIllegalArgumentException().isThrownBy(() -> CorrelatorOptions.builder().aggregateMaxEvents(1).build())
			.withMessageContaining("aggregateMaxEvents");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CorrelatorOptions.builder().aggregateInterval(Duration.ZERO).build())
			.withMessageContaining("aggregateInterval");
	}

	@Test
	void defaultsAreClientGos() {
		CorrelatorOptions options = CorrelatorOptions.defaults();
		assertThat(options.cacheSize()).isEqualTo(4096);
		assertThat(options.burst()).isEqualTo(25);
		assertThat(options.qps()).isEqualTo(1.0 / 300);
		assertThat(options.aggregateMaxEvents()).isEqualTo(10);
		assertThat(options.aggregateInterval()).isEqualTo(Duration.ofSeconds(600));
		assertThat(options.messagePrefix()).isEqualTo("(combined from similar events): ");
		assertThat(options.aggregationEnabled()).isTrue();
		assertThat(options.spamFilterEnabled()).isTrue();
		assertThat(options.clock()).as("null: the broadcaster's clock").isNull();
		CoreV1Event event = this.original;
		assertThat(options.spamKeyFunction().apply(event)).isEqualTo(EventKeys.spamKey(event));
		assertThat(options.aggregateKeyFunction().apply(event)).isEqualTo(EventKeys.aggregateByReason(event));
	}

}
