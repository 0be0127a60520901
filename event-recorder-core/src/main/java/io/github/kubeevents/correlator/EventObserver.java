package io.github.kubeevents.correlator;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.kubeevents.Events;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * client-go's {@code eventLogger} ({@code eventObserve}): remembers, per key, the count, first timestamp, name
 * and resourceVersion of the Event last written. A repeat becomes an update of that Event: same name and
 * firstTimestamp, count + 1, and a patch of {@code count}, {@code lastTimestamp} and {@code message}.
 *
 * <p>Thread-safe.
 */
public final class EventObserver {

	private final Cache<String, ObservedRecord> records;

	/**
	 * An observer with empty state.
	 * @param options the cache size
	 */
	public EventObserver(CorrelatorOptions options) {
		this.records = Caffeine.newBuilder().maximumSize(options.lruCacheSize()).executor(Runnable::run).build();
	}

	/**
	 * Observes one event.
	 * @param event the event from the aggregator (not modified)
	 * @param key its observation key
	 * @return a copy of the event, turned into an update when the key was seen before, and the patch
	 */
	public synchronized Observation observe(CoreV1Event event, String key) {
		CoreV1Event observed = Events.copy(event);
		EventPatch patch = null;
		ObservedRecord previous = this.records.getIfPresent(key);
		if (previous != null && previous.count() > 0) {
			int count = previous.count() + 1;
			observed.getMetadata().setName(previous.name());
			observed.getMetadata().setResourceVersion(previous.resourceVersion());
			observed.setFirstTimestamp(previous.firstTimestamp());
			observed.setCount(count);
			patch = new EventPatch(count, observed.getLastTimestamp(), observed.getMessage());
		}
		this.records.put(key, ObservedRecord.of(observed));
		return new Observation(observed, patch);
	}

	/**
	 * Stores what the server returned for a written event, under its full event key (client-go's
	 * {@code UpdateState}).
	 * @param serverEvent the Event the API server returned
	 */
	public synchronized void updateState(CoreV1Event serverEvent) {
		this.records.put(EventKeys.eventKey(serverEvent), ObservedRecord.of(serverEvent));
	}

	/**
	 * The records, at most {@code limit} of them.
	 * @param limit the maximum number of entries to return
	 * @return one view per key
	 */
	public List<CorrelatorSnapshot.ObservedEvent> snapshot(int limit) {
		List<CorrelatorSnapshot.ObservedEvent> result = new ArrayList<>();
		for (Map.Entry<String, ObservedRecord> entry : this.records.asMap().entrySet()) {
			if (result.size() >= limit) {
				break;
			}
			ObservedRecord record = entry.getValue();
			result.add(new CorrelatorSnapshot.ObservedEvent(entry.getKey(), record.name(), record.count(),
					(record.firstTimestamp() != null) ? record.firstTimestamp().toInstant() : null,
					(record.lastTimestamp() != null) ? record.lastTimestamp().toInstant() : null));
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
	 * The result of {@link #observe(CoreV1Event, String)}.
	 * @param event the event to write
	 * @param patch the patch when the event updates an earlier one, otherwise {@code null}
	 */
	public record Observation(CoreV1Event event, EventPatch patch) {
	}

	private record ObservedRecord(int count, OffsetDateTime firstTimestamp, OffsetDateTime lastTimestamp, String name,
			String resourceVersion) {

		static ObservedRecord of(CoreV1Event event) {
			int count = (event.getCount() != null) ? event.getCount() : 0;
			return new ObservedRecord(count, event.getFirstTimestamp(), event.getLastTimestamp(),
					event.getMetadata().getName(), event.getMetadata().getResourceVersion());
		}

	}

}
