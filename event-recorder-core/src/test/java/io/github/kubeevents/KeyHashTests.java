package io.github.kubeevents;

import java.lang.reflect.Field;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

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

	@Test
	void eachHalfIsThePolynomialOfTheDigitsAtItsSecretPointModuloTwoToThe61MinusOneThenMixed() throws Exception {
		// the construction the Javadoc states, computed independently (BigInteger, the digits cut one run at a time)
		long r1 = secretPoint("R1");
		long r2 = secretPoint("R2");
		List<String> texts = new ArrayList<>(List.of("", "a", "kubelet", "kubelet.", "kubeletnode1PodshopBackOff",
				"\u00ff", "\u0100", "\u00ff\u0100\u00ff", "ab\u4e2d\u6587\u5b57\u7b26cd", "\uffff\uffff\uffff\uffff",
				"abcdef\u0100", "abcdefg\u0100", "\u0100abcdefgh", "\0\0\0\0\0\0\0\0"));
		Random random = new Random(61);
		for (int n = 0; n < 500; n++) {
			texts.add(randomText(random, random.nextInt(40)));
		}
		for (String text : texts) {
			List<Long> digits = digits(text);
			KeyHash hash = KeyHash.of(text);
			String what = text.chars().boxed().toList().toString();
			assertThat(hash.high()).as("first half of %s", what).isEqualTo(fmix64(polynomial(digits, r1)));
			assertThat(hash.low()).as("second half of %s", what).isEqualTo(fmix64(polynomial(digits, r2)));
		}
	}

	@Test
	void aStaleLongerKeyInTheBuilderDoesNotLeakIntoTheNextOne() {
		KeyHash.Builder builder = new KeyHash.Builder();
		for (String text : List.of("abcdefghijklmnopq", "ab", "\u0100\u0101\u0102\u0103\u0104", "\u0100", "abcdefgh", "a")) {
			assertThat(builder.reset().add(text).build()).as(text).isEqualTo(KeyHash.of(text));
		}
	}

	@Test
	void hashCodesSpreadOverTheKeys() {
		Set<Integer> hashCodes = new HashSet<>();
		for (int i = 0; i < 1000; i++) {
			KeyHash hash = KeyHash.of("kubeletnode1Podshopweb-" + i);
			hashCodes.add(hash.hashCode());
			assertThat(hash.hashCode()).isEqualTo((int) hash.high());
		}
		assertThat(hashCodes).hasSizeGreaterThan(990);
	}

	@Test
	void toStringIsBothHalvesInHex() {
		assertThat(new KeyHash(0x1L, 0xabcL)).hasToString("0000000000000001" + "0000000000000abc");
		assertThat(new KeyHash(-1L, 0L)).hasToString("ffffffffffffffff" + "0000000000000000");
	}

	private static long secretPoint(String name) throws ReflectiveOperationException {
		Field field = KeyHash.class.getDeclaredField(name);
		field.setAccessible(true);
		return field.getLong(null);
	}

	/** Runs of up to seven Latin-1 characters or up to three others, each with its kind and length above it. */
	private static List<Long> digits(String text) {
		List<Long> digits = new ArrayList<>();
		int i = 0;
		while (i < text.length()) {
			boolean wide = text.charAt(i) >= 256;
			BigInteger run = BigInteger.ZERO;
			int length = 0;
			while (i < text.length() && length < (wide ? 3 : 7) && (text.charAt(i) >= 256) == wide) {
				run = run.multiply(BigInteger.valueOf(wide ? 65536 : 256)).add(BigInteger.valueOf(text.charAt(i)));
				i++;
				length++;
			}
			BigInteger kind = wide ? BigInteger.ZERO : BigInteger.TWO.pow(59);
			digits.add(kind.add(BigInteger.valueOf(length).multiply(BigInteger.TWO.pow(56))).add(run).longValueExact());
		}
		return digits;
	}

	/** m1 r^(n-1) + ... + mn modulo 2^61 - 1. */
	private static long polynomial(List<Long> digits, long point) {
		BigInteger p = BigInteger.TWO.pow(61).subtract(BigInteger.ONE);
		BigInteger r = BigInteger.valueOf(point);
		BigInteger value = BigInteger.ZERO;
		for (long digit : digits) {
			value = value.multiply(r).add(BigInteger.valueOf(digit)).mod(p);
		}
		return value.longValueExact();
	}

	/** MurmurHash3's 64-bit finaliser, as published. */
	private static long fmix64(long k) {
		k ^= k >>> 33;
		k *= 0xff51afd7ed558ccdL;
		k ^= k >>> 33;
		k *= 0xc4ceb9fe1a85ec53L;
		k ^= k >>> 33;
		return k;
	}

	private static String randomText(Random random, int length) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < length; i++) {
			int kind = random.nextInt(10);
			text.append((kind == 0) ? (char) random.nextInt(0x10000)
					: (kind == 1) ? (char) (255 + random.nextInt(2)) : (char) ('a' + random.nextInt(3)));
		}
		return text.toString();
	}

}
