package io.github.kubeevents;

import org.jspecify.annotations.Nullable;

/**
 * Caller-supplied text (reasons, names, namespaces, kinds, messages, patterns, and server answers that echo them)
 * made safe for one log line, so that no input can end a log record, forge another, or drive a terminal:
 * {@code \n}, {@code \r} and {@code \t} are written as such, and every other C0 control (NUL, BEL, ESC of an ANSI
 * sequence, ...), DEL, the C1 controls (U+0085 NEXT LINE included), the line and paragraph separators
 * U+2028/U+2029 and the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) as {@code \}{@code uXXXX}.
 * Text with none of them is returned as it is, without copying.
 *
 * <p>Stateless and thread-safe.
 */
final class LogText {

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private LogText() {
	}

	/** The text with its unsafe characters escaped (quotes and backslashes unchanged); {@code "null"} for null. */
	static String oneLine(@Nullable String text) {
		if (text == null) {
			return "null";
		}
		for (int i = 0; i < text.length(); i++) {
			if (unsafe(text.charAt(i), false)) {
				StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
				append(out, text, i, false);
				return out.toString();
			}
		}
		return text;
	}

	/**
	 * {@link #oneLine} for the value of an SLF4J key-value, which backends print unescaped: {@code null} stays
	 * {@code null}.
	 */
	static @Nullable String oneLineOrNull(@Nullable String text) {
		return (text != null) ? oneLine(text) : null;
	}

	/** Appends {@code "text"} to {@code out}: quoted, with quotes and backslashes escaped too ({@code ""} for null). */
	static void appendQuoted(StringBuilder out, @Nullable String text) {
		out.append('"');
		if (text != null) {
			append(out, text, 0, true);
		}
		out.append('"');
	}

	/** {@link #appendQuoted} as a string. */
	static String quoted(@Nullable String text) {
		StringBuilder out = new StringBuilder((text != null) ? text.length() + 2 : 2);
		appendQuoted(out, text);
		return out.toString();
	}

	private static boolean unsafe(char c, boolean quoting) {
		return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || (c >= '\u202a' && c <= '\u202e')
				|| (c >= '\u2066' && c <= '\u2069') || (quoting && (c == '"' || c == '\\'));
	}

	private static void append(StringBuilder out, String text, int from, boolean quoting) {
		for (int i = from; i < text.length(); i++) {
			char c = text.charAt(i);
			if (!unsafe(c, quoting)) {
				out.append(c);
				continue;
			}
			switch (c) {
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				case '\t' -> out.append("\\t");
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				default -> out.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf])
					.append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
			}
		}
	}

}
