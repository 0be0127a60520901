package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.ObjectRef;
import io.github.kubeevents.introspect.SeriesSnapshot;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * The events.k8s.io/v1 event cache of one sink (client-go's {@code eventCache}), bounded: the Events written so
 * far by isomorphic key, with their series state. Unlike client-go's unbounded map, it holds at most
 * {@code capacity} entries; the least recently seen one is evicted, and the caller writes its final count.
 *
 * <p>Every method holds the cache's lock only for the map operation, never during a sink call. Writers commit
 * what the server answered with {@link Entry#version} as a compare-and-set: an entry that changed while the
 * request was in flight is left as it is.
 *
 * <p>Thread-safe.
 */
final class SeriesCache {

	/** client-go's {@code finishTime}: a series idle this long is finished; a singleton this old is forgotten. */
	static final Duration FINISH_TIME = Duration.ofMinutes(6);

	/** client-go's {@code refreshTime}: every series is written this often (heartbeat). */
	static final Duration REFRESH_TIME = Duration.ofMinutes(30);

	/**
	 * client-go's isomorphic key: everything but the note; the whole references, resourceVersion and fieldPath
	 * included, so an object at a new resourceVersion starts a new Event.
	 */
	record Key(String type, String action, String reason, String reportingController, String reportingInstance,
			V1ObjectReference regarding, @Nullable V1ObjectReference related) {

		static Key of(EventsV1Event event) {
			return new Key(event.getType(), event.getAction(), event.getReason(), event.getReportingController(),
					event.getReportingInstance(), event.getRegarding(), event.getRelated());
		}

	}

	/** One remembered Event. Mutable fields are guarded by the cache's lock. */
	static final class Entry {

		final Key key;

		/** The Event as created: name, namespace, eventTime and note never change (only the series may). */
		final EventsV1Event created;

		final RecordedEvent first;

		int count = 1;

		Instant lastObserved;

		int countOnServer;

		long version;

		boolean writeQueued;

		Entry(Key key, EventsV1Event created, RecordedEvent first) {
			this.key = key;
			this.created = created;
			this.first = first;
			this.lastObserved = first.timestamp();
		}

		Instant eventTime() {
			return this.first.timestamp();
		}

	}

	/** What {@link #observe} decided. */
	record Observation(Entry entry, int count, Instant lastObserved, long version, @Nullable Entry evicted) {
	}

	private final int capacity;

	private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

	private long evictions;

	SeriesCache(int capacity) {
		this.capacity = capacity;
	}

	/**
	 * Records one occurrence. The first occurrence of a key is a new entry (count 1: create); the second makes it
	 * a series (count 2: patch); later ones only count.
	 */
	synchronized Observation observe(EventsV1Event event, RecordedEvent recorded) {
		Key key = Key.of(event);
		Entry entry = this.entries.get(key);
		Entry evicted = null;
		if (entry == null) {
			entry = new Entry(key, event, recorded);
			this.entries.put(key, entry);
			if (this.entries.size() > this.capacity) {
				Iterator<Entry> eldest = this.entries.values().iterator();
				evicted = eldest.next();
				eldest.remove();
				this.evictions++;
			}
		}
		else {
			entry.count++;
			entry.lastObserved = recorded.timestamp();
			entry.version++;
		}
		return new Observation(entry, entry.count, entry.lastObserved, entry.version, evicted);
	}

	/** After a successful write of {@code count}: the server has at least that count. */
	synchronized void written(Entry entry, int count) {
		entry.countOnServer = Math.max(entry.countOnServer, count);
	}

	/** Removes {@code entry} when it has not changed since {@code version} (a compare-and-set). */
	synchronized boolean removeIfUnchanged(Entry entry, long version) {
		if (entry.version != version || this.entries.get(entry.key) != entry) {
			return false;
		}
		this.entries.remove(entry.key);
		return true;
	}

	synchronized void writeDone(Entry entry) {
		entry.writeQueued = false;
	}

	/**
	 * The series to finish now and forgets idle singletons (client-go's {@code finishSeries}): series last observed
	 * more than {@link #FINISH_TIME} before {@code now} are returned (marked as having a write queued), singletons
	 * recorded more than that before {@code now} are removed.
	 */
	synchronized List<Observation> finish(Instant now) {
		Instant cutoff = now.minus(FINISH_TIME);
		List<Observation> due = new ArrayList<>();
		for (Iterator<Entry> it = this.entries.values().iterator(); it.hasNext();) {
			Entry entry = it.next();
			if (entry.count == 1) {
				if (entry.eventTime().isBefore(cutoff)) {
					it.remove();
				}
			}
			else if (entry.lastObserved.isBefore(cutoff) && !entry.writeQueued) {
				entry.writeQueued = true;
				due.add(new Observation(entry, entry.count, entry.lastObserved, entry.version, null));
			}
		}
		return due;
	}

	/** Every series, for the heartbeat (client-go's {@code refreshExistingEventSeries}). */
	synchronized List<Observation> series() {
		List<Observation> result = new ArrayList<>();
		for (Entry entry : this.entries.values()) {
			if (entry.count > 1 && !entry.writeQueued) {
				entry.writeQueued = true;
				result.add(new Observation(entry, entry.count, entry.lastObserved, entry.version, null));
			}
		}
		return result;
	}

	synchronized int size() {
		return this.entries.size();
	}

	synchronized long evictions() {
		return this.evictions;
	}

	int capacity() {
		return this.capacity;
	}

	synchronized SeriesSnapshot snapshot(int limit, Predicate<ObjectRef> filter, Instant nextHeartbeat,
			Instant nextFinish) {
		List<SeriesSnapshot.Entry> result = new ArrayList<>();
		for (Map.Entry<Key, Entry> mapEntry : this.entries.entrySet()) {
			if (result.size() >= limit) {
				break;
			}
			Entry entry = mapEntry.getValue();
			InvolvedObject regarding = entry.first.regarding();
			ObjectRef object = new ObjectRef(regarding.kind(), regarding.namespace(), regarding.name());
			if (!filter.test(object)) {
				continue;
			}
			Instant idleSince = (entry.count > 1) ? entry.lastObserved : entry.eventTime();
			result.add(new SeriesSnapshot.Entry(object, entry.key.type(), entry.key.reason(), entry.key.action(),
					entry.created.getNote(), Objects.requireNonNull(entry.created.getMetadata().getName()), entry.count,
					entry.countOnServer, entry.lastObserved, (entry.count > 1) ? nextHeartbeat : null,
					finishRun(idleSince, nextFinish)));
		}
		return new SeriesSnapshot(this.entries.size(), this.capacity, result);
	}

	/** The first finish run that sees the entry idle for longer than {@link #FINISH_TIME}. */
	private static Instant finishRun(Instant idleSince, Instant nextFinish) {
		Instant run = nextFinish;
		Instant due = idleSince.plus(FINISH_TIME);
		while (!run.isAfter(due)) {
			run = run.plus(FINISH_TIME);
		}
		return run;
	}

}
