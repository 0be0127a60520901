package io.github.kubeevents.test.cluster;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DurationsTests {

	@Test
	void formatsGoDurations() {
		assertThat(Durations.toGo(Duration.ofHours(1))).isEqualTo("3600s");
		assertThat(Durations.toGo(Duration.ofSeconds(5))).isEqualTo("5s");
		assertThat(Durations.toGo(Duration.ofMillis(1500))).isEqualTo("1500ms");
	}

	@Test
	void parsesShortFormsAndIso() {
		assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
		assertThat(Durations.parse(" 5s ")).isEqualTo(Duration.ofSeconds(5));
		assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
		assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
		assertThat(Durations.parse("PT5S")).isEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void rejectsAnythingElse() {
		assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("5 seconds"))
			.withMessage("not a duration: '5 seconds' (expected e.g. 500ms, 5s, 2m, 1h or PT5S)");
		assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("1h30m"));
	}

}
