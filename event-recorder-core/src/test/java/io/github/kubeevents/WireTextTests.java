package io.github.kubeevents;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Text as the API server stores it: unpaired surrogates replaced with U+FFFD (3 bytes), and the byte counts and cuts
 * on that text.
 */
class WireTextTests {

	private static final String HIGH = "\uD800";

	private static final String LOW = "\uDC00";

	private static final String PAIR = "\uD83D\uDE00";

	private static final String FFFD = "\uFFFD";

	@Test
	void textWithoutAnUnpairedSurrogateIsReturnedItself() {
		String plain = "Back-off restarting failed container";
		String withPair = "disk full " + PAIR + " é П";
		assertThat(WireText.wellFormed(plain)).isSameAs(plain);
		assertThat(WireText.wellFormed(withPair)).isSameAs(withPair);
		assertThat(WireText.wellFormed("")).isEmpty();
		assertThat(WireText.wellFormed(null)).isNull();
	}

	@Test
	void everyUnpairedSurrogateBecomesUFFFD() {
		assertThat(WireText.wellFormed("a" + HIGH + "b")).isEqualTo("a" + FFFD + "b");
		assertThat(WireText.wellFormed("a" + LOW + "b")).isEqualTo("a" + FFFD + "b");
		assertThat(WireText.wellFormed(LOW + HIGH)).as("a reversed pair").isEqualTo(FFFD + FFFD);
		assertThat(WireText.wellFormed("x" + HIGH)).as("a high surrogate at the end").isEqualTo("x" + FFFD);
		assertThat(WireText.wellFormed(HIGH + PAIR + LOW + PAIR + HIGH + HIGH))
			.isEqualTo(FFFD + PAIR + FFFD + PAIR + FFFD + FFFD);
	}

	@Test
	void wellFormedTextIsWhatUtf8EncodesUnchanged() {
		String text = "a" + HIGH + PAIR + LOW + HIGH + "é";
		String wellFormed = WireText.wellFormed(text);
		byte[] bytes = wellFormed.getBytes(StandardCharsets.UTF_8);
		assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(wellFormed);
		assertThat(bytes).hasSize(1 + 3 + 4 + 3 + 3 + 2);
	}

	@Test
	void theLengthCountsAnUnpairedSurrogateAsTheThreeBytesOfUFFFD() {
		assertThat(WireText.utf8Length("")).isZero();
		assertThat(WireText.utf8Length("a")).isEqualTo(1);
		assertThat(WireText.utf8Length("é")).isEqualTo(2);
		assertThat(WireText.utf8Length("П€")).isEqualTo(5);
		assertThat(WireText.utf8Length(PAIR)).isEqualTo(4);
		assertThat(WireText.utf8Length(HIGH)).isEqualTo(3);
		assertThat(WireText.utf8Length(LOW + HIGH)).isEqualTo(6);
		assertThat(WireText.utf8Length(HIGH.repeat(341) + "x")).isEqualTo(1024);
		String mixed = "a" + HIGH + PAIR + LOW + "é";
		assertThat(WireText.utf8Length(mixed))
			.isEqualTo(WireText.wellFormed(mixed).getBytes(StandardCharsets.UTF_8).length)
			.isEqualTo(13);
	}

	@Test
	void exceedsMeasuresOnlyTextThatCanBeOver() {
		assertThat(WireText.exceeds(HIGH.repeat(341) + "x", 1024)).isFalse();
		assertThat(WireText.exceeds(HIGH.repeat(342), 1024)).as("1026 bytes").isTrue();
		assertThat(WireText.exceeds("x".repeat(1024), 1024)).isFalse();
		assertThat(WireText.exceeds("x".repeat(1025), 1024)).isTrue();
	}

	@Test
	void aPrefixNeverSplitsAPairAndCountsAnUnpairedSurrogateAsThreeBytes() {
		assertThat(WireText.prefix("a" + PAIR, 4)).isEqualTo("a");
		assertThat(WireText.prefix("a" + PAIR, 5)).isEqualTo("a" + PAIR);
		assertThat(WireText.prefix("a" + HIGH + "b", 3)).isEqualTo("a");
		assertThat(WireText.prefix("a" + HIGH + "b", 4)).isEqualTo("a" + HIGH);
		assertThat(WireText.prefix(LOW + HIGH, 5)).as("a reversed pair is two characters").isEqualTo(LOW);
		assertThat(WireText.prefix(HIGH + LOW, 4)).as("a pair").isEqualTo(HIGH + LOW);
		String fits = "abc";
		assertThat(WireText.prefix(fits, 3)).isSameAs(fits);
		assertThat(WireText.prefix("é", 1)).isEmpty();
	}

}
