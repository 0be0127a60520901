package io.github.kubeevents.introspect;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A read-only view of an {@code EventBroadcaster} at one moment: lifecycle, queues, counters, subscribers and
 * sinks with their correlation state. Plain records and lower-case string tags (no client-java models, no
 * enums), ready to serialise as JSON.
 *
 * <p>Immutable and thread-safe.
 *
 * @param takenAt when the snapshot was taken (the broadcaster's clock)
 * @param state {@code new}, {@code running}, {@code draining} or {@code terminated}
 * @param queue the incoming queue
 * @param accepted events accepted into the incoming queue so far
 * @param dropped drops so far by reason tag ({@code queue_full}, {@code spam_filtered}, ...), every reason present
 * @param subscribers every active subscriber
 * @param sinks every active sink, with its counters and correlation state
 * @param writeBudget the limit on the sinks' requests, or {@code null} when there is none (the default)
 */
public record RecorderSnapshot(Instant takenAt, String state, QueueSnapshot queue, long accepted,
		Map<String, Long> dropped, List<SubscriberSnapshot> subscribers, List<SinkSnapshot> sinks,
		@Nullable WriteBudgetSnapshot writeBudget) {

	/**
	 * Copies the collections, keeping the order of {@code dropped}.
	 */
	public RecorderSnapshot {
		dropped = Collections.unmodifiableMap(new LinkedHashMap<>(dropped));
		subscribers = List.copyOf(subscribers);
		sinks = List.copyOf(sinks);
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
	 * A queue's fill.
	 * @param depth events waiting
	 * @param capacity maximum events waiting
	 */
	public record QueueSnapshot(int depth, int capacity) {
	}

	/**
	 * One subscriber.
	 * @param name its name
	 * @param depth events waiting in its queue
	 * @param capacity its queue capacity
	 * @param fullQueuePolicy what happens when its queue is full: {@code drop} or {@code wait}
	 * @param dropped events dropped because its queue was full
	 */
	public record SubscriberSnapshot(String name, int depth, int capacity, String fullQueuePolicy, long dropped) {
	}

	/**
	 * One sink.
	 * @param name the subscriber name of the sink
	 * @param api the events API it writes: {@code core/v1} or {@code events.k8s.io/v1}
	 * @param apiReason why that API: {@code configured}, or what discovery found
	 * @param stats its counters
	 * @param correlator its core/v1 correlator's caches, or {@code null} when it has none
	 * @param series its events.k8s.io/v1 series cache, or {@code null} when it has none
	 */
	public record SinkSnapshot(String name, String api, String apiReason, SinkStats stats,
			@Nullable CorrelatorSnapshot correlator,
			@Nullable SeriesSnapshot series) {
	}

}
