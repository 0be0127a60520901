package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.github.kubeevents.introspect.RecorderSnapshot.SeriesSnapshot;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The series cache's decisions on their own, without writer threads: which occurrence becomes which write, with
 * which count, and what the finish, heartbeat, flush, eviction and hand-over passes return. Each write is checked
 * field by field, since the writers send exactly what the cache decided.
 */
class SeriesCacheTests {

	private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");

	private static final EventSource SOURCE = new EventSource("kubelet", "node-1");

	private static RecordedEvent occurrence(String pod, Instant at) {
		return new RecordedEvent(TestEvents.object("Pod", pod, "ns"), null, EventType.WARNING, "BackOff", null,
				"Back-off restarting failed container", Map.of(), SOURCE, at);
	}

	private static SeriesCache.Observation observe(SeriesCache cache, RecordedEvent recorded) {
		EventsV1Event event = EventsV1Events.of(recorded, recorded.message()).event();
		return cache.observe(event, recorded, false);
	}

	/** Observes {@code n} occurrences of {@code pod}, one second apart from {@code from}; returns the last. */
	private static RecordedEvent observeTimes(SeriesCache cache, String pod, Instant from, int n) {
		RecordedEvent last = null;
		for (int i = 0; i < n; i++) {
			last = occurrence(pod, from.plusSeconds(i));
			observe(cache, last);
		}
		return last;
	}

	@Test
	void firstOccurrenceIsACreateTheSecondASeriesPatchLaterOnesOnlyCount() {
		SeriesCache cache = new SeriesCache(10);
		RecordedEvent first = occurrence("web-0", T0);
		SeriesCache.Observation created = observe(cache, first);
		assertThat(created.evicted()).isNull();
		SeriesCache.Write create = created.write();
		assertThat(create.kind()).isEqualTo(SeriesCache.Kind.CREATE);
		assertThat(create.recorded()).isSameAs(first);
		assertThat(create.count()).isEqualTo(1);
		assertThat(create.lastObserved()).isEqualTo(T0);
		assertThat(create.occurrences()).isEqualTo(1);
		assertThat(create.previouslySubmitted()).isZero();
		assertThat(create.created().getMetadata().getName()).isEqualTo("web-0." + Long.toHexString(EventNames.unixNanos(T0)));

		RecordedEvent second = occurrence("web-0", T0.plusSeconds(3));
		SeriesCache.Observation series = observe(cache, second);
		assertThat(series.evicted()).isNull();
		SeriesCache.Write patch = series.write();
		assertThat(patch.kind()).isEqualTo(SeriesCache.Kind.SERIES);
		// the series write stands for the latest occurrence, and keeps the Event as created (its name)
		assertThat(patch.recorded()).isSameAs(second);
		assertThat(patch.created()).isSameAs(create.created());
		assertThat(patch.count()).isEqualTo(2);
		assertThat(patch.lastObserved()).isEqualTo(T0.plusSeconds(3));
		assertThat(patch.occurrences()).isEqualTo(1);
		assertThat(patch.previouslySubmitted()).isEqualTo(1);
		assertThat(patch.entry()).isSameAs(create.entry());

		assertThat(observe(cache, occurrence("web-0", T0.plusSeconds(4)))).isEqualTo(new SeriesCache.Observation(null, null));
		assertThat(observe(cache, occurrence("web-0", T0.plusSeconds(5)))).isEqualTo(new SeriesCache.Observation(null, null));
		assertThat(cache.size()).isEqualTo(1);
	}

	@Test
	void flushWritesOnlySeriesWhoseCountIsAheadOfWhatWasSubmitted() {
		SeriesCache cache = new SeriesCache(10);
		observeTimes(cache, "single", T0, 1);
		observeTimes(cache, "pair", T0, 2);
		assertThat(cache.flush()).as("a singleton and a series at its submitted count 2").isEmpty();

		RecordedEvent third = observeTimes(cache, "triple", T0, 3);
		List<SeriesCache.Write> finals = cache.flush();
		assertThat(finals).hasSize(1);
		SeriesCache.Write write = finals.get(0);
		assertThat(write.kind()).isEqualTo(SeriesCache.Kind.FINAL);
		assertThat(write.recorded()).isSameAs(third);
		assertThat(write.count()).isEqualTo(3);
		assertThat(write.lastObserved()).isEqualTo(T0.plusSeconds(2));
		assertThat(write.occurrences()).isEqualTo(1);
		assertThat(write.previouslySubmitted()).isEqualTo(2);
		assertThat(cache.flush()).as("submitted now").isEmpty();
		assertThat(cache.size()).as("a flush keeps the entries for a restart").isEqualTo(3);
	}

	@Test
	void finishRemovesWhatIsIdleForMoreThanSixMinutesAndWritesEachSeriesFinalCount() {
		SeriesCache cache = new SeriesCache(10);
		observeTimes(cache, "single", T0, 1);
		observe(cache, occurrence("early", T0));
		observe(cache, occurrence("early", T0.plusSeconds(30)));
		observe(cache, occurrence("late", T0));
		observe(cache, occurrence("late", T0.plus(Duration.ofMinutes(5))));

		assertThat(cache.finish(T0.plus(SeriesCache.FINISH_TIME))).as("idle exactly 6 minutes is not more").isEmpty();
		assertThat(cache.size()).isEqualTo(3);

		// a singleton is idle since its occurrence (forgotten without a write), a series since its last one
		List<SeriesCache.Write> finished = cache.finish(T0.plus(Duration.ofMinutes(6)).plusSeconds(31));
		assertThat(finished).hasSize(1);
		SeriesCache.Write write = finished.get(0);
		assertThat(write.kind()).isEqualTo(SeriesCache.Kind.FINAL);
		assertThat(write.recorded().regarding().name()).isEqualTo("early");
		assertThat(write.count()).isEqualTo(2);
		assertThat(write.lastObserved()).isEqualTo(T0.plusSeconds(30));
		// the series PATCH already carried both occurrences
		assertThat(write.occurrences()).isZero();
		assertThat(write.previouslySubmitted()).isEqualTo(2);
		assertThat(cache.size()).isEqualTo(1);

		List<SeriesCache.Write> last = cache.finish(T0.plus(Duration.ofMinutes(11)).plusNanos(1));
		assertThat(last).extracting(SeriesCache.Write::count).containsExactly(2);
		assertThat(last.get(0).recorded().regarding().name()).isEqualTo("late");
		assertThat(cache.size()).isZero();
		assertThat(observe(cache, occurrence("late", T0.plus(Duration.ofMinutes(12)))).write().kind())
			.as("a finished series starts again with a CREATE")
			.isEqualTo(SeriesCache.Kind.CREATE);
	}

	@Test
	void heartbeatWritesEverySeriesCountButNoSingleton() {
		SeriesCache cache = new SeriesCache(10);
		observeTimes(cache, "single", T0, 1);
		RecordedEvent latest = observeTimes(cache, "series", T0, 3);
		List<SeriesCache.Write> beats = cache.heartbeat();
		assertThat(beats).hasSize(1);
		SeriesCache.Write beat = beats.get(0);
		assertThat(beat.kind()).isEqualTo(SeriesCache.Kind.HEARTBEAT);
		assertThat(beat.recorded()).isSameAs(latest);
		assertThat(beat.count()).isEqualTo(3);
		assertThat(beat.occurrences()).isEqualTo(1);
		assertThat(beat.previouslySubmitted()).isEqualTo(2);

		SeriesCache.Write again = cache.heartbeat().get(0);
		assertThat(again.count()).isEqualTo(3);
		assertThat(again.occurrences()).isZero();
		assertThat(again.previouslySubmitted()).isEqualTo(3);
		assertThat(cache.size()).isEqualTo(2);
	}

	@Test
	void aFailedHeartbeatLeavesItsOccurrencesToTheFlush() {
		SeriesCache cache = new SeriesCache(10);
		observeTimes(cache, "series", T0, 3);
		SeriesCache.Write beat = cache.heartbeat().get(0);
		assertThat(cache.flush()).isEmpty();
		assertThat(cache.notWritten(beat)).as("the series holds them again").isTrue();
		List<SeriesCache.Write> finals = cache.flush();
		assertThat(finals).extracting(SeriesCache.Write::count).containsExactly(3);
		assertThat(finals.get(0).occurrences()).isEqualTo(1);
		assertThat(finals.get(0).previouslySubmitted()).isEqualTo(2);
	}

	@Test
	void aFailedHeartbeatDoesNotUndoALaterWrite() {
		SeriesCache cache = new SeriesCache(10);
		observeTimes(cache, "series", T0, 3);
		SeriesCache.Write beat = cache.heartbeat().get(0);
		observe(cache, occurrence("series", T0.plusSeconds(10)));
		assertThat(cache.flush()).extracting(SeriesCache.Write::count).containsExactly(4);
		assertThat(cache.notWritten(beat)).isTrue();
		assertThat(cache.flush()).as("count 4 was submitted after the heartbeat").isEmpty();
	}

	/**
	 * The finish pass removed the series after its heartbeat was submitted, with a final write of the same count:
	 * that write carries the occurrences, so the failed heartbeat loses none.
	 */
	@Test
	void aFailedHeartbeatOfASeriesFinishedMeanwhileLeavesItsOccurrencesToTheFinalWrite() {
		SeriesCache cache = new SeriesCache(10);
		observeTimes(cache, "series", T0, 3);
		SeriesCache.Write beat = cache.heartbeat().get(0);
		List<SeriesCache.Write> finals = cache.finish(T0.plus(SeriesCache.FINISH_TIME).plusSeconds(3));
		assertThat(finals).extracting(SeriesCache.Write::kind, SeriesCache.Write::count)
			.containsExactly(tuple(SeriesCache.Kind.FINAL, 3));
		assertThat(cache.size()).isZero();
		assertThat(cache.notWritten(beat)).as("the final write carries count 3").isTrue();
	}

	/** The series was forgotten while its heartbeat failed (evicted, handed over): nothing will write them. */
	@Test
	void aFailedHeartbeatOfAForgottenSeriesSaysItsOccurrencesAreLost() {
		SeriesCache cache = new SeriesCache(1);
		observeTimes(cache, "series", T0, 3);
		SeriesCache.Write beat = cache.heartbeat().get(0);
		assertThat(observe(cache, occurrence("other", T0.plusSeconds(5))).evicted()).as("its count was submitted")
			.isNull();
		assertThat(cache.notWritten(beat)).isFalse();

		SeriesCache handedOver = new SeriesCache(10);
		observeTimes(handedOver, "series", T0, 3);
		SeriesCache.Write beat2 = handedOver.heartbeat().get(0);
		assertThat(handedOver.handOver()).as("the heartbeat carries them").isEmpty();
		assertThat(handedOver.notWritten(beat2)).isFalse();
	}

	@Test
	void evictionDropsTheLeastRecentlySeenAndWritesTheFinalCountOnlyWhenAhead() {
		SeriesCache cache = new SeriesCache(2);
		RecordedEvent third = observeTimes(cache, "a", T0, 3);
		observeTimes(cache, "b", T0, 1);
		assertThat(cache.evictions()).isZero();

		SeriesCache.Observation c = observe(cache, occurrence("c", T0.plusSeconds(5)));
		assertThat(c.write().kind()).isEqualTo(SeriesCache.Kind.CREATE);
		SeriesCache.Write evicted = c.evicted();
		assertThat(evicted.kind()).isEqualTo(SeriesCache.Kind.FINAL);
		assertThat(evicted.recorded()).isSameAs(third);
		assertThat(evicted.count()).isEqualTo(3);
		assertThat(evicted.occurrences()).isEqualTo(1);
		assertThat(evicted.previouslySubmitted()).isEqualTo(2);
		assertThat(cache.evictions()).isEqualTo(1);
		assertThat(cache.size()).isEqualTo(2);
		assertThat(cache.capacity()).isEqualTo(2);

		// "c" was seen after "b": "b", a singleton, goes next, without a write
		assertThat(observe(cache, occurrence("d", T0.plusSeconds(6))).evicted()).isNull();
		assertThat(cache.evictions()).isEqualTo(2);
		assertThat(observe(cache, occurrence("a", T0.plusSeconds(7))).write().kind())
			.as("an evicted key starts again with a CREATE")
			.isEqualTo(SeriesCache.Kind.CREATE);
		assertThat(cache.evictions()).isEqualTo(3);
	}

	@Test
	void anEvictedSeriesWhoseCountWasSubmittedNeedsNoFinalWrite() {
		SeriesCache cache = new SeriesCache(1);
		observeTimes(cache, "a", T0, 2);
		SeriesCache.Observation b = observe(cache, occurrence("b", T0.plusSeconds(5)));
		assertThat(b.evicted()).isNull();
		assertThat(cache.evictions()).isEqualTo(1);
		assertThat(cache.size()).isEqualTo(1);
	}

	@Test
	void handOverGivesTheOccurrencesNoWriteCarriesAndForgetsEveryEntry() {
		SeriesCache cache = new SeriesCache(10);
		observeTimes(cache, "single", T0, 1);
		observeTimes(cache, "pair", T0, 2);
		RecordedEvent fifth = observeTimes(cache, "five", T0, 5);
		assertThat(cache.handOver()).containsExactly(new SeriesCache.Unsubmitted(fifth, 3));
		assertThat(cache.size()).isZero();
		assertThat(cache.handOver()).isEmpty();
		assertThat(observe(cache, occurrence("five", T0.plusSeconds(9))).write().kind()).isEqualTo(SeriesCache.Kind.CREATE);
	}

	@Test
	void snapshotShowsTheHighestConfirmedCountAndStopsAtTheLimit() {
		SeriesCache cache = new SeriesCache(10);
		SeriesCache.Write create = observe(cache, occurrence("web-0", T0)).write();
		SeriesCache.Write patch = observe(cache, occurrence("web-0", T0.plusSeconds(1))).write();
		observe(cache, occurrence("web-0", T0.plusSeconds(2)));
		observeTimes(cache, "web-1", T0, 1);
		cache.written(patch);
		cache.written(create);

		Instant nextFinish = T0.plus(SeriesCache.FINISH_TIME);
		Instant nextHeartbeat = T0.plus(SeriesCache.REFRESH_TIME);
		SeriesSnapshot snapshot = cache.snapshot(10, (object) -> true, nextFinish, nextHeartbeat);
		assertThat(snapshot.size()).isEqualTo(2);
		assertThat(snapshot.capacity()).isEqualTo(10);
		assertThat(snapshot.entries()).hasSize(2);
		SeriesSnapshot.Entry series = snapshot.entries().get(0);
		assertThat(series).isEqualTo(new SeriesSnapshot.Entry(new ObjectRef("Pod", "ns", "web-0"), "Warning", "BackOff",
				"BackOff", "Back-off restarting failed container", create.created().getMetadata().getName(), 3, 2,
				T0.plusSeconds(2), null, T0.plus(Duration.ofMinutes(12))));

		SeriesSnapshot limited = cache.snapshot(1, (object) -> true, nextFinish, nextHeartbeat);
		assertThat(limited.size()).isEqualTo(2);
		assertThat(limited.entries()).containsExactly(series);
		assertThat(cache.snapshot(10, (object) -> object.is("ns", "web-1"), nextFinish, nextHeartbeat).entries())
			.extracting(SeriesSnapshot.Entry::name)
			.containsExactly("web-1." + Long.toHexString(EventNames.unixNanos(T0)));
	}

}
