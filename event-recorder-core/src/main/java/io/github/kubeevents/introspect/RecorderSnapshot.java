package io.github.kubeevents.introspect;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A read-only view of an {@code EventBroadcaster} at one moment: lifecycle, queues, counters, subscribers and
 * sinks with their correlation state, entry by entry ({@code EventBroadcaster.snapshot(...)}; the counters alone,
 * cheaper, are {@link RecorderStats}). Plain records and lower-case string tags (no client-java models, no enums),
 * ready to serialise as JSON.
 *
 * <p>Immutable and thread-safe.
 *
 * @param takenAt when the snapshot was taken (the broadcaster's clock)
 * @param state {@code new}, {@code running}, {@code stopping}, {@code stopped}, {@code draining} or
 * {@code terminated}
 * @param queue the incoming queue
 * @param accepted events accepted into the incoming queue so far
 * @param dropped drops so far by reason tag ({@code queue_full}, {@code spam_filtered}, ...), every reason present
 * @param subscribers every active subscriber
 * @param sinks every active sink, with its counters and correlation state
 * @param writeBudget the limit on the sinks' requests, or {@code null} when there is none (the default)
 * @param writtenWithoutPatch repeats written as new Events because RBAC refuses {@code patch}
 * ({@link RecorderStats#writtenWithoutPatch()})
 * @param throttledByServer 429 answers by source ({@link RecorderStats#throttledByServer()})
 */
public record RecorderSnapshot(Instant takenAt, String state, RecorderStats.Queue queue, long accepted,
		Map<String, Long> dropped, List<RecorderStats.Subscriber> subscribers, List<SinkSnapshot> sinks,
		RecorderStats.@Nullable WriteBudget writeBudget, long writtenWithoutPatch,
		Map<String, Long> throttledByServer) {

	/**
	 * Copies the collections, keeping the order of {@code dropped} and {@code throttledByServer}.
	 */
	public RecorderSnapshot {
		dropped = Collections.unmodifiableMap(new LinkedHashMap<>(dropped));
		subscribers = List.copyOf(subscribers);
		sinks = List.copyOf(sinks);
		throttledByServer = Collections.unmodifiableMap(new LinkedHashMap<>(throttledByServer));
	}

	/**
	 * Whether the broadcaster distributes events.
	 * @return {@code true} in state {@code running}
	 */
	public boolean running() {
		return "running".equals(this.state);
	}

	/**
	 * Total drops over every reason.
	 * @return the sum
	 */
	public long totalDropped() {
		return this.dropped.values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * One sink.
	 * @param name the subscriber name of the sink
	 * @param api the events API it writes: {@code core/v1} or {@code events.k8s.io/v1}
	 * @param apiReason why that API: {@code configured}, what discovery found, or why {@code auto} switched to
	 * core/v1 (events.k8s.io/v1 refused by RBAC)
	 * @param stats its counters
	 * @param correlator its core/v1 correlator's caches, or {@code null} when it has none
	 * @param series its events.k8s.io/v1 series cache, or {@code null} when it has none
	 * @param missingAccess every verb the access probe found refused, on both APIs and in every namespace it asked
	 * about (the recorder's own namespace at startup, a refused event's namespace after a refusal); empty for a sink
	 * without a probe (an application's own sink)
	 */
	public record SinkSnapshot(String name, String api, String apiReason, RecorderStats.Writes stats,
			@Nullable CorrelatorSnapshot correlator,
			@Nullable SeriesSnapshot series, List<RecorderStats.MissingAccess> missingAccess) {

		/**
		 * Copies the list.
		 */
		public SinkSnapshot {
			missingAccess = List.copyOf(missingAccess);
		}

	}

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
	 * @param heldUpdates Events whose count update waits for the minimum update interval (0 without one)
	 * @param heldOccurrences the occurrences those held updates stand for, not yet on the server
	 */
	public record CorrelatorSnapshot(long aggregatorSize, List<AggregateRecord> aggregateRecords, long observedSize,
			List<ObservedEvent> observedEvents, long spamBucketsSize, List<SpamBucket> spamBuckets, long heldUpdates,
			long heldOccurrences) {

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

	/**
	 * A read-only view of an events.k8s.io/v1 sink's series cache at one moment: the Events it remembers, with their
	 * series counts and when they are next written.
	 *
	 * <p>Immutable and thread-safe.
	 *
	 * @param size entries held
	 * @param capacity the most entries held; beyond it the least recently seen entry is evicted (its final count written
	 * first)
	 * @param entries up to the requested number of entries
	 */
	public record SeriesSnapshot(long size, int capacity, List<Entry> entries) {

		/**
		 * Copies the list.
		 */
		public SeriesSnapshot {
			entries = List.copyOf(entries);
		}

		/**
		 * One remembered Event.
		 * @param object the regarding object
		 * @param type Normal or Warning
		 * @param reason the reason
		 * @param action the action
		 * @param note the note of the first occurrence (may be hidden by the endpoint)
		 * @param name the Event's name on the server
		 * @param count occurrences so far (1 while it is a singleton)
		 * @param countOnServer the series count last written to the server (1 for the create, 0 before it)
		 * @param lastObserved when it last occurred
		 * @param nextHeartbeat when the heartbeat next writes this series' count, if that comes before it is
		 * finished; {@code null} for a singleton or a series that will be finished first
		 * @param finishesAt when this entry ends if nothing recurs: a series' final count is written and the entry
		 * forgotten, a singleton is forgotten (the first finish pass that sees it idle for more than 6 minutes)
		 */
		public record Entry(ObjectRef object, String type, String reason, String action, @Nullable String note,
				String name, int count, int countOnServer, Instant lastObserved, @Nullable Instant nextHeartbeat,
				Instant finishesAt) {
		}

	}

	/**
	 * Which object a snapshot entry is about: kind, namespace and name.
	 *
	 * <p>Immutable and thread-safe.
	 *
	 * @param kind the object's kind, e.g. {@code Pod}
	 * @param namespace its namespace, {@code null} for cluster-scoped objects
	 * @param name its name
	 */
	public record ObjectRef(@Nullable String kind, @Nullable String namespace, String name) {

		/**
		 * Whether this is the object {@code namespace/name}.
		 * @param namespace the namespace, {@code null} or empty for a cluster-scoped object
		 * @param name the name
		 * @return {@code true} when both match
		 */
		public boolean is(@Nullable String namespace, String name) {
			String ns = (namespace == null || namespace.isEmpty()) ? null : namespace;
			return this.name.equals(name) && Objects.equals(this.namespace, ns);
		}

	}

}
