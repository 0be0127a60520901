package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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
 * <p>Thread-safe.
 */
final class EventAggregator {

	private final CorrelatorOptions options;

	private final Clock clock;

	private final Cache<String, AggregateRecord> records;

	EventAggregator(CorrelatorOptions options, Clock clock) {
		this.options = options;
		this.clock = clock;
		this.records = Caches.bounded(options.cacheSize());
	}

	/**
	 * Aggregates one event.
	 * @param event the incoming event (not modified)
	 * @return the event to observe (the input or a new aggregate event) and its observation cache key
	 */
	synchronized Aggregation aggregate(CoreV1Event event) {
		String eventKey = EventKeys.eventKey(event);
		if (!this.options.aggregationEnabled()) {
			return new Aggregation(event, eventKey);
		}
		Instant now = this.clock.instant();
		AggregateKey keys = this.options.aggregateKeyFunction().apply(event);
		AggregateRecord record = this.records.getIfPresent(keys.aggregateKey());
		Set<String> localKeys = new LinkedHashSet<>();
		if (record != null
				&& Duration.between(record.lastTimestamp(), now).compareTo(this.options.aggregateInterval()) <= 0) {
			localKeys.addAll(record.localKeys());
		}
		localKeys.add(keys.localKey());
		boolean aggregate = localKeys.size() >= this.options.aggregateMaxEvents();
		if (aggregate) {
			localKeys.remove(localKeys.iterator().next());
		}
		this.records.put(keys.aggregateKey(), new AggregateRecord(Collections.unmodifiableSet(localKeys), now,
				CoreV1Events.objectRef(event), event.getType(), event.getReason()));
		return aggregate ? new Aggregation(aggregateEvent(event, now), keys.aggregateKey())
				: new Aggregation(event, eventKey);
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

	List<CorrelatorSnapshot.AggregateRecord> snapshot(int limit, Predicate<ObjectRef> filter) {
		List<CorrelatorSnapshot.AggregateRecord> result = new ArrayList<>();
		for (AggregateRecord record : this.records.asMap().values()) {
			if (result.size() >= limit) {
				break;
			}
			if (filter.test(record.object())) {
				result.add(new CorrelatorSnapshot.AggregateRecord(record.object(), record.type(), record.reason(),
						record.localKeys().size(), record.lastTimestamp()));
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
	 */
	record Aggregation(CoreV1Event event, String cacheKey) {
	}

	private record AggregateRecord(Set<String> localKeys, Instant lastTimestamp, ObjectRef object, String type,
			String reason) {
	}

}
