package io.github.kubeevents.introspect;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.FullQueuePolicy;
import io.github.kubeevents.correlator.CorrelatorSnapshot;
import io.github.kubeevents.sink.SinkStats;

/**
 * A read-only view of an {@link io.github.kubeevents.EventBroadcaster} at one moment: queues, drops, sinks and
 * their correlators. Plain records (no client-java models), ready to serialise as JSON.
 *
 * <p>Immutable and thread-safe.
 *
 * @param takenAt when the snapshot was taken
 * @param running whether the broadcaster distributes events (started and not shut down)
 * @param queue the incoming queue
 * @param dropped drops so far by reason tag ({@code queue_full}, {@code spam_filtered}, ...), every reason present
 * @param subscribers every active subscriber
 * @param sinks every sink, with its counters and correlator state
 */
public record RecorderSnapshot(Instant takenAt, boolean running, QueueSnapshot queue, Map<String, Long> dropped,
		List<SubscriberSnapshot> subscribers, List<SinkSnapshot> sinks) {

	/**
	 * Copies the collections, keeping the order of {@code dropped}.
	 */
	public RecorderSnapshot {
		dropped = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(dropped));
		subscribers = List.copyOf(subscribers);
		sinks = List.copyOf(sinks);
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
	 * @param fullQueuePolicy what happens when its queue is full
	 * @param dropped events dropped because its queue was full
	 */
	public record SubscriberSnapshot(String name, int depth, int capacity, FullQueuePolicy fullQueuePolicy,
			long dropped) {
	}

	/**
	 * One sink.
	 * @param name the subscriber name of the sink
	 * @param stats its counters
	 * @param correlator its correlator's caches
	 */
	public record SinkSnapshot(String name, SinkStats stats, CorrelatorSnapshot correlator) {
	}

}
