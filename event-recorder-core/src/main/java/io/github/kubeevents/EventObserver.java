package io.github.kubeevents;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * client-go's {@code eventLogger} ({@code eventObserve}): remembers, per key, the count, first timestamp, name
 * and resourceVersion of the Event last written. A repeat becomes an update of that Event: same name and
 * firstTimestamp, count + 1, and a patch of {@code count}, {@code lastTimestamp} and {@code message}.
 *
 * <p>Records are keyed by the {@link KeyHash} of the key (see there for why that decides the same), are their own
 * cache keys and are updated in place. They hold the fields compactly and give back equal values: timestamps in
 * whole UTC seconds as numbers, a decimal resourceVersion as a number, a generated name
 * ({@code <object>.<hex>}) as its number with the object name shared with the entry's {@link EventSubject}; any
 * other values are kept as given.
 *
 * <p>Thread-safe.
 */
final class EventObserver {

	private final Cache<KeyHash, ObservedRecord> records;

	/** Hashes the keys; guarded by this observer's lock. */
	private final KeyHash.Builder key = new KeyHash.Builder();

	EventObserver(CorrelatorOptions options) {
		this.records = Caches.bounded(options.cacheSize());
	}

	/**
	 * Observes one event.
	 * @param event the event from the aggregator (not modified)
	 * @return a copy of the event, turned into an update when the key was seen before, and the patch
	 */
	synchronized Observation observe(CoreV1Event event, KeyHash key, EventSubject subject) {
		CoreV1Event observed = CoreV1Events.copy(event);
		V1ObjectMeta metadata = Objects.requireNonNull(observed.getMetadata(), "event has no metadata");
		EventSink.CountPatch patch = null;
		ObservedRecord record = this.records.getIfPresent(key);
		if (record != null && record.count > 0) {
			int count = record.count + 1;
			metadata.setName(record.name());
			metadata.setResourceVersion(record.resourceVersion());
			observed.setFirstTimestamp(record.firstTimestamp());
			observed.setCount(count);
			patch = new EventSink.CountPatch(count, observed.getLastTimestamp(), observed.getMessage());
		}
		if (record == null) {
			record = new ObservedRecord(key);
			this.records.put(record, record);
		}
		if (patch != null) {
			record.repeat(observed, subject);
		}
		else {
			record.store(observed, subject, false);
		}
		return new Observation(observed, patch);
	}

	/**
	 * Stores what the server returned for a written event, under its full event key (client-go's
	 * {@code UpdateState}). Writes run on the sink's writer threads, so later occurrences of the same event may
	 * have been observed (and counted, even if the spam filter then dropped them) while this write was in flight:
	 * the higher count stays, so the next PATCH carries it as in client-go, where the state is updated before the
	 * next event is observed.
	 * @param serverEvent the Event the API server returned
	 */
	synchronized void updateState(CoreV1Event serverEvent) {
		EventKeys.writeEventKey(serverEvent, this.key.reset());
		KeyHash key = this.key.build();
		String name = Objects.requireNonNull(serverEvent.getMetadata(), "event has no metadata").getName();
		ObservedRecord record = this.records.getIfPresent(key);
		boolean keepHigherCount = record != null && record.count > ObservedRecord.count(serverEvent)
				&& Objects.equals(record.name(), name);
		if (record == null) {
			record = new ObservedRecord(key);
			this.records.put(record, record);
		}
		record.store(serverEvent, EventSubject.of(serverEvent, record.subject), keepHigherCount);
	}

	synchronized List<CorrelatorSnapshot.ObservedEvent> snapshot(int limit, Predicate<ObjectRef> filter) {
		List<CorrelatorSnapshot.ObservedEvent> result = new ArrayList<>();
		for (ObservedRecord record : this.records.asMap().values()) {
			if (result.size() >= limit) {
				break;
			}
			ObjectRef object = record.subject.object();
			if (filter.test(object)) {
				OffsetDateTime first = record.firstTimestamp();
				result.add(new CorrelatorSnapshot.ObservedEvent(object, record.subject.type(), record.subject.reason(),
						record.message, record.name(), record.count, (first != null) ? first.toInstant() : null,
						record.lastTimestamp()));
			}
		}
		return result;
	}

	long size() {
		this.records.cleanUp();
		return this.records.estimatedSize();
	}

	/**
	 * The result of {@link #observe(CoreV1Event, KeyHash, EventSubject)}.
	 * @param event the event to write
	 * @param patch the patch when the event updates an earlier one, otherwise {@code null}
	 */
	record Observation(CoreV1Event event, EventSink.CountPatch patch) {
	}

	/**
	 * The Event last written under a key: count, firstTimestamp, name and resourceVersion (what a repeat reuses),
	 * plus lastTimestamp, message and subject for the snapshot. Guarded by the observer's lock.
	 *
	 * <p>Compact form, for what the recorder and the API server write: firstTimestamp a whole UTC second
	 * between 1952 and 2088, lastTimestamp a whole second at most 68 years from it, a generated name
	 * ({@code <subject name>.<hex Unix nanoseconds>}) within two seconds of firstTimestamp, and a decimal (or no)
	 * resourceVersion are kept as numbers. Any other value keeps all four as given, in {@link #exact}.
	 */
	static final class ObservedRecord extends KeyHash {

		private static final long NO_NUMBER = -1;

		/** 2020-01-01T00:00:00Z: firstTimestamps from 1952 to 2088 fit in an int of seconds from here. */
		private static final long BASE_SECOND = 1_577_836_800L;

		private static final long NANOS_PER_SECOND = 1_000_000_000L;

		int count;

		/** lastTimestamp minus firstTimestamp, in seconds. */
		int lastOffset;

		/** firstTimestamp in seconds since {@link #BASE_SECOND}. */
		int firstOffset;

		/** The hex number at the end of a generated name (Unix nanoseconds) minus firstTimestamp's. */
		int nameOffset;

		/** The resourceVersion, {@link #NO_NUMBER} for none. */
		long resourceVersionNumber;

		@Nullable String message;

		EventSubject subject;

		/** The four values as given when one of them has no compact form, else {@code null}. */
		@Nullable Exact exact;

		ObservedRecord(KeyHash key) {
			super(key);
		}

		static int count(CoreV1Event event) {
			return (event.getCount() != null) ? event.getCount() : 0;
		}

		/**
		 * Stores an event's fields; with {@code keepCount}, the count, lastTimestamp and message stay.
		 */
		void store(CoreV1Event event, EventSubject eventSubject, boolean keepCount) {
			Instant last;
			if (keepCount) {
				last = lastTimestamp();
			}
			else {
				OffsetDateTime lastTimestamp = event.getLastTimestamp();
				last = (lastTimestamp != null) ? lastTimestamp.toInstant() : null;
				this.count = count(event);
				this.message = event.getMessage();
			}
			this.subject = eventSubject.or(this.subject);
			V1ObjectMeta metadata = event.getMetadata();
			store(event.getFirstTimestamp(), last, metadata.getName(), metadata.getResourceVersion());
		}

		/**
		 * Stores a repeat: its name, resourceVersion and firstTimestamp are this record's, so unless the subject
		 * changed (the name is stored relative to it) only the count, lastTimestamp and message are new.
		 */
		void repeat(CoreV1Event event, EventSubject eventSubject) {
			OffsetDateTime last = event.getLastTimestamp();
			EventSubject shared = eventSubject.or(this.subject);
			if (shared != this.subject || this.exact != null || last == null || last.getNano() != 0
					|| !fitsInt(last.toEpochSecond() - firstSecond())) {
				store(event, eventSubject, false);
				return;
			}
			this.count = count(event);
			this.message = event.getMessage();
			this.lastOffset = (int) (last.toEpochSecond() - firstSecond());
		}

		/** Call after the subject is set: a generated name is stored relative to the subject's name. */
		private void store(@Nullable OffsetDateTime first, @Nullable Instant last, @Nullable String name,
				@Nullable String resourceVersion) {
			long nameNumber = generatedNameNumber(name);
			long resourceVersionNumber = (resourceVersion != null) ? decimal(resourceVersion) : NO_NUMBER;
			long firstSecond = (first != null) ? first.toEpochSecond() : 0;
			if (first != null && first.getNano() == 0 && ZoneOffset.UTC.equals(first.getOffset())
					&& fitsInt(firstSecond - BASE_SECOND) && last != null && last.getNano() == 0
					&& fitsInt(last.getEpochSecond() - firstSecond) && (nameNumber != NO_NUMBER || isGeneratedName(name))
					&& fitsInt(nameNumber - firstSecond * NANOS_PER_SECOND)
					&& (resourceVersionNumber != NO_NUMBER || resourceVersion == null)) {
				this.firstOffset = (int) (firstSecond - BASE_SECOND);
				this.lastOffset = (int) (last.getEpochSecond() - firstSecond);
				this.nameOffset = (int) (nameNumber - firstSecond * NANOS_PER_SECOND);
				this.resourceVersionNumber = resourceVersionNumber;
				this.exact = null;
			}
			else {
				this.exact = new Exact(first, last, name, resourceVersion);
			}
		}

		/**
		 * Whether the record holds its four values in the compact form; tests check that what the recorder and
		 * the API server write takes it.
		 */
		boolean isCompact() {
			return this.exact == null;
		}

		@Nullable OffsetDateTime firstTimestamp() {
			return (this.exact != null) ? this.exact.firstTimestamp() : CoreV1Events.timestamp(firstSecond());
		}

		@Nullable Instant lastTimestamp() {
			return (this.exact != null) ? this.exact.lastTimestamp()
					: Instant.ofEpochSecond(firstSecond() + this.lastOffset);
		}

		@Nullable String name() {
			if (this.exact != null) {
				return this.exact.name();
			}
			String prefix = this.subject.name();
			int dot = prefix.length();
			long number = firstSecond() * NANOS_PER_SECOND + this.nameOffset;
			int digits = Math.max(1, (67 - Long.numberOfLeadingZeros(number)) / 4);
			char[] name = new char[dot + 1 + digits];
			prefix.getChars(0, dot, name, 0);
			name[dot] = '.';
			for (int i = name.length - 1; i > dot; i--) {
				name[i] = Character.forDigit((int) (number & 0xf), 16);
				number >>>= 4;
			}
			return new String(name);
		}

		@Nullable String resourceVersion() {
			if (this.exact != null) {
				return this.exact.resourceVersion();
			}
			return (this.resourceVersionNumber != NO_NUMBER) ? Long.toString(this.resourceVersionNumber) : null;
		}

		private long firstSecond() {
			return BASE_SECOND + this.firstOffset;
		}

		private static boolean fitsInt(long value) {
			return value == (int) value;
		}

		/**
		 * The number of a generated name ({@code <subject name>.<hex>}, the hex as {@link Long#toHexString} writes
		 * it), else {@link #NO_NUMBER}, which is also the number of the name ending in {@code .ffffffffffffffff}.
		 */
		private long generatedNameNumber(@Nullable String name) {
			String prefix = this.subject.name();
			int dot = prefix.length();
			if (name == null || name.length() <= dot + 1 || name.length() > dot + 17 || name.charAt(dot) != '.'
					|| !name.startsWith(prefix) || (name.charAt(dot + 1) == '0' && name.length() > dot + 2)) {
				return NO_NUMBER;
			}
			long number = 0;
			for (int i = dot + 1; i < name.length(); i++) {
				char c = name.charAt(i);
				int digit = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
				if (digit < 0) {
					return NO_NUMBER;
				}
				number = (number << 4) | digit;
			}
			return number;
		}

		private boolean isGeneratedName(@Nullable String name) {
			return name != null && name.equals(this.subject.name() + ".ffffffffffffffff");
		}

		/**
		 * The value of 1 to 18 decimal digits without a leading zero (what {@link Long#toString(long)} writes for
		 * a non-negative number), else {@link #NO_NUMBER}.
		 */
		private static long decimal(String value) {
			int length = value.length();
			if (length == 0 || length > 18 || (value.charAt(0) == '0' && length > 1)) {
				return NO_NUMBER;
			}
			long number = 0;
			for (int i = 0; i < length; i++) {
				char c = value.charAt(i);
				if (c < '0' || c > '9') {
					return NO_NUMBER;
				}
				number = number * 10 + (c - '0');
			}
			return number;
		}

		/** The values with no compact form, as given. */
		private record Exact(@Nullable OffsetDateTime firstTimestamp, @Nullable Instant lastTimestamp,
				@Nullable String name, @Nullable String resourceVersion) {
		}

	}

}
