package io.github.kubeevents;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * client-go's TestGenerateEventName, and the DNS-1123 check against apimachinery's regular expression (the
 * library's character loop replaced that regex on the caller's path).
 */
class EventNamesTests {

	private static final Instant TIME = Instant.ofEpochSecond(0, 105999103295324396L);

	/** apimachinery's {@code dns1123SubdomainFmt}. */
	private static final Pattern DNS1123_SUBDOMAIN = Pattern
		.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

	private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

	private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789.-A_:";

	/** apimachinery's {@code IsDNS1123Subdomain}: at most 253 characters and the regex. */
	private static boolean reference(String value) {
		return value.length() <= 253 && DNS1123_SUBDOMAIN.matcher(value).matches();
	}

	@Test
	void nameIsRefNameDotLowercaseHexUnixNanos() {
		assertThat(EventNames.generate("test-pod", TIME)).isEqualTo("test-pod.178959f726d80ec");
		assertThat(EventNames.unixNanos(TIME)).isEqualTo(105999103295324396L);
	}

	@ParameterizedTest
	@ValueSource(strings = { "test.POD", "test.pod/invalid!chars?", "--test.pod/invalid!chars?", "system:controller",
			"2001:db8::123", "web-", "web.", "-web", ".web", "web..0", "web_0" })
	void invalidNamesAreReplacedByAUuid(String refName) {
		String name = EventNames.generate(refName, TIME);
		assertThat(EventNames.isDns1123Subdomain(name)).isTrue();
		assertThat(name).matches(UUID);
	}

	@Test
	void aUuidNameIsTheSameForEveryAttemptOfAWriteAndDiffersFromOccurrenceToOccurrence() {
		// the name-based UUID of "system:controller.178959f726d80ec" (client-go's is random: a lost CREATE repeats)
		assertThat(EventNames.generate("system:controller", TIME)).isEqualTo("62650150-b61f-36b5-9a02-188cd3109697")
			.isEqualTo(EventNames.generate("system:controller", TIME));
		assertThat(EventNames.generate("system:controller", TIME.plusNanos(1)))
			.isNotEqualTo("62650150-b61f-36b5-9a02-188cd3109697");
		assertThat(EventNames.generate("system:controller2", TIME)).isNotEqualTo("62650150-b61f-36b5-9a02-188cd3109697");
	}

	@Test
	void tooLongNamesAreReplacedByAUuid() {
		String name = EventNames.generate("x".repeat(300), TIME);
		assertThat(name).matches(UUID);
		assertThat(EventNames.isDns1123Subdomain(name)).isTrue();
	}

	@Test
	void nameExactlyAtTheLimitIsKeptOneMoreIsAUuid() {
		String refName = "x".repeat(253 - ".178959f726d80ec".length());
		assertThat(EventNames.generate(refName, TIME)).isEqualTo(refName + ".178959f726d80ec").hasSize(253);
		assertThat(EventNames.generate(refName + "x", TIME)).matches(UUID);
	}

	@Test
	void isDns1123SubdomainAgreesWithTheRegexOnEdgeCases() {
		List<String> cases = List.of("", "a", "0", "-", ".", "a-", "-a", "a.", ".a", "a..b", "a.-b", "a-.b", "a--b",
				"a.b", "a.b.c", "a-b.c-d", "A", "aB", "a_b", "a:b", "0.0", "a" + "-".repeat(100) + "b", "x".repeat(253),
				"x".repeat(254), "x".repeat(252) + ".", "x".repeat(251) + ".y", "é", "a b");
		for (String value : cases) {
			assertThat(EventNames.isDns1123Subdomain(value)).as("'%s'", value).isEqualTo(reference(value));
		}
		assertThat(EventNames.isDns1123Subdomain(null)).isFalse();
	}

	@Test
	void isDns1123SubdomainAgreesWithTheRegexOnRandomStrings() {
		Random random = new Random(20261130);
		int valid = 0;
		for (int i = 0; i < 50_000; i++) {
			String value = randomName(random);
			boolean expected = reference(value);
			assertThat(EventNames.isDns1123Subdomain(value)).as("'%s'", value).isEqualTo(expected);
			valid += expected ? 1 : 0;
		}
		// the generator must produce both outcomes in quantity, or the comparison proves little
		assertThat(valid).isBetween(5_000, 45_000);
	}

	@Test
	void generateIsClientGosGenerateEventNameOnRandomNames() {
		Random random = new Random(42);
		int kept = 0;
		for (int i = 0; i < 20_000; i++) {
			String refName = randomName(random);
			Instant time = Instant.ofEpochSecond(random.nextInt(2_000_000_000), random.nextInt(1_000_000_000));
			String clientGo = refName + "." + Long.toHexString(EventNames.unixNanos(time));
			String name = EventNames.generate(refName, time);
			if (reference(clientGo)) {
				assertThat(name).as("'%s'", refName).isEqualTo(clientGo);
				kept++;
			}
			else {
				assertThat(name).as("'%s'", refName).matches(UUID);
			}
		}
		assertThat(kept).isBetween(2_000, 18_000);
	}

	/**
	 * Strings of length 0..260 over {@link #ALPHABET}, most of them built from valid-looking labels so that both
	 * valid and invalid values are frequent, with random mutations.
	 */
	private static String randomName(Random random) {
		int length = random.nextInt(261);
		StringBuilder value = new StringBuilder(length);
		boolean structured = random.nextInt(4) != 0;
		while (value.length() < length) {
			if (!structured) {
				value.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
				continue;
			}
			int label = 1 + random.nextInt(12);
			for (int j = 0; j < label && value.length() < length; j++) {
				int r = random.nextInt(20);
				value.append((r == 0) ? '-' : ALPHABET.charAt(random.nextInt(36)));
			}
			if (value.length() < length) {
				value.append('.');
			}
		}
		if (structured && value.length() > 0 && random.nextInt(3) == 0) {
			int at = random.nextInt(value.length());
			value.setCharAt(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
		}
		return value.toString();
	}

	@Test
	void unixNanosCoverTheWholeInstant() {
		assertThat(EventNames.unixNanos(Instant.parse("2026-11-30T12:00:00.123456789Z")))
			.isEqualTo(1796040000123456789L);
		assertThat(EventNames.unixNanos(Instant.EPOCH)).isZero();
		assertThat(EventNames.unixNanos(Instant.ofEpochSecond(-1, 500))).isEqualTo(-999_999_500L);
		List<Long> nanos = new ArrayList<>();
		for (long n : new long[] { 1L, 999_999_999L, 1_000_000_000L, Long.MAX_VALUE }) {
			nanos.add(EventNames.unixNanos(Instant.ofEpochSecond(0, n)));
		}
		assertThat(nanos).containsExactly(1L, 999_999_999L, 1_000_000_000L, Long.MAX_VALUE);
	}

}
