package io.github.kubeevents;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A 128-bit hash of a correlator key: the character sequence client-go concatenates (for example
 * {@link EventKeys#spamKey source, object and type}), fed field by field into a {@link Builder} without building
 * the string. The three correlator caches keep this fixed-size value instead of the string, and their entries
 * extend it, so an entry is its own key. Two keys hash equal exactly when their character sequences are equal, up
 * to the collision probability below; so a key function that returns a string and the fields fed one by one give
 * the same hash for the same characters.
 *
 * <h2>Construction</h2>
 * The sequence of UTF-16 code units is cut into runs, each turned into one digit below {@code 2^60}: up to seven
 * Latin-1 characters (8 bits each), or up to three others (16 bits each), plus the kind of run and its number of
 * characters, so a digit is never zero and the digits spell the sequence back (a key of ASCII characters takes one
 * digit per seven). Each half of the hash is the polynomial {@code m1 r^(n-1) + m2 r^(n-2) + ... + mn} of the
 * digits {@code m1 .. mn} modulo the Mersenne prime {@code p = 2^61 - 1}, evaluated at a secret point: {@code r1}
 * and {@code r2}, drawn uniformly from {@code [1, p)} by {@link SecureRandom} once per JVM. (It is evaluated by
 * Horner's rule at {@code r^2} on the odd and on the even digits, one multiplication per digit in four independent
 * chains, and the two parts combined at the end: the same polynomial.) Each half then goes through a fixed
 * bijection of 64-bit values (MurmurHash3's finaliser), so the cache's bucket order does not expose the
 * polynomial.
 *
 * <h2>Collisions</h2>
 * Two different sequences give different digit sequences (the digits spell them back). If they have the same
 * number of digits, some coefficient differs; if not, the longer one's leading digit is not zero: either way the
 * difference of the two polynomials is not the zero polynomial, and its degree is below {@code d}, the larger number
 * of digits (at most the number of characters {@code L}, and {@code L / 7} for ASCII). It has fewer than {@code d}
 * roots, so for one secret point the halves collide with probability below {@code d / (p - 1)}, and for the two
 * independent points the 128-bit hashes collide with probability below {@code (d / (p - 1))^2}. This holds for any
 * two sequences, including ones an attacker chose (object names, messages), because the points are secret and no
 * hash leaves the process. For keys up to 4,096 characters (real keys have 50 to 200, plus the message) that is
 * below {@code 2^-98} per pair, below {@code 2^-103} for ASCII; even for keys of a million characters it is below
 * {@code 2^-82}.
 *
 * <p>What matters is the birthday bound over what the caches hold: one event's lookups (aggregator, observer,
 * spam filter, and {@code updateState} after the write) compare its keys with at most {@code 4 * N} entries, with
 * {@code N = 4096} entries per cache by default, and its message hash with the at most
 * {@code aggregateMaxEvents - 1} in its aggregate record: about {@code 2^14} pairs, so a decision differs from
 * client-go's with probability below {@code 2^14 * 2^-98 = 2^-84} per event, {@code 2^-44} over {@code 2^40}
 * events (a thousand events a second for 35 years) and {@code 2^-34} over {@code 2^50} (a million a second).
 *
 * <p>Immutable and thread-safe; {@link Builder} is not thread-safe.
 */
class KeyHash {

	private static final long P = (1L << 61) - 1;

	private static final long R1;

	private static final long R2;

	static {
		SecureRandom random = new SecureRandom();
		R1 = secretPoint(random);
		R2 = secretPoint(random);
	}

	private final long high;

	private final long low;

	/** Uniform in {@code [1, p)}: 61 random bits, drawn again when out of range. */
	private static long secretPoint(SecureRandom random) {
		long point;
		do {
			point = random.nextLong() >>> 3;
		}
		while (point == 0 || point >= P);
		return point;
	}

	KeyHash(long high, long low) {
		this.high = high;
		this.low = low;
	}

	/** An entry's key part: the same hash as {@code key}. */
	KeyHash(KeyHash key) {
		this(key.high, key.low);
	}

	/**
	 * The hash of a whole key string.
	 * @param key the key, as a key function returned it
	 * @return its hash
	 * @throws NullPointerException when {@code key} is {@code null} (as a cache lookup with it would)
	 */
	static KeyHash of(String key) {
		return of(key, new Builder());
	}

	/** {@link #of(String)} with a builder to reuse, which is reset first. */
	static KeyHash of(String key, Builder scratch) {
		return scratch.reset().add(Objects.requireNonNull(key, "key")).build();
	}

	final long high() {
		return this.high;
	}

	final long low() {
		return this.low;
	}

	/** Whether this hash has the given halves. */
	final boolean is(long high, long low) {
		return this.high == high && this.low == low;
	}

	/** Equal to any {@link KeyHash} (or entry) with the same 128 bits. */
	@Override
	public final boolean equals(@Nullable Object other) {
		return (other instanceof KeyHash key) && key.high == this.high && key.low == this.low;
	}

	@Override
	public final int hashCode() {
		return (int) this.high;
	}

	@Override
	public String toString() {
		return String.format("%016x%016x", this.high, this.low);
	}

	/**
	 * Feeds a key's characters, part by part, as if they were concatenated: {@code add("ab").add("c")} and
	 * {@code add("a").add("bc")} give the same hash as {@code add("abc")}. The characters are copied into a buffer
	 * the builder keeps (no string is built) and hashed in one pass by {@link #build()}; {@link #reset()} makes
	 * the builder ready for the next key, so a cache can hash every key with one builder and allocate nothing.
	 * Not thread-safe.
	 */
	static final class Builder implements EventKeys.KeyParts {

		private static final int INITIAL_CAPACITY = 128;

		/** A buffer that grew beyond this for a long key is dropped on reset, so a builder stays small. */
		private static final int KEPT_CAPACITY = 4096;

		private char[] chars = new char[INITIAL_CAPACITY];

		private int length;

		/** Reused by {@link #build()} and {@link #buildWith}, so hashing allocates only the hashes. */
		private final Polynomials first = new Polynomials();

		private final Polynomials second = new Polynomials();

		/** Appends a part; {@code null} counts as empty, as in client-go's key functions (a Go string is never nil). */
		@Override
		public Builder add(@Nullable String part) {
			if (part != null) {
				int n = part.length();
				if (this.length + n > this.chars.length) {
					this.chars = Arrays.copyOf(this.chars, Math.max(this.chars.length * 2, this.length + n));
				}
				part.getChars(0, n, this.chars, this.length);
				this.length += n;
			}
			return this;
		}

		/** Forgets what was added; returns this builder. */
		Builder reset() {
			this.length = 0;
			if (this.chars.length > KEPT_CAPACITY) {
				this.chars = new char[INITIAL_CAPACITY];
			}
			return this;
		}

		/** The hash of everything added since the builder was made or {@link #reset()}. */
		KeyHash build() {
			this.first.reset();
			this.first.feed(this.chars, this.length, this.length);
			return this.first.hash();
		}

		/**
		 * The hashes of this builder's key and {@code other}'s, equal to two {@link #build()}s, with the
		 * characters both keys start with hashed once: an event's full key and its aggregate key share source,
		 * object, and (without a fieldPath) uid, apiVersion, type and reason.
		 * @return this builder's hash and the other's
		 */
		Pair buildWith(Builder other) {
			int common = Arrays.mismatch(this.chars, 0, this.length, other.chars, 0, other.length);
			if (common < 0) {
				common = this.length;
			}
			// a digit starting 7 or more characters before the first difference is the same in both keys
			this.first.reset();
			this.first.feed(this.chars, this.length, common - 6);
			this.second.copy(this.first);
			this.first.feed(this.chars, this.length, this.length);
			this.second.feed(other.chars, other.length, other.length);
			return new Pair(this.first.hash(), this.second.hash());
		}

	}

	/** The two hashes of {@link Builder#buildWith}. */
	record Pair(KeyHash first, KeyHash second) {
	}

	/** The two halves' polynomials, fed digit by digit: Horner's rule at r^2 on the odd and the even digits. */
	private static final class Polynomials {

		/** Marks a digit of Latin-1 characters (8 bits each); a digit of other characters has 16 bits each. */
		private static final long LATIN_1 = 1L << 59;

		private static final long S1 = canonical(multiplyAdd(R1, R1, 0));

		private static final long S2 = canonical(multiplyAdd(R2, R2, 0));

		/** The 1st, 3rd, ... digits; four independent multiplication chains. */
		private long odd1;

		private long odd2;

		private long even1;

		private long even2;

		private boolean nextIsOdd = true;

		/** Where the next digit starts. */
		private int position;

		void reset() {
			this.odd1 = 0;
			this.odd2 = 0;
			this.even1 = 0;
			this.even2 = 0;
			this.nextIsOdd = true;
			this.position = 0;
		}

		void copy(Polynomials other) {
			this.odd1 = other.odd1;
			this.odd2 = other.odd2;
			this.even1 = other.even1;
			this.even2 = other.even2;
			this.nextIsOdd = other.nextIsOdd;
			this.position = other.position;
		}

		/**
		 * Feeds the digits of {@code chars[0, length)} that start from {@link #position} on and before
		 * {@code stop}.
		 */
		void feed(char[] chars, int length, int stop) {
			long odd1 = this.odd1;
			long odd2 = this.odd2;
			long even1 = this.even1;
			long even2 = this.even2;
			boolean nextIsOdd = this.nextIsOdd;
			int i = this.position;
			int end = Math.min(length, stop);
			while (i < end) {
				long digit;
				if (i + 7 <= length && (chars[i] | chars[i + 1] | chars[i + 2] | chars[i + 3] | chars[i + 4]
						| chars[i + 5] | chars[i + 6]) < 256) {
					// seven Latin-1 characters, as the run below would take them
					digit = LATIN_1 | (7L << 56) | ((long) chars[i] << 48) | ((long) chars[i + 1] << 40)
							| ((long) chars[i + 2] << 32) | ((long) chars[i + 3] << 24) | ((long) chars[i + 4] << 16)
							| ((long) chars[i + 5] << 8) | chars[i + 6];
					i += 7;
				}
				else {
					// the longest run of one kind from here: up to 7 Latin-1 characters or up to 3 others
					boolean wide = chars[i] >= 256;
					int shift = wide ? 16 : 8;
					int max = wide ? 3 : 7;
					long run = 0;
					int runLength = 0;
					while (i < length && runLength < max && (chars[i] >= 256) == wide) {
						run = (run << shift) | chars[i++];
						runLength++;
					}
					digit = (wide ? 0 : LATIN_1) | ((long) runLength << 56) | run;
				}
				if (nextIsOdd) {
					odd1 = multiplyAdd(odd1, S1, digit);
					odd2 = multiplyAdd(odd2, S2, digit);
				}
				else {
					even1 = multiplyAdd(even1, S1, digit);
					even2 = multiplyAdd(even2, S2, digit);
				}
				nextIsOdd = !nextIsOdd;
			}
			this.odd1 = odd1;
			this.odd2 = odd2;
			this.even1 = even1;
			this.even2 = even2;
			this.nextIsOdd = nextIsOdd;
			this.position = i;
		}

		/** The hash of the digits fed. */
		KeyHash hash() {
			// with an even number of digits the odd part's last digit needs one more factor r, else the even part's
			boolean evenCount = this.nextIsOdd;
			long h1 = evenCount ? multiplyAdd(this.odd1, R1, canonical(this.even1))
					: multiplyAdd(this.even1, R1, canonical(this.odd1));
			long h2 = evenCount ? multiplyAdd(this.odd2, R2, canonical(this.even2))
					: multiplyAdd(this.even2, R2, canonical(this.odd2));
			return new KeyHash(mix(canonical(h1)), mix(canonical(h2)));
		}

	}

	/**
	 * {@code h * r + digit} modulo {@code p}, not fully reduced: for {@code h < 2^62}, {@code r < 2^61} and
	 * {@code digit < 2^61} the result is below {@code 2^61 + 4}, congruent to the exact value.
	 */
	private static long multiplyAdd(long h, long r, long digit) {
		long productLow = h * r;
		long productHigh = Math.multiplyHigh(h, r);
		// 2^61 = 1 (mod p): fold the bits above 61 onto the bits below
		long sum = (productLow & P) + ((productLow >>> 61) | (productHigh << 3)) + digit;
		return (sum & P) + (sum >>> 61);
	}

	/** The value in {@code [0, p)} of a not fully reduced {@code h < 2^62}. */
	private static long canonical(long h) {
		long reduced = (h & P) + (h >>> 61);
		return (reduced >= P) ? reduced - P : reduced;
	}

	/** MurmurHash3's fmix64: a bijection, so it changes no collision. */
	private static long mix(long h) {
		h ^= h >>> 33;
		h *= 0xff51afd7ed558ccdL;
		h ^= h >>> 33;
		h *= 0xc4ceb9fe1a85ec53L;
		h ^= h >>> 33;
		return h;
	}

}
