package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;

import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Issue 29 item 1: the spam filter's Warning lane (opt-in). Off, every decision is client-go's; on, a Warning draws
 * from a bucket of its own per spam key and reason, with the lane's burst and refill.
 */
class WarningLaneTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	/** client-go's default key before 1.32 (PR #124747 added the type): Normal and Warning share one budget. */
	private static final Function<CoreV1Event, String> KEY_WITHOUT_TYPE = (event) -> event.getSource().getComponent()
			+ event.getInvolvedObject().getNamespace() + event.getInvolvedObject().getName();

	private final TickingClock clock = TickingClock.fixed(START);

	private static CoreV1Event normal(String reason) {
		return TestEvents.event(reason, "routine", TestEvents.ref("Pod", "web-0", "ns"));
	}

	private static CoreV1Event warning(String reason) {
		return TestEvents.event(reason, "it broke", TestEvents.ref("Pod", "web-0", "ns")).type("Warning");
	}

	private SpamFilter filter(CorrelatorOptions.Builder options) {
		return new SpamFilter(options.build(), this.clock);
	}

	/** How many of {@code count} copies of {@code event} the filter lets through. */
	private static int passed(SpamFilter filter, CoreV1Event event, int count) {
		int passed = 0;
		for (int i = 0; i < count; i++) {
			if (!filter.filter(event)) {
				passed++;
			}
		}
		return passed;
	}

	@Test
	void hundredNormalEventsThenAWarningOnOneObjectTheWarningPassesWithTheLaneAndWithClientGosDefaultKey() {
		SpamFilter lane = filter(CorrelatorOptions.builder().warningLane(true));
		assertThat(passed(lane, normal("Reconciled"), 100)).isEqualTo(25);
		assertThat(lane.filter(warning("FailedCreate"))).isFalse();
		// client-go's result: its default key has held the type since 1.32, so the Warning has a bucket of its own
		SpamFilter clientGo = filter(CorrelatorOptions.builder());
		assertThat(passed(clientGo, normal("Reconciled"), 100)).isEqualTo(25);
		assertThat(clientGo.filter(warning("FailedCreate"))).isFalse();
	}

	@Test
	void withAKeyWithoutTheTypeNormalEventsStarveTheWarningUnlessTheLaneIsOn() {
		SpamFilter off = filter(CorrelatorOptions.builder().spamKeyFunction(KEY_WITHOUT_TYPE));
		assertThat(passed(off, normal("Reconciled"), 100)).isEqualTo(25);
		assertThat(off.filter(warning("FailedCreate"))).isTrue();
		SpamFilter on = filter(CorrelatorOptions.builder().spamKeyFunction(KEY_WITHOUT_TYPE).warningLane(true));
		assertThat(passed(on, normal("Reconciled"), 100)).isEqualTo(25);
		assertThat(on.filter(warning("FailedCreate"))).isFalse();
	}

	@Test
	void routineWarningsOfOneReasonStarveAnotherReasonOnlyWithoutTheLane() {
		SpamFilter clientGo = filter(CorrelatorOptions.builder());
		assertThat(passed(clientGo, warning("BackOff"), 40)).isEqualTo(25);
		assertThat(clientGo.filter(warning("FailedCreate"))).isTrue();
		SpamFilter lane = filter(CorrelatorOptions.builder().warningLane(true));
		assertThat(passed(lane, warning("BackOff"), 40)).isEqualTo(25);
		assertThat(passed(lane, warning("FailedCreate"), 40)).isEqualTo(25);
	}

	@Test
	void theLaneHasItsOwnBurstAndRefillAndNormalEventsKeepTheFilters() {
		SpamFilter filter = filter(CorrelatorOptions.builder().burst(3).qps(1.0 / 300).warningLane(true)
			.warningBurst(2).warningQps(1.0 / 60));
		assertThat(passed(filter, normal("Reconciled"), 10)).isEqualTo(3);
		assertThat(passed(filter, warning("FailedCreate"), 10)).isEqualTo(2);
		this.clock.advance(Duration.ofSeconds(59));
		assertThat(filter.filter(warning("FailedCreate"))).isTrue();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(filter.filter(warning("FailedCreate"))).isFalse();
		assertThat(filter.filter(warning("FailedCreate"))).isTrue();
		assertThat(filter.filter(normal("Reconciled"))).isTrue();
		this.clock.advance(Duration.ofSeconds(240));
		assertThat(passed(filter, normal("Reconciled"), 5)).isEqualTo(1);
	}

	@Test
	void aLaneBucketShowsItsWarningsReasonInTheSnapshot() {
		SpamFilter filter = filter(CorrelatorOptions.builder().burst(2).warningLane(true));
		passed(filter, warning("FailedCreate"), 1);
		passed(filter, warning("BackOff"), 3);
		assertThat(filter.snapshot(10, (object) -> true))
			.extracting((bucket) -> bucket.type() + "/" + bucket.reason() + "=" + bucket.tokensLeft())
			.containsExactlyInAnyOrder("Warning/FailedCreate=1.0", "Warning/BackOff=0.0");
	}

	@Test
	void theLanesBurstAndRefillFollowTheFiltersUnlessSet() {
		CorrelatorOptions options = CorrelatorOptions.builder().burst(7).qps(0.5).warningLane(true).build();
		assertThat(options.warningBurst()).isEqualTo(7);
		assertThat(options.warningQps()).isEqualTo(0.5);
		CorrelatorOptions changed = options.toBuilder().burst(9).qps(0.25).build();
		assertThat(changed.warningBurst()).isEqualTo(9);
		assertThat(changed.warningQps()).isEqualTo(0.25);
		CorrelatorOptions set = options.toBuilder().warningBurst(3).warningQps(2.0).build().toBuilder().burst(11).build();
		assertThat(set.warningBurst()).isEqualTo(3);
		assertThat(set.warningQps()).isEqualTo(2.0);
		assertThat(CorrelatorOptions.defaults().warningLane()).isFalse();
	}

	@Test
	void invalidLaneSettingsAreRejectedByName() {
		assertThatIllegalArgumentException().isThrownBy(() -> CorrelatorOptions.builder().warningBurst(0).build())
			.withMessage("warningBurst must be at least 1, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> CorrelatorOptions.builder().warningQps(0.0).build())
			.withMessage("warningQps must be a positive finite number, was 0.0");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> CorrelatorOptions.builder().minUpdateInterval(Duration.ofSeconds(-1)).build())
			.withMessage("minUpdateInterval must be zero or positive, was PT-1S");
	}

}
