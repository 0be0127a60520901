package io.github.kubeevents.introspect;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A read-only view of a core/v1 correlator's caches at one moment, entry by entry, with the object and reason
 * each entry is about.
 *
 * <p>Immutable and thread-safe.
 *
 * @param aggregatorSize records held by the aggregator
 * @param aggregateRecords up to the requested number of aggregator records
 * @param observedSize records held by the observer
 * @param observedEvents up to the requested number of observed events
 * @param spamBucketsSize buckets held by the spam filter
 * @param spamBuckets up to the requested number of spam buckets
 */
public record CorrelatorSnapshot(long aggregatorSize, List<AggregateRecord> aggregateRecords, long observedSize,
		List<ObservedEvent> observedEvents, long spamBucketsSize, List<SpamBucket> spamBuckets) {

	/**
	 * Copies the lists.
	 */
	public CorrelatorSnapshot {
		aggregateRecords = List.copyOf(aggregateRecords);
		observedEvents = List.copyOf(observedEvents);
		spamBuckets = List.copyOf(spamBuckets);
	}

	/**
	 * One aggregator record: similar events (same object, type and reason) seen within the window.
	 * @param object the object
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param distinctMessages distinct messages in the current window
	 * @param lastSeen when a similar event was last seen
	 */
	public record AggregateRecord(ObjectRef object, String type, String reason, int distinctMessages,
			Instant lastSeen) {
	}

	/**
	 * One Event the correlator remembers writing, which a repeat will PATCH.
	 * @param object the object
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param message the latest message (may be hidden by the endpoint)
	 * @param name the Event's name on the server
	 * @param count its count
	 * @param firstTimestamp its first timestamp
	 * @param lastTimestamp its last timestamp
	 */
	public record ObservedEvent(ObjectRef object, String type, String reason, @Nullable String message, String name,
			int count, @Nullable Instant firstTimestamp, @Nullable Instant lastTimestamp) {
	}

	/**
	 * One spam-filter token bucket.
	 * @param object the object of the latest event that used it
	 * @param type that event's type
	 * @param reason that event's reason (the default key shares one bucket across reasons)
	 * @param tokensLeft tokens available now
	 * @param timeToNextToken zero when a token is available, else the wait for the next one
	 */
	public record SpamBucket(ObjectRef object, String type, String reason, double tokensLeft,
			Duration timeToNextToken) {
	}

}
