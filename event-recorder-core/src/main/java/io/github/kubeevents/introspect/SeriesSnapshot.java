package io.github.kubeevents.introspect;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

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
	 * @param nextHeartbeat when a heartbeat next writes the count, or {@code null} for a singleton
	 * @param finishesAt when the series is finished (final count written, entry forgotten) if nothing recurs
	 */
	public record Entry(ObjectRef object, String type, String reason, String action, @Nullable String note,
			String name, int count, int countOnServer, Instant lastObserved, @Nullable Instant nextHeartbeat,
			Instant finishesAt) {
	}

}
