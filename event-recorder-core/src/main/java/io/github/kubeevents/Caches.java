package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The correlator's caches: Caffeine, bounded by size. Caffeine evicts by W-TinyLFU (frequency-aware, near-LRU),
 * not as a strict LRU like client-go's {@code k8s.io/utils/lru}: which entry goes first can differ, the bound is
 * the same. Maintenance runs on the calling thread, so no executor thread is involved.
 */
final class Caches {

	private Caches() {
	}

	static <K, V> Cache<K, V> bounded(int maximumSize) {
		return Caffeine.newBuilder().maximumSize(maximumSize).executor(Runnable::run).build();
	}

	/** Bounded by size, and each entry forgotten {@code ttl} after it was written, on {@code clock}'s time. */
	static <K, V> Cache<K, V> expiring(int maximumSize, Duration ttl, Clock clock) {
		return Caffeine.newBuilder()
			.maximumSize(maximumSize)
			.expireAfterWrite(ttl)
			.ticker(() -> {
				Instant now = clock.instant();
				return now.getEpochSecond() * 1_000_000_000L + now.getNano();
			})
			.executor(Runnable::run)
			.build();
	}

}
