package io.github.kubeevents;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.UUID;

/**
 * Event names: as client-go generates them ({@code util.GenerateEventName}), and the deterministic names of the
 * opt-in mode that keeps one Event per occurrence stream across restarts and replicas ({@link #forStream}).
 *
 * <p>Stateless and thread-safe.
 */
final class EventNames {

	/** The longest valid DNS-1123 subdomain. */
	static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

	/** Hex digits of the hash that ends a deterministic name: 128 bits. */
	static final int STREAM_HASH_HEX_DIGITS = 32;

	/** The longest object-name prefix of a deterministic name: 253 minus the dot and the hash. */
	static final int STREAM_PREFIX_MAX_LENGTH = DNS1123_SUBDOMAIN_MAX_LENGTH - 1 - STREAM_HASH_HEX_DIGITS;

	private EventNames() {
	}

	/**
	 * A deterministic Event name: {@code <prefix>.<32 hex digits>}, where the prefix is the object's name made a
	 * DNS-1123 subdomain (lowercased, other characters {@code -}, empty labels and edge dashes removed, cut to
	 * {@value #STREAM_PREFIX_MAX_LENGTH} characters; {@code event} when nothing is left) and the hex digits are the
	 * first 128 bits of the SHA-256 of every identity value, each written with its length so that no two lists of
	 * values write the same bytes. Always a valid DNS-1123 subdomain of at most 253 characters.
	 *
	 * <p>Collisions: two different identities get the same name only when their 128-bit hashes agree; among
	 * {@code n} streams in one namespace that happens with probability at most {@code n²/2^129} (below 10^-19 for a
	 * billion streams). The prefix only makes names readable; it adds no uniqueness.
	 * @param objectName the involved (regarding) object's name, for the readable prefix
	 * @param identity what identifies the stream (object, reason, type, ...); {@code null}s are allowed and differ
	 * from empty strings
	 * @return the name, the same in every process for the same values
	 */
	static String forStream(String objectName, String... identity) {
		return streamPrefix(objectName) + "." + streamHash(identity);
	}

	/** The readable prefix of {@link #forStream}: a DNS-1123 subdomain of at most the prefix length. */
	static String streamPrefix(String objectName) {
		StringBuilder out = new StringBuilder(Math.min(objectName.length(), STREAM_PREFIX_MAX_LENGTH));
		StringBuilder label = new StringBuilder();
		for (int i = 0; i <= objectName.length(); i++) {
			char c = (i < objectName.length()) ? objectName.charAt(i) : '.';
			if (c == '.') {
				appendLabel(out, label);
				label.setLength(0);
				continue;
			}
			if (c >= 'A' && c <= 'Z') {
				c = (char) (c + ('a' - 'A'));
			}
			boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
			label.append(alphanumeric ? c : '-');
		}
		// cut at the limit, then drop what a cut may leave at the end (a dash or a dot)
		if (out.length() > STREAM_PREFIX_MAX_LENGTH) {
			out.setLength(STREAM_PREFIX_MAX_LENGTH);
		}
		int end = out.length();
		while (end > 0 && (out.charAt(end - 1) == '-' || out.charAt(end - 1) == '.')) {
			end--;
		}
		out.setLength(end);
		return (out.length() == 0) ? "event" : out.toString();
	}

	private static void appendLabel(StringBuilder out, StringBuilder label) {
		int start = 0;
		int end = label.length();
		while (start < end && label.charAt(start) == '-') {
			start++;
		}
		while (end > start && label.charAt(end - 1) == '-') {
			end--;
		}
		if (start == end || out.length() > STREAM_PREFIX_MAX_LENGTH) {
			return;
		}
		if (out.length() > 0) {
			out.append('.');
		}
		out.append(label, start, end);
	}

	/** The first 128 bits of the SHA-256 of the length-prefixed values, as 32 lowercase hex digits. */
	static String streamHash(String... identity) {
		MessageDigest digest;
		try {
			digest = MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required of every Java platform", ex);
		}
		for (String value : identity) {
			if (value == null) {
				digest.update((byte) 0);
				continue;
			}
			byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
			digest.update((byte) 1);
			digest.update(new byte[] { (byte) (bytes.length >>> 24), (byte) (bytes.length >>> 16),
					(byte) (bytes.length >>> 8), (byte) bytes.length });
			digest.update(bytes);
		}
		byte[] hash = digest.digest();
		StringBuilder hex = new StringBuilder(STREAM_HASH_HEX_DIGITS);
		for (int i = 0; i < STREAM_HASH_HEX_DIGITS / 2; i++) {
			hex.append(Character.forDigit((hash[i] >>> 4) & 0xf, 16)).append(Character.forDigit(hash[i] & 0xf, 16));
		}
		return hex.toString();
	}

	/** The client-go name of {@code event}'s Event ({@link #generate(String, Instant)}). */
	static String generate(RecordedEvent event) {
		return generate(event.regarding().name(), event.timestamp());
	}

	/**
	 * {@code <refName>.<lowercase hex of the Unix time in nanoseconds>}, e.g. {@code test-pod.178959f726d80ec};
	 * when that is not a valid DNS-1123 subdomain (uppercase letters, {@code :}, longer than 253 characters, ...)
	 * a UUID instead (client-go since 1.33). Differs from client-go deliberately: its UUID is random, this one is
	 * derived from that name (a name-based UUID), so every attempt of a write sends the same name and a CREATE whose
	 * answer was lost is found again (an AlreadyExists), not written twice.
	 * @param refName the regarding object's name
	 */
	static String generate(String refName, Instant time) {
		// the ".<hex>" suffix is always valid, so only the prefix needs checking
		if (refName.length() + 17 <= DNS1123_SUBDOMAIN_MAX_LENGTH && isDns1123Subdomain(refName)) {
			return refName + "." + Long.toHexString(unixNanos(time));
		}
		String name = refName + "." + Long.toHexString(unixNanos(time));
		return isDns1123Subdomain(name) ? name : UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
	}

	/** {@code time} in nanoseconds since the Unix epoch. */
	static long unixNanos(Instant time) {
		return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000_000L), time.getNano());
	}

	/**
	 * Whether {@code value} is a DNS-1123 subdomain: at most 253 characters, dot-separated labels of lowercase
	 * alphanumerics and {@code -}, each starting and ending with an alphanumeric ({@code null} is not).
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
