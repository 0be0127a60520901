package io.github.kubeevents;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The escaping of caller text for one log line, as message fields (quoted) and as key-values (unquoted). */
class LogTextTests {

	@Test
	void oneLineEscapesWhatCouldEndOrDisguiseALineAndKeepsQuotesAndBackslashes() {
		assertThat(LogText.oneLine("a\nb\rc\td\u0000\u001b[31m\u007f\u0085\u009b\u2028\u2029\u202a\u202e\u2066\u2069 \" \\"))
			.isEqualTo("a\\nb\\rc\\td\\u0000\\u001b[31m\\u007f\\u0085\\u009b\\u2028\\u2029\\u202a\\u202e\\u2066"
					+ "\\u2069 \" \\");
	}

	@Test
	void cleanTextIsReturnedAsItIs() {
		// the event line escapes every key-value: text without an unsafe character costs one scan, no copy
		String clean = "default/web-1 \"quoted\" back\\slash é \u2027 \u202f";
		assertThat(LogText.oneLine(clean)).isSameAs(clean);
		assertThat(LogText.oneLineOrNull(clean)).isSameAs(clean);
	}

	@Test
	void nullIsTheWordNullInALineAndStaysNullAsAKeyValue() {
		assertThat(LogText.oneLine(null)).isEqualTo("null");
		assertThat(LogText.oneLineOrNull(null)).isNull();
	}

	@Test
	void quotedAlsoEscapesQuotesAndBackslashes() {
		assertThat(LogText.quoted("a\"b\\c\nd")).isEqualTo("\"a\\\"b\\\\c\\nd\"");
		assertThat(LogText.quoted(null)).isEqualTo("\"\"");
	}

}
