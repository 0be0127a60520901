package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.github.benmanes.caffeine.cache.Cache;

/**
 * The minimum interval between count updates of one core/v1 Event ({@link CorrelatorOptions#minUpdateInterval()};
 * not in client-go, where every repeat is a PATCH at once): a repeat that comes within the interval of its Event's
 * last write is held, and later repeats of that Event join it. What is held is released as one write, carrying the
 * latest correlation (whose count is absolute, so it includes every held occurrence) and how many occurrences it
 * stands for, when the interval ends ({@link #due(Instant)}), before a first write of the same Event, at a stop
 * ({@link #releaseAll()}), or at once when {@code capacity} Events are held already.
 *
 * <p>Memory is bounded: at most {@code capacity} held Events, and the last write times of at most {@code capacity}
 * Events (an Event whose time was evicted is written at once on its next repeat).
 *
 * <p>Not thread-safe: owned by the thread that runs its sink's step (the distribution thread while the sink runs;
 * the sink's ending thread while a run ends, and whoever counts what is held while it is idle: {@link InlineSink}
 * hands it over); only {@link #heldEvents()} and {@link #heldOccurrences()} may be read from other threads (for the
 * snapshot).
 */
final class UpdateCoalescer {

	/**
	 * One write to submit.
	 * @param recorded the latest occurrence it carries
	 * @param result the latest correlation of its Event
	 * @param occurrences the recorded occurrences it stands for (its own and those coalesced into it)
	 * @param first the timestamp of the first of them
	 */
	record Release(RecordedEvent recorded, CorrelationResult result, int occurrences, Instant first) {
	}

	private final Duration interval;

	private final int capacity;

	/** When each Event was last submitted for writing, by {@code namespace/name}. */
	private final Cache<String, Instant> lastWrites;

	/** The held repeats, by {@code namespace/name}, each with the time its interval ends. */
	private final Map<String, Held> held = new LinkedHashMap<>();

	/** Written by the owner thread only; volatile for the snapshot's readers. */
	private volatile int heldOccurrences;

	private volatile int heldEvents;

	UpdateCoalescer(Duration interval, int capacity) {
		this(interval, capacity, capacity);
	}

	/** With the last write times of {@code tracked} Events and at most {@code capacity} held ones. */
	UpdateCoalescer(Duration interval, int tracked, int capacity) {
		this.interval = interval;
		this.capacity = capacity;
		this.lastWrites = Caches.bounded(tracked);
	}

	/** Whether it coalesces anything: a positive interval. */
	boolean enabled() {
		return !this.interval.isZero();
	}

	/** An occurrence ({@code now} its time) passed the correlator: what to write now, in order (empty when held). */
	List<Release> offer(RecordedEvent recorded, CorrelationResult result, Instant now) {
		String key = key(result);
		Held waiting = this.held.get(key);
		if (waiting != null) {
			if (result.isUpdate()) {
				waiting.join(recorded, result);
				this.heldOccurrences++;
				if (now.isBefore(waiting.due)) {
					return List.of();
				}
			}
			this.held.remove(key);
			this.heldEvents = this.held.size();
			this.heldOccurrences -= waiting.occurrences;
			// a new Event under the same name (deterministic names after the correlator forgot it): the held
			// update goes first, then this one
			return result.isUpdate() ? List.of(submitted(key, waiting.release(), now)) : List.of(waiting.release(),
					submitted(key, new Release(recorded, result, 1, recorded.timestamp()), now));
		}
		Instant last = result.isUpdate() ? this.lastWrites.getIfPresent(key) : null;
		if (last != null && now.isBefore(last.plus(this.interval)) && this.held.size() < this.capacity) {
			this.held.put(key, new Held(recorded, result, last.plus(this.interval)));
			this.heldEvents = this.held.size();
			this.heldOccurrences++;
			return List.of();
		}
		return List.of(submitted(key, new Release(recorded, result, 1, recorded.timestamp()), now));
	}

	/** The held writes whose interval has ended at {@code now}, to submit, oldest hold first. */
	List<Release> due(Instant now) {
		if (this.held.isEmpty()) {
			return List.of();
		}
		List<Release> due = new ArrayList<>();
		for (Iterator<Map.Entry<String, Held>> entries = this.held.entrySet().iterator(); entries.hasNext();) {
			Map.Entry<String, Held> entry = entries.next();
			Held waiting = entry.getValue();
			if (!now.isBefore(waiting.due)) {
				entries.remove();
				this.heldEvents = this.held.size();
				this.heldOccurrences -= waiting.occurrences;
				due.add(submitted(entry.getKey(), waiting.release(), now));
			}
		}
		return due;
	}

	/** Everything held, to submit oldest hold first: a stop writes it rather than waiting for the intervals. */
	List<Release> releaseAll() {
		List<Release> all = new ArrayList<>(this.held.size());
		for (Held waiting : this.held.values()) {
			all.add(waiting.release());
		}
		this.held.clear();
		this.heldEvents = this.held.size();
		this.heldOccurrences = 0;
		return all;
	}

	int heldEvents() {
		return this.heldEvents;
	}

	/** Occurrences the held Events stand for. */
	int heldOccurrences() {
		return this.heldOccurrences;
	}

	private Release submitted(String key, Release release, Instant now) {
		this.lastWrites.put(key, now);
		return release;
	}

	private static String key(CorrelationResult result) {
		return result.event().getMetadata().getNamespace() + "/" + result.event().getMetadata().getName();
	}

	/** The repeats of one Event waiting for its interval to end. */
	private static final class Held {

		final Instant due;

		final Instant first;

		RecordedEvent recorded;

		CorrelationResult result;

		int occurrences;

		Held(RecordedEvent recorded, CorrelationResult result, Instant due) {
			this.recorded = recorded;
			this.result = result;
			this.due = due;
			this.first = recorded.timestamp();
			this.occurrences = 1;
		}

		void join(RecordedEvent recorded, CorrelationResult result) {
			this.recorded = recorded;
			this.result = result;
			this.occurrences++;
		}

		Release release() {
			return new Release(this.recorded, this.result, this.occurrences, this.first);
		}

	}

}
