package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.EventKeys.AggregateKey;
import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * The reference for {@link EventCorrelator}'s decisions: the correlator as it was before its caches were keyed by
 * {@link KeyHash}, keyed by the concatenated strings of the key functions (client-go's keys), with the whole set
 * of messages per aggregate record, every field of an observed Event kept as is, and its token buckets' last
 * refill times as {@link Instant}s. Kept verbatim so that
 * {@link CorrelatorKeyEquivalenceTests} can show that compact keys change no decision.
 *
 * <p>Test-only. Thread-safe like the original.
 */
final class StringKeyCorrelator {

	private final Aggregator aggregator;

	private final Observer observer;

	private final Filter filter;

	StringKeyCorrelator(CorrelatorOptions options) {
		Clock clock = Objects.requireNonNull(options.clock(), "clock");
		this.aggregator = new Aggregator(options, clock);
		this.observer = new Observer(options);
		this.filter = new Filter(options, clock);
	}

	CorrelationResult correlate(CoreV1Event event) {
		Objects.requireNonNull(event, "event is nil");
		Aggregation aggregation = this.aggregator.aggregate(event);
		Observation observation = this.observer.observe(aggregation.event(), aggregation.cacheKey());
		boolean skip = this.filter.filter(observation.event());
		return new CorrelationResult(observation.event(), observation.patch(), skip);
	}

	CorrelationResult aggregateAndFilter(CoreV1Event event) {
		Objects.requireNonNull(event, "event is nil");
		CoreV1Event aggregated = this.aggregator.aggregate(event).event();
		return new CorrelationResult(aggregated, null, this.filter.filter(aggregated));
	}

	void updateState(CoreV1Event serverEvent) {
		this.observer.updateState(serverEvent);
	}

	CorrelatorSnapshot snapshot(int limit) {
		return new CorrelatorSnapshot(this.aggregator.size(), this.aggregator.snapshot(limit), this.observer.size(),
				this.observer.snapshot(limit), this.filter.size(), this.filter.snapshot(limit), 0, 0);
	}

	private static ObjectRef objectRef(CoreV1Event event) {
		V1ObjectReference ref = event.getInvolvedObject();
		if (ref == null) {
			return new ObjectRef(null, null, "");
		}
		String namespace = ref.getNamespace();
		return new ObjectRef(ref.getKind(), (namespace == null || namespace.isEmpty()) ? null : namespace,
				String.valueOf(ref.getName()));
	}

	private record Aggregation(CoreV1Event event, String cacheKey) {
	}

	private record Observation(CoreV1Event event, EventSink.CountPatch patch) {
	}

	private static final class Aggregator {

		private final CorrelatorOptions options;

		private final Clock clock;

		private final Cache<String, AggregateRecord> records;

		Aggregator(CorrelatorOptions options, Clock clock) {
			this.options = options;
			this.clock = clock;
			this.records = Caches.bounded(options.cacheSize());
		}

		synchronized Aggregation aggregate(CoreV1Event event) {
			String eventKey = EventKeys.eventKey(event);
			if (!this.options.aggregationEnabled()) {
				return new Aggregation(event, eventKey);
			}
			Instant now = this.clock.instant();
			AggregateKey keys = this.options.aggregateKeyFunction().apply(event);
			AggregateRecord record = this.records.getIfPresent(keys.aggregateKey());
			Set<String> localKeys = new LinkedHashSet<>();
			if (record != null && Duration.between(record.lastTimestamp(), now)
				.compareTo(this.options.aggregateInterval()) <= 0) {
				localKeys.addAll(record.localKeys());
			}
			localKeys.add(keys.localKey());
			boolean aggregate = localKeys.size() >= this.options.aggregateMaxEvents();
			if (aggregate) {
				localKeys.remove(localKeys.iterator().next());
			}
			this.records.put(keys.aggregateKey(), new AggregateRecord(Collections.unmodifiableSet(localKeys), now,
					objectRef(event), event.getType(), event.getReason()));
			return aggregate ? new Aggregation(aggregateEvent(event, now), keys.aggregateKey())
					: new Aggregation(event, eventKey);
		}

		private CoreV1Event aggregateEvent(CoreV1Event event, Instant now) {
			CoreV1Event aggregate = new CoreV1Event();
			String namespace = (event.getMetadata() != null) ? event.getMetadata().getNamespace() : null;
			aggregate.setMetadata(new V1ObjectMeta()
				.name(EventNames.generate(event.getInvolvedObject().getName(), now))
				.namespace(namespace));
			aggregate.setCount(1);
			aggregate.setFirstTimestamp(CoreV1Events.timestamp(now));
			aggregate.setLastTimestamp(CoreV1Events.timestamp(now));
			aggregate.setInvolvedObject(CoreV1Events.copy(event.getInvolvedObject()));
			aggregate.setRelated(CoreV1Events.copy(event.getRelated()));
			aggregate.setType(event.getType());
			aggregate.setReason(event.getReason());
			aggregate.setAction(event.getAction());
			aggregate.setMessage(this.options.messageFunction().apply(event));
			V1EventSource source = event.getSource();
			if (source != null) {
				aggregate.setSource(new V1EventSource().component(source.getComponent()).host(source.getHost()));
			}
			aggregate.setReportingComponent(event.getReportingComponent());
			aggregate.setReportingInstance(event.getReportingInstance());
			return aggregate;
		}

		List<CorrelatorSnapshot.AggregateRecord> snapshot(int limit) {
			List<CorrelatorSnapshot.AggregateRecord> result = new ArrayList<>();
			for (AggregateRecord record : this.records.asMap().values()) {
				if (result.size() >= limit) {
					break;
				}
				result.add(new CorrelatorSnapshot.AggregateRecord(record.object(), record.type(), record.reason(),
						record.localKeys().size(), record.lastTimestamp()));
			}
			return result;
		}

		long size() {
			this.records.cleanUp();
			return this.records.estimatedSize();
		}

		private record AggregateRecord(Set<String> localKeys, Instant lastTimestamp, ObjectRef object, String type,
				String reason) {
		}

	}

	private static final class Observer {

		private final Cache<String, ObservedRecord> records;

		Observer(CorrelatorOptions options) {
			this.records = Caches.bounded(options.cacheSize());
		}

		synchronized Observation observe(CoreV1Event event, String key) {
			CoreV1Event observed = CoreV1Events.copy(event);
			EventSink.CountPatch patch = null;
			ObservedRecord previous = this.records.getIfPresent(key);
			if (previous != null && previous.count() > 0) {
				int count = previous.count() + 1;
				observed.getMetadata().setName(previous.name());
				observed.getMetadata().setResourceVersion(previous.resourceVersion());
				observed.setFirstTimestamp(previous.firstTimestamp());
				observed.setCount(count);
				patch = new EventSink.CountPatch(count, observed.getLastTimestamp(), observed.getMessage());
			}
			this.records.put(key, ObservedRecord.of(observed));
			return new Observation(observed, patch);
		}

		synchronized void updateState(CoreV1Event serverEvent) {
			String key = EventKeys.eventKey(serverEvent);
			ObservedRecord stored = ObservedRecord.of(serverEvent);
			ObservedRecord current = this.records.getIfPresent(key);
			if (current != null && current.count() > stored.count()
					&& Objects.equals(current.name(), stored.name())) {
				stored = new ObservedRecord(current.count(), stored.firstTimestamp(), current.lastTimestamp(),
						stored.name(), stored.resourceVersion(), stored.object(), stored.type(), stored.reason(),
						current.message());
			}
			this.records.put(key, stored);
		}

		List<CorrelatorSnapshot.ObservedEvent> snapshot(int limit) {
			List<CorrelatorSnapshot.ObservedEvent> result = new ArrayList<>();
			for (ObservedRecord record : this.records.asMap().values()) {
				if (result.size() >= limit) {
					break;
				}
				result.add(new CorrelatorSnapshot.ObservedEvent(record.object(), record.type(), record.reason(),
						record.message(), record.name(), record.count(),
						(record.firstTimestamp() != null) ? record.firstTimestamp().toInstant() : null,
						(record.lastTimestamp() != null) ? record.lastTimestamp().toInstant() : null));
			}
			return result;
		}

		long size() {
			this.records.cleanUp();
			return this.records.estimatedSize();
		}

		private record ObservedRecord(int count, OffsetDateTime firstTimestamp, OffsetDateTime lastTimestamp,
				String name, String resourceVersion, ObjectRef object, String type, String reason, String message) {

			static ObservedRecord of(CoreV1Event event) {
				int count = (event.getCount() != null) ? event.getCount() : 0;
				return new ObservedRecord(count, event.getFirstTimestamp(), event.getLastTimestamp(),
						event.getMetadata().getName(), event.getMetadata().getResourceVersion(),
						objectRef(event), event.getType(), event.getReason(), event.getMessage());
			}

		}

	}

	private static final class Filter {

		private final CorrelatorOptions options;

		private final Clock clock;

		private final Cache<String, Bucket> buckets;

		Filter(CorrelatorOptions options, Clock clock) {
			this.options = options;
			this.clock = clock;
			this.buckets = Caches.bounded(options.cacheSize());
		}

		boolean filter(CoreV1Event event) {
			if (!this.options.spamFilterEnabled()) {
				return false;
			}
			Instant now = this.clock.instant();
			String key = this.options.spamKeyFunction().apply(event);
			Bucket bucket = this.buckets.get(key,
					(k) -> new Bucket(new ReferenceTokenBucket(this.options.burst(), this.options.qps(), now)));
			bucket.latest = new Latest(objectRef(event), event.getType(), event.getReason());
			return !bucket.tokens.tryAccept(now);
		}

		List<CorrelatorSnapshot.SpamBucket> snapshot(int limit) {
			Instant now = this.clock.instant();
			List<CorrelatorSnapshot.SpamBucket> result = new ArrayList<>();
			for (Bucket bucket : this.buckets.asMap().values()) {
				if (result.size() >= limit) {
					break;
				}
				Latest latest = bucket.latest;
				result.add(new CorrelatorSnapshot.SpamBucket(latest.object(), latest.type(), latest.reason(),
						bucket.tokens.tokensAt(now), bucket.tokens.timeToNextToken(now)));
			}
			return result;
		}

		long size() {
			this.buckets.cleanUp();
			return this.buckets.estimatedSize();
		}

		private static final class Bucket {

			final ReferenceTokenBucket tokens;

			volatile Latest latest;

			Bucket(ReferenceTokenBucket tokens) {
				this.tokens = tokens;
			}

		}

		private record Latest(ObjectRef object, String type, String reason) {
		}

	}

	/** {@link TokenBucket} as it was, with the last refill time as an {@link Instant}. */
	private static final class ReferenceTokenBucket {

		/** Tolerance for floating-point refill error, so a token due at exactly t is available at t. */
		private static final double EPSILON = 1e-9;

		private final int burst;

		private final double qps;

		private double tokens;

		private Instant last;

		/**
		 * A full bucket.
		 * @param burst capacity and initial fill
		 * @param qps refill rate in tokens per second
		 * @param now the creation time
		 */
		ReferenceTokenBucket(int burst, double qps, Instant now) {
			this.burst = burst;
			this.qps = qps;
			this.tokens = burst;
			this.last = now;
		}

		/**
		 * Takes one token if one is available at {@code now}.
		 * @param now the current time (from the correlator's clock)
		 * @return {@code true} when a token was taken
		 */
		synchronized boolean tryAccept(Instant now) {
			refill(now);
			if (this.tokens >= 1.0 - EPSILON) {
				this.tokens = Math.max(0.0, this.tokens - 1.0);
				return true;
			}
			return false;
		}

		/**
		 * The tokens available at {@code now}, without taking any.
		 * @param now the time to look at
		 * @return tokens left, between 0 and burst
		 */
		synchronized double tokensAt(Instant now) {
			return Math.min(this.burst, this.tokens + elapsedSeconds(now) * this.qps);
		}

		/**
		 * How long until the next whole token is available.
		 * @param now the time to look at
		 * @return zero when a token is available now
		 */
		synchronized Duration timeToNextToken(Instant now) {
			double available = tokensAt(now);
			if (available >= 1.0 - EPSILON) {
				return Duration.ZERO;
			}
			return Duration.ofNanos((long) Math.ceil((1.0 - available) / this.qps * 1_000_000_000L));
		}

		private void refill(Instant now) {
			this.tokens = tokensAt(now);
			if (now.isAfter(this.last)) {
				this.last = now;
			}
		}

		private double elapsedSeconds(Instant now) {
			if (!now.isAfter(this.last)) {
				return 0;
			}
			Duration elapsed = Duration.between(this.last, now);
			return elapsed.getSeconds() + elapsed.getNano() / 1e9;
		}

	}

}
