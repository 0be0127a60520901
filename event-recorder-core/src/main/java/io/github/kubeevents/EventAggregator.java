package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * client-go's {@code EventAggregator}: remembers, per aggregate key, the distinct local keys (messages) seen
 * within a sliding window. When the {@code aggregateMaxEvents}-th distinct message arrives within
 * {@code aggregateInterval} of the previous similar event, it returns a new aggregate event (message
 * {@code "(combined from similar events): <latest message>"}) keyed by the aggregate key, so every further
 * similar event updates that one object until the window expires.
 *
 * <p>Deliberate differences from client-go: the aggregate event's name gets the same DNS-1123 check and UUID
 * fallback as any event name, and it keeps the original's reportingComponent/reportingInstance, related object
 * and action. The element dropped when the set is full is the oldest one (client-go drops an arbitrary one).
 *
 * <p>Records are keyed by the {@link KeyHash} of the aggregate key and keep the hashes of the local keys, not the
 * strings (see {@link KeyHash} for why that decides the same), and while there is only one, the local key itself,
 * so a repeated message costs an {@code equals} rather than a hash. A record is its own cache key and is updated
 * in place. The event's full key and the aggregate key are hashed together ({@link KeyHash.Builder#buildWith}),
 * since they start with the same fields.
 *
 * <p>Thread-safe.
 */
final class EventAggregator {

	private final CorrelatorOptions options;

	private final Clock clock;

	private final EventKeys.AggregateKeyWriter keyWriter;

	private final Cache<KeyHash, AggregateRecord> records;

	/** The event's full key; guarded by this aggregator's lock. */
	private final KeyHash.Builder eventKey = new KeyHash.Builder();

	/** The aggregate key, then the local key; guarded by this aggregator's lock. */
	private final KeyHash.Builder aggregateKey = new KeyHash.Builder();

	EventAggregator(CorrelatorOptions options, Clock clock) {
		this.options = options;
		this.clock = clock;
		this.keyWriter = EventKeys.aggregateWriter(options.aggregateKeyFunction());
		this.records = Caches.bounded(options.cacheSize());
	}

	/**
	 * Aggregates one event.
	 * @param event the incoming event (not modified)
	 * @return the event to observe (the input or a new aggregate event), its observation cache key, and its
	 * subject (the record's when equal) for the other caches
	 */
	synchronized Aggregation aggregate(CoreV1Event event) {
		EventKeys.writeEventKey(event, this.eventKey.reset());
		if (!this.options.aggregationEnabled()) {
			return new Aggregation(event, this.eventKey.build(), EventSubject.of(event));
		}
		Instant now = this.clock.instant();
		String localKey = this.keyWriter.writeAggregateKey(event, this.aggregateKey.reset());
		KeyHash.Pair keys = this.eventKey.buildWith(this.aggregateKey);
		KeyHash eventKey = keys.first();
		KeyHash aggregateKey = keys.second();
		AggregateRecord record = this.records.getIfPresent(aggregateKey);
		boolean fresh = record == null || record.seenLongerAgoThan(this.options.aggregateInterval(), now);
		if (record == null) {
			record = new AggregateRecord(aggregateKey);
			this.records.put(record, record);
		}
		boolean aggregate;
		if (fresh) {
			aggregate = record.start(KeyHash.of(localKey, this.aggregateKey), localKey);
		}
		else if (record.isOnly(localKey)) {
			// the one local key in the set: nothing changes
			aggregate = false;
		}
		else {
			aggregate = record.add(KeyHash.of(localKey, this.aggregateKey), localKey,
					this.options.aggregateMaxEvents());
		}
		record.lastSeen(now);
		record.subject = EventSubject.of(event, record.subject);
		return aggregate ? new Aggregation(aggregateEvent(event, now), aggregateKey, record.subject)
				: new Aggregation(event, eventKey, record.subject);
	}

	private CoreV1Event aggregateEvent(CoreV1Event event, Instant now) {
		CoreV1Event aggregate = new CoreV1Event();
		String namespace = (event.getMetadata() != null) ? event.getMetadata().getNamespace() : null;
		aggregate.setMetadata(new V1ObjectMeta().name(EventNames.generate(event.getInvolvedObject().getName(), now))
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

	synchronized List<CorrelatorSnapshot.AggregateRecord> snapshot(int limit, Predicate<ObjectRef> filter) {
		List<CorrelatorSnapshot.AggregateRecord> result = new ArrayList<>();
		for (AggregateRecord record : this.records.asMap().values()) {
			if (result.size() >= limit) {
				break;
			}
			ObjectRef object = record.subject.object();
			if (filter.test(object)) {
				result.add(new CorrelatorSnapshot.AggregateRecord(object, record.subject.type(),
						record.subject.reason(), record.size(), record.lastSeen()));
			}
		}
		return result;
	}

	long size() {
		this.records.cleanUp();
		return this.records.estimatedSize();
	}

	/**
	 * The result of {@link #aggregate(CoreV1Event)}.
	 * @param event the event to observe
	 * @param cacheKey the observation key: the full event key, or the aggregate key for an aggregate event
	 * @param subject the subject for the other caches' entries
	 */
	record Aggregation(CoreV1Event event, KeyHash cacheKey, EventSubject subject) {
	}

	/**
	 * The similar events seen in the current window, under the hash of their aggregate key: the hashes of their
	 * distinct local keys, oldest first, and when one was last seen. Guarded by the aggregator's lock.
	 */
	private static final class AggregateRecord extends KeyHash {

		/** The oldest local key's hash; a record always holds at least one local key. */
		long firstHigh;

		long firstLow;

		/**
		 * With one local key, the key itself, so that the next event with it costs an {@code equals} rather than a
		 * hash; with more, the newer keys' hashes as (high, low) pairs, oldest first ({@code long[]}).
		 */
		Object rest;

		long lastSeenSecond;

		int lastSeenNano;

		EventSubject subject;

		AggregateRecord(KeyHash key) {
			super(key);
		}

		/**
		 * Starts a new window with one local key.
		 * @param localKey the local key's hash
		 * @param key the local key
		 * @return {@code false}: one key never aggregates ({@code aggregateMaxEvents} is at least 2)
		 */
		boolean start(KeyHash localKey, String key) {
			this.firstHigh = localKey.high();
			this.firstLow = localKey.low();
			this.rest = key;
			return false;
		}

		/** Whether {@code key} is the one local key in the set. */
		boolean isOnly(String key) {
			return key.equals(this.rest);
		}

		/**
		 * Adds a local key unless present; when that makes {@code maxEvents} distinct keys, drops the oldest.
		 * @param localKey the local key's hash
		 * @param key the local key
		 * @param maxEvents {@code aggregateMaxEvents}
		 * @return {@code true} when the events are to be aggregated
		 */
		boolean add(KeyHash localKey, String key, int maxEvents) {
			long[] keys = (this.rest instanceof long[] newer) ? newer : null;
			boolean present = localKey.is(this.firstHigh, this.firstLow);
			int length = (keys != null) ? keys.length : 0;
			for (int i = 0; i < length && !present; i += 2) {
				present = localKey.is(keys[i], keys[i + 1]);
			}
			if (present) {
				return false;
			}
			keys = (keys != null) ? Arrays.copyOf(keys, length + 2) : new long[2];
			keys[length] = localKey.high();
			keys[length + 1] = localKey.low();
			if (1 + keys.length / 2 < maxEvents) {
				this.rest = keys;
				return false;
			}
			this.firstHigh = keys[0];
			this.firstLow = keys[1];
			// with one key left it is the one just added
			this.rest = (keys.length > 2) ? Arrays.copyOfRange(keys, 2, keys.length) : key;
			return true;
		}

		/** The number of distinct local keys. */
		int size() {
			return 1 + ((this.rest instanceof long[] newer) ? newer.length / 2 : 0);
		}

		/** {@code Duration.between(lastSeen(), now).compareTo(interval) > 0}, without the objects. */
		boolean seenLongerAgoThan(Duration interval, Instant now) {
			long seconds = now.getEpochSecond() - this.lastSeenSecond;
			int nanos = now.getNano() - this.lastSeenNano;
			if (nanos < 0) {
				seconds--;
				nanos += 1_000_000_000;
			}
			return seconds > interval.getSeconds() || (seconds == interval.getSeconds() && nanos > interval.getNano());
		}

		Instant lastSeen() {
			return Instant.ofEpochSecond(this.lastSeenSecond, this.lastSeenNano);
		}

		void lastSeen(Instant time) {
			this.lastSeenSecond = time.getEpochSecond();
			this.lastSeenNano = time.getNano();
		}

	}

}
