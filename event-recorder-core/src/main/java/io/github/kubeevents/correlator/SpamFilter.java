package io.github.kubeevents.correlator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * client-go's {@code EventSourceObjectSpamFilter}: one {@link TokenBucket} per spam key (by default source,
 * object and type), kept in a size-bounded cache. With the defaults one source may write 25 events about one
 * object and type, then one more every 300 s. When a key's entry is evicted its bucket is forgotten, and the
 * next event for that key starts with a full bucket.
 *
 * <p>Eviction is Caffeine's size-based policy (near-LRU, frequency-aware), not a strict LRU.
 *
 * <p>Thread-safe.
 */
public final class SpamFilter {

	private final CorrelatorOptions options;

	private final Cache<String, TokenBucket> buckets;

	/**
	 * A filter with empty state.
	 * @param options the burst, qps, key function, cache size, clock and on/off switch
	 */
	public SpamFilter(CorrelatorOptions options) {
		this.options = options;
		this.buckets = Caffeine.newBuilder().maximumSize(options.lruCacheSize()).executor(Runnable::run).build();
	}

	/**
	 * Whether the event must be skipped. Takes a token when one is available.
	 * @param event the (observed) event
	 * @return {@code true} to skip the event
	 */
	public boolean filter(CoreV1Event event) {
		if (!this.options.spamFilterEnabled()) {
			return false;
		}
		Instant now = this.options.clock().instant();
		String key = this.options.spamKeyFunction().apply(event);
		TokenBucket bucket = this.buckets.get(key, (k) -> new TokenBucket(this.options.burst(), this.options.qps(), now));
		return !bucket.tryAccept(now);
	}

	/**
	 * The buckets, at most {@code limit} of them.
	 * @param limit the maximum number of entries to return
	 * @return one view per bucket
	 */
	public List<CorrelatorSnapshot.SpamBucket> snapshot(int limit) {
		Instant now = this.options.clock().instant();
		List<CorrelatorSnapshot.SpamBucket> result = new ArrayList<>();
		for (Map.Entry<String, TokenBucket> entry : this.buckets.asMap().entrySet()) {
			if (result.size() >= limit) {
				break;
			}
			TokenBucket bucket = entry.getValue();
			result.add(new CorrelatorSnapshot.SpamBucket(entry.getKey(), bucket.tokensAt(now),
					bucket.timeToNextToken(now)));
		}
		return result;
	}

	/**
	 * The number of buckets held.
	 * @return the cache's size
	 */
	public long size() {
		this.buckets.cleanUp();
		return this.buckets.estimatedSize();
	}

}
