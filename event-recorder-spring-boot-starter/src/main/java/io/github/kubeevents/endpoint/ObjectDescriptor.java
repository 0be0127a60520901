package io.github.kubeevents.endpoint;

import java.util.ArrayList;
import java.util.List;

import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.github.kubeevents.introspect.RecorderSnapshot.SeriesSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * What the recorder remembers about one object: {@code GET /actuator/kubeevents/{namespace}/{name}}.
 *
 * <p>Immutable.
 *
 * @param object the object asked about (kind unknown)
 * @param sinks per sink, the cache entries about it; only sinks that have some
 */
public record ObjectDescriptor(ObjectRef object, List<SinkEntries> sinks) implements OperationResponseBody {

	/**
	 * Copies the list.
	 */
	public ObjectDescriptor {
		sinks = List.copyOf(sinks);
	}

	/**
	 * One sink's entries about the object.
	 * @param name the sink's name
	 * @param api the events API it writes
	 * @param aggregateRecords its aggregator records (core/v1)
	 * @param observedEvents the Events it would PATCH on a repeat (core/v1)
	 * @param spamBuckets its spam-filter buckets
	 * @param series its series cache entries (events.k8s.io/v1)
	 */
	public record SinkEntries(String name, String api, List<CorrelatorSnapshot.AggregateRecord> aggregateRecords,
			List<CorrelatorSnapshot.ObservedEvent> observedEvents, List<CorrelatorSnapshot.SpamBucket> spamBuckets,
			List<SeriesSnapshot.Entry> series) {
	}

	static List<SinkEntries> entries(RecorderSnapshot snapshot) {
		List<SinkEntries> result = new ArrayList<>();
		for (RecorderSnapshot.SinkSnapshot sink : snapshot.sinks()) {
			CorrelatorSnapshot correlator = sink.correlator();
			SeriesSnapshot series = sink.series();
			SinkEntries entries = new SinkEntries(sink.name(), sink.api(),
					(correlator != null) ? correlator.aggregateRecords() : List.of(),
					(correlator != null) ? correlator.observedEvents() : List.of(),
					(correlator != null) ? correlator.spamBuckets() : List.of(),
					(series != null) ? series.entries() : List.of());
			if (!entries.aggregateRecords().isEmpty() || !entries.observedEvents().isEmpty()
					|| !entries.spamBuckets().isEmpty() || !entries.series().isEmpty()) {
				result.add(entries);
			}
		}
		return result;
	}

}
