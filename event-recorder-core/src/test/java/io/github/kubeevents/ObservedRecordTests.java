package io.github.kubeevents;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import io.github.kubeevents.EventObserver.ObservedRecord;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The observer's records hold what the recorder and the API server write (whole UTC seconds, a generated name
 * within an int of nanoseconds of firstTimestamp, a decimal resourceVersion) as numbers, and anything else as
 * given; either way they give back exactly what they were given. The correlator tests check the round trip through
 * {@code correlate}; these check which form a record takes, since a value wrongly parsed would fall back to the
 * form kept as given and only cost memory (the full caches' 2.5 MB bound relies on the compact form).
 */
class ObservedRecordTests {

	private static final OffsetDateTime FIRST = OffsetDateTime.parse("2026-11-30T12:00:00Z");

	private static final long FIRST_NANOS = EventNames.unixNanos(FIRST.toInstant());

	/** firstTimestamps from 1951-12-13T20:45:52Z to 2088-01-19T03:14:07Z are ints of seconds from 2020. */
	private static final long BASE_SECOND = Instant.parse("2020-01-01T00:00:00Z").getEpochSecond();

	@Test
	void whatTheRecorderAndTheServerWriteIsHeldAsNumbers() {
		List<String> names = List.of(EventNames.generate("my-pod", FIRST.toInstant()),
				EventNames.generate("my-pod", FIRST.toInstant().plusNanos(123_456_789)),
				"my-pod." + Long.toHexString(FIRST_NANOS + 999_999_999),
				"my-pod." + Long.toHexString(FIRST_NANOS + Integer.MAX_VALUE),
				"my-pod." + Long.toHexString(FIRST_NANOS + Integer.MIN_VALUE));
		List<String> resourceVersions = Arrays.asList(null, "0", "7", "4711", "123456789012345678");
		for (String name : names) {
			for (String resourceVersion : resourceVersions) {
				for (OffsetDateTime last : List.of(FIRST, FIRST.plusSeconds(1), FIRST.plusSeconds(Integer.MAX_VALUE))) {
					assertCompact(event("my-pod", name, resourceVersion, FIRST, last), true);
				}
			}
		}
	}

	@Test
	void firstTimestampsAtTheIntsEdgesAreNumbersOneSecondBeyondAreNot() {
		for (long offset : new long[] { Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE }) {
			assertCompact(atSecond(BASE_SECOND + offset), true);
		}
		assertCompact(atSecond(BASE_SECOND + Integer.MIN_VALUE - 1L), false);
		assertCompact(atSecond(BASE_SECOND + Integer.MAX_VALUE + 1L), false);
		// the epoch itself, where the generated name's number is that of the name ending in 16 f's
		OffsetDateTime epoch = OffsetDateTime.parse("1970-01-01T00:00:00Z");
		assertCompact(event("my-pod", "my-pod.ffffffffffffffff", "1", epoch, epoch), true);
		assertCompact(event("my-pod", "my-pod.0", "1", epoch, epoch), true);
		assertCompact(event("my-pod", "my-pod.ffffffffffffffff", "1", FIRST, FIRST), false);
		assertCompact(event("my-pod", "other.ffffffffffffffff", "1", epoch, epoch), false);
	}

	@Test
	void namesThatAreNotGeneratedFromTheObjectsNameAreKeptAsGiven() {
		for (String name : Arrays.asList("my-pod." + Long.toHexString(FIRST_NANOS + Integer.MAX_VALUE + 1L),
				"my-pod." + Long.toHexString(FIRST_NANOS + Integer.MIN_VALUE - 1L), "my-pod.0",
				"my-pod.0" + Long.toHexString(FIRST_NANOS), "my-pod." + Long.toHexString(FIRST_NANOS).toUpperCase(),
				"my-pod.1" + Long.toHexString(FIRST_NANOS), "my-pod." + Long.toHexString(FIRST_NANOS) + "g",
				"my-pod." + Long.toHexString(FIRST_NANOS).replace('1', 'g'), "my-pod." + Long.toHexString(FIRST_NANOS).replace('a', '/'),
				"my-pod." + Long.toHexString(FIRST_NANOS).replace('a', ':'), "my-pod." + Long.toHexString(FIRST_NANOS).replace('a', '`'),
				"my-pod.", "my-pod", "my-po", "other." + Long.toHexString(FIRST_NANOS),
				"my-pod-" + Long.toHexString(FIRST_NANOS), "xmy-pod." + Long.toHexString(FIRST_NANOS), "", null)) {
			assertCompact(event("my-pod", name, "1", FIRST, FIRST), false);
		}
	}

	@Test
	void resourceVersionsThatAreNotPlainDecimalsAreKeptAsGiven() {
		for (String resourceVersion : List.of("007", "00", "-1", "", "abc", "12a", "1/2", "1:2",
				"1234567890123456789", "99999999999999999999")) {
			assertCompact(event("my-pod", EventNames.generate("my-pod", FIRST.toInstant()), resourceVersion, FIRST,
					FIRST), false);
		}
	}

	@Test
	void timestampsThatAreNotWholeUtcSecondsAreKeptAsGiven() {
		String name = EventNames.generate("my-pod", FIRST.toInstant());
		assertCompact(event("my-pod", name, "1", FIRST.plusNanos(1), FIRST.plusSeconds(1)), false);
		assertCompact(event("my-pod", name, "1", FIRST.withOffsetSameInstant(ZoneOffset.ofHours(1)), FIRST), false);
		assertCompact(event("my-pod", name, "1", null, FIRST), false);
		assertCompact(event("my-pod", name, "1", FIRST, FIRST.plusNanos(1)), false);
		assertCompact(event("my-pod", name, "1", FIRST, null), false);
		assertCompact(event("my-pod", name, "1", FIRST, FIRST.minusSeconds(1)), true);
		assertCompact(event("my-pod", name, "1", FIRST, FIRST.plusSeconds(Integer.MAX_VALUE + 1L)), false);
		assertCompact(event("my-pod", name, "1", FIRST, FIRST.plusSeconds(Integer.MIN_VALUE)), true);
		assertCompact(event("my-pod", name, "1", FIRST, FIRST.plusSeconds(Integer.MIN_VALUE - 1L)), false);
	}

	@Test
	void aRepeatKeepsTheRecordsFormAndHoldsItsLastTimestampExactly() {
		String name = EventNames.generate("my-pod", FIRST.toInstant());
		CoreV1Event event = event("my-pod", name, "5", FIRST, FIRST);
		ObservedRecord record = stored(event);
		for (OffsetDateTime last : List.of(FIRST.plusSeconds(10), FIRST.plusSeconds(Integer.MAX_VALUE))) {
			record.repeat(event.count(record.count + 1).lastTimestamp(last).message("again " + last), EventSubject.of(event));
			assertThat(record.isCompact()).isTrue();
			assertRecordHolds(record, event);
		}
		// a lastTimestamp with no compact form turns the record into the kept form, and a whole second back
		for (OffsetDateTime last : List.of(FIRST.plusSeconds(20).plusNanos(5), FIRST.plusSeconds(Integer.MAX_VALUE + 1L),
				FIRST.plusSeconds(30))) {
			record.repeat(event.count(record.count + 1).lastTimestamp(last), EventSubject.of(event));
			assertThat(record.isCompact()).as("last %s", last).isEqualTo(last.getNano() == 0 && last.isBefore(FIRST.plusYears(60)));
			assertRecordHolds(record, event);
		}
		ObservedRecord kept = stored(event("my-pod", "server-name", "5", FIRST, FIRST));
		CoreV1Event repeat = event("my-pod", "server-name", "5", FIRST, FIRST.plusSeconds(7)).count(2).message("later");
		kept.repeat(repeat, EventSubject.of(repeat));
		assertThat(kept.isCompact()).isFalse();
		assertRecordHolds(kept, repeat);
	}

	@Test
	void aRepeatOfACompactRecordWithALastTimestampThatHasNoCompactFormIsKeptAsGiven() {
		String name = EventNames.generate("my-pod", FIRST.toInstant());
		for (OffsetDateTime last : Arrays.asList(null, FIRST.plusNanos(1), FIRST.plusSeconds(Integer.MAX_VALUE + 1L),
				FIRST.plusSeconds(Integer.MIN_VALUE - 1L))) {
			CoreV1Event event = event("my-pod", name, "5", FIRST, FIRST);
			ObservedRecord record = stored(event);
			assertThat(record.isCompact()).isTrue();
			record.repeat(event.count(4).lastTimestamp(last).message("again"), EventSubject.of(event));
			assertThat(record.isCompact()).as("last %s", last).isFalse();
			assertRecordHolds(record, event);
		}
	}

	@Test
	void aRepeatForAnotherSubjectStoresTheNameAgainstTheNewSubject() {
		CoreV1Event event = event("my-pod", EventNames.generate("my-pod", FIRST.toInstant()), "5", FIRST, FIRST);
		ObservedRecord record = stored(event);
		CoreV1Event renamed = event("other-pod", EventNames.generate("other-pod", FIRST.toInstant()), "5", FIRST,
				FIRST.plusSeconds(3)).count(2);
		record.repeat(renamed, EventSubject.of(renamed));
		assertThat(record.isCompact()).isTrue();
		assertRecordHolds(record, renamed);
	}

	private static CoreV1Event atSecond(long epochSecond) {
		OffsetDateTime first = OffsetDateTime.ofInstant(Instant.ofEpochSecond(epochSecond), ZoneOffset.UTC);
		return event("my-pod", EventNames.generate("my-pod", first.toInstant().plusNanos(42)), "9", first, first);
	}

	private static CoreV1Event event(String objectName, @Nullable String name, @Nullable String resourceVersion,
			@Nullable OffsetDateTime first, @Nullable OffsetDateTime last) {
		CoreV1Event event = TestEvents.event("BackOff", "Back-off restarting", TestEvents.ref("Pod", objectName, "shop"));
		event.getMetadata().name(name).resourceVersion(resourceVersion);
		return event.firstTimestamp(first).lastTimestamp(last).count(3);
	}

	private static ObservedRecord stored(CoreV1Event event) {
		ObservedRecord record = new ObservedRecord(KeyHash.of("key"));
		record.store(event, EventSubject.of(event), false);
		return record;
	}

	private static void assertCompact(CoreV1Event event, boolean compact) {
		ObservedRecord record = stored(event);
		assertThat(record.isCompact()).as("compact: name %s, resourceVersion %s, first %s, last %s",
				event.getMetadata().getName(), event.getMetadata().getResourceVersion(), event.getFirstTimestamp(),
				event.getLastTimestamp()).isEqualTo(compact);
		assertRecordHolds(record, event);
	}

	private static void assertRecordHolds(ObservedRecord record, CoreV1Event event) {
		String what = "name " + event.getMetadata().getName() + ", first " + event.getFirstTimestamp();
		assertThat(record.name()).as(what).isEqualTo(event.getMetadata().getName());
		assertThat(record.resourceVersion()).as(what).isEqualTo(event.getMetadata().getResourceVersion());
		assertThat(record.firstTimestamp()).as(what).isEqualTo(event.getFirstTimestamp());
		OffsetDateTime last = event.getLastTimestamp();
		assertThat(record.lastTimestamp()).as(what).isEqualTo((last != null) ? last.toInstant() : null);
		assertThat(record.count).isEqualTo(event.getCount());
		assertThat(record.message).isEqualTo(event.getMessage());
	}

}
