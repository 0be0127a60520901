package io.github.kubeevents;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** client-go's TestGenerateEventName, and timestamps. */
class EventsTest {

	private static final Instant TIME = Instant.ofEpochSecond(0, 105999103295324396L);

	@Test
	void nameIsRefNameDotLowercaseHexUnixNanos() {
		assertThat(Events.generateName("test-pod", TIME)).isEqualTo("test-pod.178959f726d80ec");
	}

	@ParameterizedTest
	@ValueSource(strings = { "test.POD", "test.pod/invalid!chars?", "--test.pod/invalid!chars?", "system:controller",
			"2001:db8::123" })
	void invalidNamesAreReplacedByAUuid(String refName) {
		String name = Events.generateName(refName, TIME);
		assertThat(Events.isDns1123Subdomain(name)).isTrue();
		assertThat(name).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
	}

	@Test
	void tooLongNamesAreReplacedByAUuid() {
		String name = Events.generateName("x".repeat(300), TIME);
		assertThat(name).hasSize(36);
		assertThat(Events.isDns1123Subdomain(name)).isTrue();
	}

	@Test
	void nameExactlyAtTheLimitIsKept() {
		String refName = "x".repeat(253 - ".178959f726d80ec".length());
		assertThat(Events.generateName(refName, TIME)).isEqualTo(refName + ".178959f726d80ec");
	}

	@Test
	void timestampsAreUtcWholeSeconds() {
		OffsetDateTime timestamp = Events.timestamp(Instant.parse("2026-11-30T12:34:56.789Z"));
		assertThat(timestamp).isEqualTo(OffsetDateTime.of(2026, 11, 30, 12, 34, 56, 0, ZoneOffset.UTC));
		assertThat(timestamp.getOffset()).isEqualTo(ZoneOffset.UTC);
	}

}
