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
 * <p>With {@link CorrelatorOptions#warningLane()} on (not in client-go), a Warning takes its token from a bucket of
 * the Warning lane instead: keyed by its spam key and its reason, with the lane's burst and refill, so Normal events
 * and Warnings of other reasons cannot use up its budget. Normal events keep the spam key's buckets.
 *
 * <p>Buckets are keyed by the {@link KeyHash} of the spam key (see there for why that decides the same) and are
 * their own cache keys.
 *
 * <p>Thread-safe.
 */
final class SpamFilter {

	/** Marks a Warning-lane key, so it never equals a key of the spam key function's alone. */
	private static final String WARNING_LANE = "\u0000warning-lane";

	private final CorrelatorOptions options;

	private final Clock clock;

	private final EventKeys.KeyWriter keyWriter;

	private final Cache<KeyHash, Bucket> buckets;

	/** Hashes the keys; guarded by this filter's lock. */
	private final KeyHash.Builder key = new KeyHash.Builder();

	SpamFilter(CorrelatorOptions options, Clock clock) {
		this.options = options;
		this.clock = clock;
		this.keyWriter = EventKeys.writer(options.spamKeyFunction());
		this.buckets = Caches.bounded(options.cacheSize());
	}

	/** {@link #filter(CoreV1Event, EventSubject)} with the event's own subject. */
	boolean filter(CoreV1Event event) {
		return filter(event, EventSubject.of(event));
	}

	/**
	 * Whether the event must be skipped. Takes a token when one is available.
	 * @param event the (observed) event
	 * @param subject its subject, shared with the other caches' entries
	 * @return {@code true} to skip the event
	 */
	synchronized boolean filter(CoreV1Event event, EventSubject subject) {
		if (!this.options.spamFilterEnabled()) {
			return false;
		}
		Instant now = this.clock.instant();
		this.keyWriter.writeKey(event, this.key.reset());
		boolean warningLane = this.options.warningLane() && EventType.WARNING.value().equals(event.getType());
		if (warningLane) {
			this.key.add(WARNING_LANE).add(event.getReason());
		}
		KeyHash key = this.key.build();
		Bucket bucket = this.buckets.getIfPresent(key);
		if (bucket == null) {
			TokenBucket tokens = warningLane
					? new TokenBucket(this.options.warningBurst(), this.options.warningQps(), now)
					: new TokenBucket(this.options.burst(), this.options.qps(), now);
			bucket = new Bucket(key, tokens, subject);
			this.buckets.put(bucket, bucket);
		}
		else if (subject.or(bucket.subject) != bucket.subject) {
			bucket.subject = subject;
		}
		return !bucket.tokens.tryAccept(now);
	}

	List<CorrelatorSnapshot.SpamBucket> snapshot(int limit, Predicate<ObjectRef> filter) {
		Instant now = this.clock.instant();
		List<CorrelatorSnapshot.SpamBucket> result = new ArrayList<>();
		for (Bucket bucket : this.buckets.asMap().values()) {
			if (result.size() >= limit) {
				break;
			}
			EventSubject subject = bucket.subject;
			ObjectRef object = subject.object();
			if (filter.test(object)) {
				result.add(new CorrelatorSnapshot.SpamBucket(object, subject.type(), subject.reason(),
						bucket.tokens.tokensAt(now), bucket.tokens.timeToNextToken(now)));
			}
		}
		return result;
	}

	long size() {
		this.buckets.cleanUp();
		return this.buckets.estimatedSize();
	}

	/** A token bucket and the subject of the event that used it last (for introspection only). */
	private static final class Bucket extends KeyHash {

		final TokenBucket tokens;

		volatile EventSubject subject;

		Bucket(KeyHash key, TokenBucket tokens, EventSubject subject) {
			super(key);
			this.tokens = tokens;
			this.subject = subject;
		}

	}

}
