package io.github.kubeevents;

import java.time.Instant;
import java.util.UUID;

/**
 * Event names, as client-go generates them ({@code util.GenerateEventName}).
 *
 * <p>Stateless and thread-safe.
 */
final class EventNames {

	/** The longest valid DNS-1123 subdomain. */
	static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

	private EventNames() {
	}

	/**
	 * {@code <refName>.<lowercase hex of the Unix time in nanoseconds>}, e.g. {@code test-pod.178959f726d80ec};
	 * when that is not a valid DNS-1123 subdomain (uppercase letters, {@code :}, longer than 253 characters, ...)
	 * a random UUID instead (client-go since 1.33).
	 * @param refName the regarding object's name
	 * @param time the event time
	 * @return a valid event name
	 */
	static String generate(String refName, Instant time) {
		// the ".<hex>" suffix is always valid, so only the prefix needs checking
		if (refName.length() + 17 <= DNS1123_SUBDOMAIN_MAX_LENGTH && isDns1123Subdomain(refName)) {
			return refName + "." + Long.toHexString(unixNanos(time));
		}
		String name = refName + "." + Long.toHexString(unixNanos(time));
		return isDns1123Subdomain(name) ? name : UUID.randomUUID().toString();
	}

	/**
	 * Nanoseconds since the Unix epoch.
	 * @param time the instant
	 * @return {@code time} in Unix nanoseconds
	 */
	static long unixNanos(Instant time) {
		return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000_000L), time.getNano());
	}

	/**
	 * Whether {@code value} is a DNS-1123 subdomain: at most 253 characters, dot-separated labels of lowercase
	 * alphanumerics and {@code -}, each starting and ending with an alphanumeric.
	 * @param value the value, may be {@code null}
	 * @return {@code true} when valid
	 */
	static boolean isDns1123Subdomain(String value) {
		if (value == null || value.isEmpty() || value.length() > DNS1123_SUBDOMAIN_MAX_LENGTH) {
			return false;
		}
		char previous = '.';
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
			if (!alphanumeric) {
				if (c != '-' && c != '.') {
					return false;
				}
				// a label starts with an alphanumeric; a dot must follow an alphanumeric
				if (previous == '.' || (c == '.' && previous == '-')) {
					return false;
				}
			}
			previous = c;
		}
		return previous != '-' && previous != '.';
	}

}
