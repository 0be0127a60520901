package io.github.kubeevents;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * client-go's {@code EventSourceObjectSpamFilter}: one {@link TokenBucket} per spam key (by default source,
 * object and type), kept in a size-bounded cache. With the defaults one source may write 25 events about one
 * object and type, then one more every 300 s. When a key's entry is evicted its bucket is forgotten, and the
 * next event for that key starts with a full bucket.
 *
 * <p>Thread-safe.
 */
final class SpamFilter {

	private final CorrelatorOptions options;

	private final Clock clock;

	private final Cache<String, Bucket> buckets;

	SpamFilter(CorrelatorOptions options, Clock clock) {
		this.options = options;
		this.clock = clock;
		this.buckets = Caches.bounded(options.cacheSize());
	}

	/**
	 * Whether the event must be skipped. Takes a token when one is available.
	 * @param event the (observed) event
	 * @return {@code true} to skip the event
	 */
	boolean filter(CoreV1Event event) {
		if (!this.options.spamFilterEnabled()) {
			return false;
		}
		Instant now = this.clock.instant();
		String key = this.options.spamKeyFunction().apply(event);
		Bucket bucket = this.buckets.get(key,
				(k) -> new Bucket(new TokenBucket(this.options.burst(), this.options.qps(), now)));
		bucket.latest = new Latest(CoreV1Events.objectRef(event), event.getType(), event.getReason());
		return !bucket.tokens.tryAccept(now);
	}

	List<CorrelatorSnapshot.SpamBucket> snapshot(int limit, Predicate<ObjectRef> filter) {
		Instant now = this.clock.instant();
		List<CorrelatorSnapshot.SpamBucket> result = new ArrayList<>();
		for (Bucket bucket : this.buckets.asMap().values()) {
			if (result.size() >= limit) {
				break;
			}
			Latest latest = bucket.latest;
			if (latest != null && filter.test(latest.object())) {
				result.add(new CorrelatorSnapshot.SpamBucket(latest.object(), latest.type(), latest.reason(),
						bucket.tokens.tokensAt(now), bucket.tokens.timeToNextToken(now)));
			}
		}
		return result;
	}

	long size() {
		this.buckets.cleanUp();
		return this.buckets.estimatedSize();
	}

	/** A token bucket and the event that used it last (for introspection only). */
	private static final class Bucket {

		final TokenBucket tokens;

		volatile Latest latest;

		Bucket(TokenBucket tokens) {
			this.tokens = tokens;
		}

	}

	private record Latest(ObjectRef object, String type, String reason) {
	}

}
