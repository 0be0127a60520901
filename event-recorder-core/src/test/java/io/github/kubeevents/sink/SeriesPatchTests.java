package io.github.kubeevents.sink;

import java.time.Instant;
import java.util.Map;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The events.k8s.io/v1 series patch body: exactly {@code series.count} and {@code series.lastObservedTime}, the
 * time as the API server's {@code MicroTime} (UTC, six fractional digits, cut rather than rounded).
 */
class SeriesPatchTests {

	@Test
	void bodyIsTheSeriesWithCountAndMicrosecondTime() {
		EventsV1Sink.SeriesPatch patch = new EventsV1Sink.SeriesPatch(3,
				Instant.parse("2026-11-30T12:00:05.123456789Z"));
		assertThat(patch.toMap())
			.isEqualTo(Map.of("series", Map.of("count", 3, "lastObservedTime", "2026-11-30T12:00:05.123456Z")));
		assertThat(patch.toMap().get("series")).asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsExactly(Map.entry("count", 3), Map.entry("lastObservedTime", "2026-11-30T12:00:05.123456Z"));
	}

	@Test
	void wholeSecondsStillHaveSixFractionalDigits() {
		assertThat(new EventsV1Sink.SeriesPatch(2, Instant.parse("2026-11-30T12:00:05Z")).toMap())
			.isEqualTo(Map.of("series", Map.of("count", 2, "lastObservedTime", "2026-11-30T12:00:05.000000Z")));
	}

	@Test
	void countBelowTwoIsRejectedAsTheServerWould() {
		Instant time = Instant.parse("2026-11-30T12:00:05Z");
		assertThat(new EventsV1Sink.SeriesPatch(2, time).count()).isEqualTo(2);
		assertThatIllegalArgumentException().isThrownBy(() -> new EventsV1Sink.SeriesPatch(1, time))
			.withMessage("series.count must be at least 2, was 1");
	}

}
