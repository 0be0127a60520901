package io.github.kubeevents;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * client-go's {@code eventLogger} ({@code eventObserve}): remembers, per key, the count, first timestamp, name
 * and resourceVersion of the Event last written. A repeat becomes an update of that Event: same name and
 * firstTimestamp, count + 1, and a patch of {@code count}, {@code lastTimestamp} and {@code message}.
 *
 * <p>Thread-safe.
 */
final class EventObserver {

	private final Cache<String, ObservedRecord> records;

	EventObserver(CorrelatorOptions options) {
		this.records = Caches.bounded(options.cacheSize());
	}

	/**
	 * Observes one event.
	 * @param event the event from the aggregator (not modified)
	 * @param key its observation key
	 * @return a copy of the event, turned into an update when the key was seen before, and the patch
	 */
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

	/**
	 * Stores what the server returned for a written event, under its full event key (client-go's
	 * {@code UpdateState}). Writes run on the sink's writer threads, so later occurrences of the same event may
	 * have been observed (and counted, even if the spam filter then dropped them) while this write was in flight:
	 * the higher count stays, so the next PATCH carries it as in client-go, where the state is updated before the
	 * next event is observed.
	 * @param serverEvent the Event the API server returned
	 */
	synchronized void updateState(CoreV1Event serverEvent) {
		String key = EventKeys.eventKey(serverEvent);
		ObservedRecord stored = ObservedRecord.of(serverEvent);
		ObservedRecord current = this.records.getIfPresent(key);
		if (current != null && current.count() > stored.count() && Objects.equals(current.name(), stored.name())) {
			stored = new ObservedRecord(current.count(), stored.firstTimestamp(), current.lastTimestamp(),
					stored.name(), stored.resourceVersion(), stored.object(), stored.type(), stored.reason(),
					current.message());
		}
		this.records.put(key, stored);
	}

	List<CorrelatorSnapshot.ObservedEvent> snapshot(int limit, Predicate<ObjectRef> filter) {
		List<CorrelatorSnapshot.ObservedEvent> result = new ArrayList<>();
		for (ObservedRecord record : this.records.asMap().values()) {
			if (result.size() >= limit) {
				break;
			}
			if (filter.test(record.object())) {
				result.add(new CorrelatorSnapshot.ObservedEvent(record.object(), record.type(), record.reason(),
						record.message(), record.name(), record.count(),
						(record.firstTimestamp() != null) ? record.firstTimestamp().toInstant() : null,
						(record.lastTimestamp() != null) ? record.lastTimestamp().toInstant() : null));
			}
		}
		return result;
	}

	long size() {
		this.records.cleanUp();
		return this.records.estimatedSize();
	}

	/**
	 * The result of {@link #observe(CoreV1Event, String)}.
	 * @param event the event to write
	 * @param patch the patch when the event updates an earlier one, otherwise {@code null}
	 */
	record Observation(CoreV1Event event, EventSink.CountPatch patch) {
	}

	private record ObservedRecord(int count, OffsetDateTime firstTimestamp, OffsetDateTime lastTimestamp, String name,
			String resourceVersion, ObjectRef object, String type, String reason, String message) {

		static ObservedRecord of(CoreV1Event event) {
			int count = (event.getCount() != null) ? event.getCount() : 0;
			return new ObservedRecord(count, event.getFirstTimestamp(), event.getLastTimestamp(),
					event.getMetadata().getName(), event.getMetadata().getResourceVersion(),
					CoreV1Events.objectRef(event), event.getType(), event.getReason(), event.getMessage());
		}

	}

}
