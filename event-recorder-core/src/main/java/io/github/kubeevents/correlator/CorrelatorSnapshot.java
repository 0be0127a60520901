package io.github.kubeevents.correlator;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A read-only view of an {@link EventCorrelator}'s caches at one moment.
 *
 * <p>Immutable and thread-safe.
 *
 * @param aggregatorSize records held by the aggregator
 * @param aggregateRecords up to {@code limit} aggregator records
 * @param observedSize records held by the observer
 * @param observedEvents up to {@code limit} observed events
 * @param spamBucketsSize buckets held by the spam filter
 * @param spamBuckets up to {@code limit} spam buckets
 */
public record CorrelatorSnapshot(long aggregatorSize, List<AggregateRecordView> aggregateRecords, long observedSize,
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
	 * One aggregator record.
	 * @param key the aggregate key
	 * @param distinctMessages distinct messages (local keys) in the current window
	 * @param lastSeen when a similar event was last seen
	 */
	public record AggregateRecordView(String key, int distinctMessages, Instant lastSeen) {
	}

	/**
	 * One observed event.
	 * @param key the observation key
	 * @param name the Event's name on the server
	 * @param count its count
	 * @param firstTimestamp its first timestamp
	 * @param lastTimestamp its last timestamp
	 */
	public record ObservedEvent(String key, String name, int count, Instant firstTimestamp, Instant lastTimestamp) {
	}

	/**
	 * One spam-filter bucket.
	 * @param key the spam key
	 * @param tokensLeft tokens available now
	 * @param timeToNextToken zero when a token is available, else the wait for the next one
	 */
	public record SpamBucket(String key, double tokensLeft, Duration timeToNextToken) {
	}

}
