package io.github.kubeevents;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

class KeyHashTests {

	@Test
	void hashIsTheHashOfTheConcatenationWhereverThePartsSplitIt() {
		Random random = new Random(14);
		for (int n = 0; n < 200; n++) {
			String text = randomText(random, random.nextInt(13));
			KeyHash whole = KeyHash.of(text);
			for (int i = 0; i <= text.length(); i++) {
				for (int j = i; j <= text.length(); j++) {
					KeyHash parts = new KeyHash.Builder().add(text.substring(0, i))
						.add(text.substring(i, j))
						.add(null)
						.add(text.substring(j))
						.build();
					assertThat(parts).as("'%s' split at %d and %d", text, i, j).isEqualTo(whole);
				}
			}
		}
	}

	@Test
	void runsOfSevenLatin1CharactersAndOfThreeOthersHashLikeAnyOtherSplit() {
		String text = "kubelet" + "kublet.node1" + "Pod" + "\u00e4\u00f6" + "\u4e2d\u6587\u5b57\u7b26" + "x\u0100y";
		KeyHash whole = KeyHash.of(text);
		KeyHash.Builder byChar = new KeyHash.Builder();
		for (int i = 0; i < text.length(); i++) {
			byChar.add(String.valueOf(text.charAt(i)));
		}
		assertThat(byChar.build()).isEqualTo(whole);
		assertThat(KeyHash.of(text + "\0")).isNotEqualTo(whole);
		assertThat(KeyHash.of("\0" + text)).isNotEqualTo(whole);
	}

	@Test
	void aResetBuilderHashesTheNextKeyAlone() {
		KeyHash.Builder builder = new KeyHash.Builder();
		builder.add("x".repeat(10_000)).build();
		assertThat(builder.reset().add("ab").add("c").build()).isEqualTo(KeyHash.of("abc"));
		assertThat(KeyHash.of("abc", builder)).isEqualTo(KeyHash.of("abc"));
	}

	@Test
	void twoKeysHashedTogetherHashAsEachAlone() {
		Random random = new Random(8);
		KeyHash.Builder first = new KeyHash.Builder();
		KeyHash.Builder second = new KeyHash.Builder();
		for (int n = 0; n < 2000; n++) {
			String prefix = randomText(random, random.nextInt(30));
			String a = prefix + randomText(random, random.nextInt(12));
			String b = (random.nextInt(10) == 0) ? a : prefix + randomText(random, random.nextInt(12));
			KeyHash.Pair both = first.reset().add(a).buildWith(second.reset().add(b));
			assertThat(both.first()).as("'%s' with '%s'", a, b).isEqualTo(KeyHash.of(a));
			assertThat(both.second()).as("'%s' with '%s'", b, a).isEqualTo(KeyHash.of(b));
		}
	}

	@Test
	void nullPartsCountAsEmpty() {
		assertThat(new KeyHash.Builder().add(null).add("ab").add(null).build()).isEqualTo(KeyHash.of("ab"));
		assertThat(new KeyHash.Builder().build()).isEqualTo(KeyHash.of(""));
	}

	@Test
	void everyShortStringHasItsOwnHash() {
		// all strings of up to 4 characters over an alphabet with the characters a packing could confuse: zero, the
		// largest Latin-1 and the next character (where runs switch kind), the largest char and a surrogate half
		char[] alphabet = { '\0', 'a', '\u00ff', '\u0100', '\uffff', '\ud83d' };
		Map<KeyHash, String> seen = new HashMap<>();
		List<String> strings = new ArrayList<>();
		strings.add("");
		for (int length = 1, from = 0; length <= 4; length++) {
			int to = strings.size();
			for (int i = from; i < to; i++) {
				for (char c : alphabet) {
					strings.add(strings.get(i) + c);
				}
			}
			from = to;
		}
		for (String text : strings) {
			String previous = seen.put(KeyHash.of(text), text);
			assertThat(previous).as("hash of %s", text.chars().boxed().toList()).isNull();
		}
		assertThat(seen).hasSize(1 + 6 + 36 + 216 + 1296);
	}

	@Test
	void anEntryEqualsTheKeyItWasMadeFrom() {
		KeyHash key = KeyHash.of("kubeletnode1Podmy-nsmy-pod");
		KeyHash entry = new KeyHash(key) {
		};
		assertThat(entry).isEqualTo(key);
		assertThat(key).isEqualTo(entry);
		assertThat(entry).hasSameHashCodeAs(key);
		assertThat(key.is(entry.high(), entry.low())).isTrue();
		assertThat(KeyHash.of("kubeletnode1Podmy-nsmy-pod2")).isNotEqualTo(entry);
	}

	@Test
	void nullKeyIsRejectedLikeACacheLookupWithIt() {
		assertThatNullPointerException().isThrownBy(() -> KeyHash.of(null));
	}

	private static String randomText(Random random, int length) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < length; i++) {
			int kind = random.nextInt(8);
			text.append((kind == 0) ? (char) random.nextInt(0x10000) : (char) ('a' + random.nextInt(3)));
		}
		return text.toString();
	}

}
