package io.github.kubeevents;

import java.security.SecureRandom;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A 128-bit hash of a correlator key: the character sequence client-go concatenates (for example
 * {@link EventKeys#spamKey source, object and type}), fed field by field without building the
 * string. The three correlator caches keep this fixed-size value instead of the string, and their entries extend
 * it, so an entry is its own key. Two keys hash equal exactly when their character sequences are equal, up to
 * the collision probability below; so a key function that returns a string and the fields fed to a
 * {@link Builder} give the same hash for the same characters.
 *
 * <h2>Construction</h2>
 * The UTF-16 code units of the sequence are packed, three per digit, into 48-bit digits {@code m1 .. mn} (the last
 * one possibly holding one or two), and the number of code units {@code L} is appended as the last digit. Each
 * half of the hash is the polynomial {@code m1 r^n + m2 r^(n-1) + ... + mn r + L} modulo the Mersenne prime
 * {@code p = 2^61 - 1} (Horner's rule, one multiplication per digit), evaluated at a secret point {@code r1} and
 * {@code r2} respectively, drawn uniformly from {@code [1, p)} by {@link SecureRandom} once per JVM; each half then
 * goes through a fixed bijection of 64-bit values (MurmurHash3's finaliser) so that the cache's bucket order does
 * not expose the polynomial.
 *
 * <h2>Collisions</h2>
 * For two different sequences the digit sequences differ (the packing is injective for a given length, and
 * different lengths differ in the last digit), so the difference of the two polynomials is a non-zero polynomial of
 * degree at most {@code d = ceil(L / 3)}, where {@code L} is the longer sequence's length; it has at most {@code d}
 * roots, so for one secret point the halves collide with probability at most {@code d / (p - 1)}, and for the two
 * independent points the 128-bit hashes collide with probability at most {@code (d / (p - 1))^2}. This holds for
 * any two sequences, including ones an attacker chose (object names, messages), because the points are secret and
 * no hash leaves the process. For keys up to 3,072 characters ({@code d <= 1024}; real keys have 50 to 200, plus
 * the message) that is at most {@code 2^-102} per pair; even for keys of a million characters it is below
 * {@code 2^-85}.
 *
 * <p>What matters is the birthday bound over what the caches hold: one event's lookups (aggregator, observer,
 * spam filter, and {@code updateState} after the write) compare its keys with at most {@code 4 * N} entries, with
 * {@code N = 4096} entries per cache by default, and its message hash with the at most
 * {@code aggregateMaxEvents - 1} in its aggregate record: about {@code 2^14} pairs, so a decision differs from
 * client-go's with probability at most {@code 2^14 * 2^-102 = 2^-88} per event, {@code 2^-48} over {@code 2^40}
 * events (a thousand events a second for 35 years) and {@code 2^-38} over {@code 2^50} (a million a second).
 *
 * <p>Immutable and thread-safe; {@link Builder} is not thread-safe.
 */
class KeyHash {

	private static final long P = (1L << 61) - 1;

	private static final long R1;

	private static final long R2;

	static {
		SecureRandom random = new SecureRandom();
		R1 = 1 + Math.floorMod(random.nextLong(), P - 1);
		R2 = 1 + Math.floorMod(random.nextLong(), P - 1);
	}

	private final long high;

	private final long low;

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
		return new Builder().add(Objects.requireNonNull(key, "key")).build();
	}

	final long high() {
		return this.high;
	}

	final long low() {
		return this.low;
	}

	/**
	 * Whether this hash has the given halves.
	 * @param high the first half
	 * @param low the second half
	 * @return {@code true} when both are equal
	 */
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
	 * {@code add("a").add("bc")} give the same hash as {@code add("abc")}. Single use; not thread-safe.
	 */
	static final class Builder implements EventKeys.KeyParts {

		private long h1;

		private long h2;

		/** Up to two code units not yet in a digit. */
		private long pending;

		private int pendingCount;

		private long length;

		/**
		 * Appends a part; {@code null} counts as empty, as in client-go's key functions (a Go string is never nil).
		 * @param part the part
		 * @return this builder
		 */
		@Override
		public Builder add(@Nullable String part) {
			if (part == null) {
				return this;
			}
			int n = part.length();
			int i = 0;
			long digit = this.pending;
			int count = this.pendingCount;
			while (count != 0 && count < 3 && i < n) {
				digit = (digit << 16) | part.charAt(i++);
				count++;
			}
			if (count == 3) {
				absorb(digit);
				digit = 0;
				count = 0;
			}
			if (count == 0) {
				for (; i + 3 <= n; i += 3) {
					absorb(((long) part.charAt(i) << 32) | ((long) part.charAt(i + 1) << 16) | part.charAt(i + 2));
				}
				for (; i < n; i++) {
					digit = (digit << 16) | part.charAt(i);
					count++;
				}
			}
			this.pending = digit;
			this.pendingCount = count;
			this.length += n;
			return this;
		}

		/**
		 * The hash of everything added.
		 * @return the hash
		 */
		KeyHash build() {
			if (this.pendingCount != 0) {
				absorb(this.pending);
			}
			absorb(this.length);
			return new KeyHash(mix(canonical(this.h1)), mix(canonical(this.h2)));
		}

		private void absorb(long digit) {
			this.h1 = multiplyAdd(this.h1, R1, digit);
			this.h2 = multiplyAdd(this.h2, R2, digit);
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

}
