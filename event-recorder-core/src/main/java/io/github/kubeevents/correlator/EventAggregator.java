package io.github.kubeevents.correlator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.kubeevents.Events;
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
 * fallback as any event name, and it keeps the original's reportingComponent/reportingInstance. The element
 * dropped when the set is full is the oldest one (client-go drops an arbitrary one).
 *
 * <p>Thread-safe.
 */
public final class EventAggregator {

	private final CorrelatorOptions options;

	private final Cache<String, AggregateRecord> records;

	/**
	 * An aggregator with empty state.
	 * @param options window, threshold, key and message functions, cache size and clock
	 */
	public EventAggregator(CorrelatorOptions options) {
		this.options = options;
		this.records = Caffeine.newBuilder().maximumSize(options.lruCacheSize()).executor(Runnable::run).build();
	}

	/**
	 * Aggregates one event.
	 * @param event the incoming event (not modified)
	 * @return the event to observe (the input or a new aggregate event) and its observation cache key
	 */
	public synchronized Aggregation aggregate(CoreV1Event event) {
		String eventKey = EventKeys.eventKey(event);
		if (!this.options.aggregationEnabled()) {
			return new Aggregation(event, eventKey);
		}
		Instant now = this.options.clock().instant();
		AggregateKey keys = this.options.aggregateKeyFunction().apply(event);
		AggregateRecord record = this.records.getIfPresent(keys.aggregateKey());
		Set<String> localKeys = new LinkedHashSet<>();
		if (record != null && Duration.between(record.lastTimestamp(), now).compareTo(this.options.aggregateInterval()) <= 0) {
			localKeys.addAll(record.localKeys());
		}
		localKeys.add(keys.localKey());
		if (localKeys.size() < this.options.aggregateMaxEvents()) {
			this.records.put(keys.aggregateKey(), new AggregateRecord(Collections.unmodifiableSet(localKeys), now));
			return new Aggregation(event, eventKey);
		}
		localKeys.remove(localKeys.iterator().next());
		this.records.put(keys.aggregateKey(), new AggregateRecord(Collections.unmodifiableSet(localKeys), now));
		return new Aggregation(aggregateEvent(event, now), keys.aggregateKey());
	}

	private CoreV1Event aggregateEvent(CoreV1Event event, Instant now) {
		CoreV1Event aggregate = new CoreV1Event();
		String namespace = (event.getMetadata() != null) ? event.getMetadata().getNamespace() : null;
		aggregate.setMetadata(new V1ObjectMeta().name(Events.generateName(event.getInvolvedObject().getName(), now))
			.namespace(namespace));
		aggregate.setCount(1);
		aggregate.setFirstTimestamp(Events.timestamp(now));
		aggregate.setLastTimestamp(Events.timestamp(now));
		aggregate.setInvolvedObject(Events.copy(event.getInvolvedObject()));
		aggregate.setType(event.getType());
		aggregate.setReason(event.getReason());
		aggregate.setMessage(this.options.messageFunction().apply(event));
		V1EventSource source = event.getSource();
		if (source != null) {
			aggregate.setSource(new V1EventSource().component(source.getComponent()).host(source.getHost()));
		}
		aggregate.setReportingComponent(event.getReportingComponent());
		aggregate.setReportingInstance(event.getReportingInstance());
		return aggregate;
	}

	/**
	 * The records, at most {@code limit} of them.
	 * @param limit the maximum number of entries to return
	 * @return one view per aggregate key
	 */
	public List<CorrelatorSnapshot.AggregateRecordView> snapshot(int limit) {
		List<CorrelatorSnapshot.AggregateRecordView> result = new ArrayList<>();
		for (Map.Entry<String, AggregateRecord> entry : this.records.asMap().entrySet()) {
			if (result.size() >= limit) {
				break;
			}
			result.add(new CorrelatorSnapshot.AggregateRecordView(entry.getKey(), entry.getValue().localKeys().size(),
					entry.getValue().lastTimestamp()));
		}
		return result;
	}

	/**
	 * The number of records held.
	 * @return the cache's size
	 */
	public long size() {
		this.records.cleanUp();
		return this.records.estimatedSize();
	}

	/**
	 * The result of {@link #aggregate(CoreV1Event)}.
	 * @param event the event to observe
	 * @param cacheKey the observation key: the full event key, or the aggregate key for an aggregate event
	 */
	public record Aggregation(CoreV1Event event, String cacheKey) {
	}

	private record AggregateRecord(Set<String> localKeys, Instant lastTimestamp) {
	}

}
