package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * The series state of one events.k8s.io/v1 sink (client-go's {@code eventCache} and its {@code finishSeries} /
 * {@code refreshExistingEventSeries} decisions), bounded: the Events written so far by isomorphic key, how often
 * each occurred, and which writes they need. Unlike client-go's unbounded map, it holds at most {@code capacity}
 * entries; the least recently seen one is evicted, with a final write of its count when that is ahead of what was
 * written.
 *
 * <p><b>Every decision is taken here, under this cache's one lock, from the recorded sequence and the series
 * schedule only</b>, never from when a write finished: the first occurrence of a key is a CREATE, the second a
 * PATCH of {@code series.count: 2}, later ones only count; the finish pass ({@link #finish}) removes every entry
 * idle for more than {@link #FINISH_TIME} and returns the final write of each series; the heartbeat pass
 * ({@link #heartbeat}) returns a write of every other series' count. So the same recorded sequence always gives
 * the same requests, however the writer threads are scheduled. Writers report back only what the server has
 * ({@link #written}, for the snapshot) and a single-attempt write that failed ({@link #notWritten}, so that a later
 * flush writes its occurrences).
 *
 * <p>Thread-safe: one lock guards every entry's state; no sink call is made under it.
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
	private record Key(String type, String action, String reason, String reportingController,
			String reportingInstance, V1ObjectReference regarding, @Nullable V1ObjectReference related) {

		static Key of(EventsV1Event event) {
			return new Key(event.getType(), event.getAction(), event.getReason(), event.getReportingController(),
					event.getReportingInstance(), event.getRegarding(), event.getRelated());
		}

	}

	/** One remembered Event; its state is guarded by the cache's lock and never leaves it. */
	private static final class Entry {

		final Key key;

		/** The Event as created: name, namespace, eventTime and note never change (only the series may). */
		final EventsV1Event created;

		final RecordedEvent first;

		/** Whether {@link #created} is named by its stream (deterministic names): its writes go to that Event. */
		final boolean stream;

		RecordedEvent last;

		int count = 1;

		Instant lastObserved;

		/** The count of the latest write handed to the writers. */
		int countSubmitted = 1;

		/** The latest write handed to the writers after its CREATE. */
		@Nullable Write latest;

		/** The highest count the server confirmed (for the snapshot). */
		int countOnServer;

		Entry(Key key, EventsV1Event created, RecordedEvent first, boolean stream) {
			this.key = key;
			this.stream = stream;
			this.created = created;
			this.first = first;
			this.last = first;
			this.lastObserved = first.timestamp();
		}

		boolean isSeries() {
			return this.count > 1;
		}

		Instant idleSince() {
			return isSeries() ? this.lastObserved : this.first.timestamp();
		}

	}

	/** What a write does. */
	enum Kind {

		/** The first occurrence: CREATE, with retries. */
		CREATE,

		/** The second occurrence: the series PATCH, with retries. */
		SERIES,

		/** The final count of a finished, evicted or stopping series, with retries. */
		FINAL,

		/** The heartbeat: the current count, one attempt. */
		HEARTBEAT

	}

	/**
	 * A write the cache decided, immutable: everything the writer needs, read under the lock.
	 * @param entry the entry it belongs to (an opaque handle for {@link #written} and {@link #notWritten})
	 * @param kind what it does
	 * @param created the Event as created
	 * @param recorded the occurrence it stands for in logs and drops (the first for a CREATE, else the latest)
	 * @param count the series count to write (1 for a CREATE)
	 * @param lastObserved when the series last occurred
	 * @param occurrences how many occurrences it newly carries to the server (0 for a repeated final count)
	 * @param previouslySubmitted the count submitted before it
	 * @param stream whether {@code created} is named by its stream (deterministic names), so the write goes through
	 * the stream path
	 */
	record Write(Object entry, Kind kind, EventsV1Event created, RecordedEvent recorded, int count,
			Instant lastObserved, int occurrences, int previouslySubmitted, boolean stream)
			implements SinkWrite {

		/** Whether it writes the series of an Event created before (a PATCH), rather than creating one. */
		@Override
		public boolean repeat() {
			return this.kind != Kind.CREATE;
		}

		@Override
		public int localCount() {
			return this.count;
		}

		@Override
		public int occurrencesIfUnknown() {
			return this.occurrences;
		}

	}

	/** The writes one occurrence needs: its own (or {@code null}) and an evicted series' final one (or {@code null}). */
	record Observation(@Nullable Write write, @Nullable Write evicted) {
	}

	/** An entry's occurrences that no write carries yet, handed over when the sink switches to core/v1. */
	record Unsubmitted(RecordedEvent last, int occurrences) {
	}

	private final int capacity;

	private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

	private long evictions;

	SeriesCache(int capacity) {
		this.capacity = capacity;
	}

	/**
	 * Records one occurrence: the first of a key is a new entry and a CREATE; the second makes it a series and a
	 * PATCH of count 2; later ones only count. When the cache is over capacity the least recently seen entry is
	 * evicted, and a series among them whose count is ahead of what was submitted gets its final write.
	 * @param stream whether {@code event} is named by its stream (deterministic names); a new entry's writes carry
	 * it
	 */
	synchronized Observation observe(EventsV1Event event, RecordedEvent recorded, boolean stream) {
		Key key = Key.of(event);
		Entry entry = this.entries.get(key);
		if (entry == null) {
			entry = new Entry(key, event, recorded, stream);
			this.entries.put(key, entry);
			Write evicted = null;
			if (this.entries.size() > this.capacity) {
				Iterator<Entry> eldest = this.entries.values().iterator();
				Entry gone = eldest.next();
				eldest.remove();
				this.evictions++;
				evicted = (gone.isSeries() && gone.count > gone.countSubmitted) ? submit(gone, Kind.FINAL) : null;
			}
			return new Observation(new Write(entry, Kind.CREATE, entry.created, recorded, 1, entry.lastObserved, 1, 0,
					entry.stream),
					evicted);
		}
		entry.count++;
		entry.last = recorded;
		entry.lastObserved = recorded.timestamp();
		return new Observation((entry.count == 2) ? submit(entry, Kind.SERIES) : null, null);
	}

	/**
	 * The finish pass at {@code now} (client-go's {@code finishSeries}): every entry idle for more than
	 * {@link #FINISH_TIME} is removed; each series among them gets its final write.
	 */
	synchronized List<Write> finish(Instant now) {
		Instant cutoff = now.minus(FINISH_TIME);
		List<Write> writes = new ArrayList<>();
		for (Iterator<Entry> it = this.entries.values().iterator(); it.hasNext();) {
			Entry entry = it.next();
			if (entry.idleSince().isBefore(cutoff)) {
				it.remove();
				if (entry.isSeries()) {
					writes.add(submit(entry, Kind.FINAL));
				}
			}
		}
		return writes;
	}

	/** The heartbeat pass (client-go's {@code refreshExistingEventSeries}): a write of every series' count. */
	synchronized List<Write> heartbeat() {
		List<Write> writes = new ArrayList<>();
		for (Entry entry : this.entries.values()) {
			if (entry.isSeries()) {
				writes.add(submit(entry, Kind.HEARTBEAT));
			}
		}
		return writes;
	}

	/**
	 * The final writes before a stop or shutdown: every series whose count is ahead of what was submitted (the
	 * occurrences since the second one, which only a heartbeat or the finish would write). The entries stay, so a
	 * restarted recorder continues their series.
	 */
	synchronized List<Write> flush() {
		List<Write> writes = new ArrayList<>();
		for (Entry entry : this.entries.values()) {
			if (entry.isSeries() && entry.count > entry.countSubmitted) {
				writes.add(submit(entry, Kind.FINAL));
			}
		}
		return writes;
	}

	/** Every entry's occurrences no write carries, and forgets every entry (the sink switched to core/v1). */
	synchronized List<Unsubmitted> handOver() {
		List<Unsubmitted> result = new ArrayList<>();
		for (Entry entry : this.entries.values()) {
			if (entry.count > entry.countSubmitted) {
				result.add(new Unsubmitted(entry.last, entry.count - entry.countSubmitted));
			}
		}
		this.entries.clear();
		return result;
	}

	private Write submit(Entry entry, Kind kind) {
		int previous = entry.countSubmitted;
		entry.countSubmitted = Math.max(previous, entry.count);
		RecordedEvent recorded = (kind == Kind.CREATE) ? entry.first : entry.last;
		entry.latest = new Write(entry, kind, entry.created, recorded, entry.count, entry.lastObserved,
				Math.max(0, entry.count - previous), previous, entry.stream);
		return entry.latest;
	}

	/** The server confirmed {@code write}'s count. */
	synchronized void written(Write write) {
		written(write, write.count());
	}

	/**
	 * The server answered {@code write} with {@code serverCount} (the deterministic-names mode, where the server's
	 * count includes other processes' occurrences).
	 */
	synchronized void written(Write write, int serverCount) {
		Entry entry = (Entry) write.entry();
		entry.countOnServer = Math.max(entry.countOnServer, serverCount);
	}

	/**
	 * A single-attempt write (a heartbeat) failed or did not run: unless a later write was submitted meanwhile, its
	 * occurrences count as not submitted again, so a flush writes them.
	 * @return {@code false} when no write will carry them: its entry was forgotten meanwhile (finished, evicted or
	 * handed over), so they are lost
	 */
	synchronized boolean notWritten(Write write) {
		Entry entry = (Entry) write.entry();
		if (entry.countSubmitted != write.count()) {
			return true;
		}
		entry.countSubmitted = write.previouslySubmitted();
		// a forgotten series' final write with the same count, submitted after this one, carries them
		return this.entries.get(entry.key) == entry || entry.latest != write;
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

	/**
	 * The entries about the objects {@code filter} accepts, with when each will be written next.
	 * @param nextFinish the next finish pass
	 * @param nextHeartbeat the next heartbeat pass
	 */
	synchronized RecorderSnapshot.SeriesSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter,
			Instant nextFinish, Instant nextHeartbeat) {
		List<RecorderSnapshot.SeriesSnapshot.Entry> result = new ArrayList<>();
		for (Entry entry : this.entries.values()) {
			if (result.size() >= limit) {
				break;
			}
			InvolvedObject regarding = entry.first.regarding();
			RecorderSnapshot.ObjectRef object = new RecorderSnapshot.ObjectRef(regarding.kind(), regarding.namespace(),
					regarding.name());
			if (!filter.test(object)) {
				continue;
			}
			Instant finishesAt = finishPass(entry.idleSince(), nextFinish);
			Instant heartbeat = (entry.isSeries() && nextHeartbeat.isBefore(finishesAt)) ? nextHeartbeat : null;
			result.add(new RecorderSnapshot.SeriesSnapshot.Entry(object, entry.key.type(), entry.key.reason(),
					entry.key.action(), entry.created.getNote(),
					Objects.requireNonNull(entry.created.getMetadata().getName()), entry.count, entry.countOnServer,
					entry.lastObserved, heartbeat, finishesAt));
		}
		return new RecorderSnapshot.SeriesSnapshot(this.entries.size(), this.capacity, result);
	}

	/** The first finish pass, at or after {@code nextFinish}, that sees an entry idle since {@code idleSince}. */
	static Instant finishPass(Instant idleSince, Instant nextFinish) {
		Instant due = idleSince.plus(FINISH_TIME);
		if (nextFinish.isAfter(due)) {
			return nextFinish;
		}
		long periods = Duration.between(nextFinish, due).toNanos() / FINISH_TIME.toNanos() + 1;
		return nextFinish.plus(FINISH_TIME.multipliedBy(periods));
	}

}
