package io.github.kubeevents;

import org.jspecify.annotations.Nullable;

/**
 * Text of an Event as it goes on the wire, in UTF-8, so that the API server's byte limits are checked on what it
 * stores. A Java string may hold an unpaired surrogate, which UTF-8 cannot encode, and each client sends it
 * differently: client-java's Gson leaves it in the JSON text, and its encoding to UTF-8 (by OkHttp, Vert.x or the
 * JDK's HttpClient) sends {@code ?}, one byte; Jackson writes an escape ({@code \u005CuD800}), which the API server
 * decodes as U+FFFD, three bytes. The recorder therefore replaces every unpaired surrogate with U+FFFD once, when
 * the event is recorded ({@link #wellFormed}), so every client sends the same valid UTF-8, the server stores it
 * unchanged, and {@link #utf8Length} counts it exactly.
 *
 * <p>Stateless and thread-safe.
 */
final class WireText {

	/** What an unpaired surrogate is replaced with (U+FFFD REPLACEMENT CHARACTER, 3 UTF-8 bytes). */
	static final char REPLACEMENT = '\uFFFD';

	private WireText() {
	}

	/**
	 * {@code text} with every unpaired surrogate (a high one not followed by a low one, a low one not preceded by a
	 * high one) replaced with {@link #REPLACEMENT}; {@code text} itself, without allocating, when it has none
	 * ({@code null} for {@code null}).
	 */
	static @Nullable String wellFormed(@Nullable String text) {
		if (text == null) {
			return null;
		}
		int length = text.length();
		for (int i = 0; i < length; i++) {
			char c = text.charAt(i);
			if (Character.isSurrogate(c)) {
				if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
					i++;
				}
				else {
					return replaced(text, i);
				}
			}
		}
		return text;
	}

	/** {@code text} with its unpaired surrogates replaced, the first of them at {@code first}. */
	private static String replaced(String text, int first) {
		char[] chars = text.toCharArray();
		chars[first] = REPLACEMENT;
		for (int i = first + 1; i < chars.length; i++) {
			char c = chars[i];
			if (Character.isSurrogate(c)) {
				if (Character.isHighSurrogate(c) && i + 1 < chars.length && Character.isLowSurrogate(chars[i + 1])) {
					i++;
				}
				else {
					chars[i] = REPLACEMENT;
				}
			}
		}
		return new String(chars);
	}

	/**
	 * The length of {@code text} in UTF-8 bytes as sent once {@linkplain #wellFormed well-formed}: an unpaired
	 * surrogate counts as the 3 bytes of {@link #REPLACEMENT}. Allocates nothing.
	 */
	static int utf8Length(String text) {
		int bytes = 0;
		for (int i = 0; i < text.length();) {
			int width = width(text, i);
			bytes += width;
			i += (width == 4) ? 2 : 1;
		}
		return bytes;
	}

	/**
	 * Whether {@code text} is more than {@code maxBytes} UTF-8 bytes ({@link #utf8Length}); short text is not
	 * measured (a UTF-16 char is at most 3 UTF-8 bytes).
	 */
	static boolean exceeds(String text, int maxBytes) {
		return text.length() > maxBytes / 3 && utf8Length(text) > maxBytes;
	}

	/**
	 * The longest prefix of {@code text} of at most {@code maxBytes} UTF-8 bytes ({@link #utf8Length}), cut at a
	 * character boundary (a surrogate pair, 4 bytes, is kept or left out whole); {@code text} itself when it fits.
	 */
	static String prefix(String text, int maxBytes) {
		int bytes = 0;
		int i = 0;
		while (i < text.length()) {
			int width = width(text, i);
			if (bytes + width > maxBytes) {
				return text.substring(0, i);
			}
			bytes += width;
			i += (width == 4) ? 2 : 1;
		}
		return text;
	}

	/**
	 * The UTF-8 bytes of the character at {@code i}: 4 for a surrogate pair (two chars), 3 for an unpaired
	 * surrogate (sent as U+FFFD).
	 */
	private static int width(String text, int i) {
		char c = text.charAt(i);
		if (c < 0x80) {
			return 1;
		}
		if (c < 0x800) {
			return 2;
		}
		if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
			return 4;
		}
		return 3;
	}

}
