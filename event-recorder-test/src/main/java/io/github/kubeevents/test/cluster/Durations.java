package io.github.kubeevents.test.cluster;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go {@code time.Duration} strings (as kube-apiserver flags take them) to and from {@link Duration}. Stateless. */
final class Durations {

	private static final Pattern SIMPLE = Pattern.compile("(\\d+)(ms|s|m|h)");

	private Durations() {
	}

	/**
	 * A Go duration string: whole seconds as {@code 5s}, anything else as milliseconds ({@code 1500ms}).
	 * @param duration a non-negative duration
	 * @return the flag value
	 */
	static String toGo(Duration duration) {
		if (duration.toNanos() % 1_000_000_000L == 0) {
			return duration.getSeconds() + "s";
		}
		return duration.toMillis() + "ms";
	}

	/**
	 * Parses {@code 500ms}, {@code 5s}, {@code 2m}, {@code 1h} (one number and unit) or ISO-8601 ({@code PT5S}).
	 * @param text the text
	 * @return the duration
	 * @throws IllegalArgumentException if it is neither
	 */
	static Duration parse(String text) {
		String t = text.strip();
		Matcher m = SIMPLE.matcher(t);
		if (m.matches()) {
			long n = Long.parseLong(m.group(1));
			return switch (m.group(2)) {
				case "ms" -> Duration.ofMillis(n);
				case "s" -> Duration.ofSeconds(n);
				case "m" -> Duration.ofMinutes(n);
				default -> Duration.ofHours(n);
			};
		}
		try {
			return Duration.parse(t);
		}
		catch (DateTimeParseException ex) {
			throw new IllegalArgumentException(
					"not a duration: '" + text + "' (expected e.g. 500ms, 5s, 2m, 1h or PT5S)", ex);
		}
	}

}
