package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * The nine scenarios of client-go's TestEventCorrelator (events_cache_test.go), with a clock that advances by
 * the scenario's interval on every read, previous events replayed and UpdateState called for each one that was
 * not skipped.
 */
class EventCorrelatorTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private final CoreV1Event firstEvent = TestEvents.event("first", "i am first", TestEvents.ref("Pod", "my-pod", "my-ns"));

	private final CoreV1Event duplicateEvent = TestEvents.event("duplicate", "me again", TestEvents.ref("Pod", "my-pod", "my-ns"));

	private final CoreV1Event uniqueEvent = TestEvents.event("unique", "snowflake", TestEvents.ref("Pod", "my-pod", "my-ns"));

	private CoreV1Event similarEvent() {
		CoreV1Event event = TestEvents.event("similar", "similar message", TestEvents.ref("Pod", "my-pod", "my-ns"));
		event.getInvolvedObject().setFieldPath("spec.containers{container1}");
		return event;
	}

	private CoreV1Event similarButDifferentContainerEvent() {
		CoreV1Event event = similarEvent();
		event.getInvolvedObject().setFieldPath("spec.containers{container2}");
		return event;
	}

	private static List<CoreV1Event> repeat(int n, CoreV1Event event) {
		List<CoreV1Event> events = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			events.add(TestEvents.copy(event));
		}
		return events;
	}

	private static List<CoreV1Event> unique(int n) {
		List<CoreV1Event> events = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			events.add(TestEvents.event("reason-" + i, "message-" + i, TestEvents.ref("Pod", "my-pod", "my-ns")));
		}
		return events;
	}

	private static List<CoreV1Event> similar(int n, CoreV1Event template) {
		List<CoreV1Event> events = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			CoreV1Event event = TestEvents.copy(template);
			event.setMessage(template.getMessage() + i);
			events.add(event);
		}
		return events;
	}

	private static CorrelationResult run(List<CoreV1Event> previous, CoreV1Event newEvent, int intervalSeconds) {
		return run(previous, newEvent, intervalSeconds, null);
	}

	private static CorrelationResult run(List<CoreV1Event> previous, CoreV1Event newEvent, int intervalSeconds,
			Function<CoreV1Event, String> aggregateNames) {
		TickingClock clock = new TickingClock(START, Duration.ofSeconds(intervalSeconds));
		EventCorrelator correlator = new EventCorrelator(CorrelatorOptions.builder().clock(clock).build(),
				aggregateNames);
		for (CoreV1Event event : previous) {
			CorrelationResult result = correlator.correlate(event);
			if (!result.skip()) {
				correlator.updateState(result.event());
			}
		}
		return correlator.correlate(newEvent);
	}

	@Test
	void createASingleEvent() {
		CorrelationResult result = run(List.of(), this.firstEvent, 5);
		assertThat(result.skip()).isFalse();
		assertThat(result.event().getCount()).isEqualTo(1);
		assertThat(result.event().getReason()).isEqualTo("first");
		assertThat(result.event().getMessage()).isEqualTo("i am first");
		assertThat(result.patch()).isNull();
		assertThat(result.isUpdate()).isFalse();
	}

	@Test
	void theSameEventShouldJustCount() {
		CorrelationResult result = run(repeat(1, this.duplicateEvent), this.duplicateEvent, 5);
		assertThat(result.skip()).isFalse();
		assertThat(result.event().getCount()).isEqualTo(2);
		assertThat(result.event().getMessage()).isEqualTo("me again");
		assertThat(result.isUpdate()).isTrue();
		assertThat(result.patch()).isEqualTo(new EventSink.CountPatch(2, result.event().getLastTimestamp(), "me again"));
	}

	@Test
	void theSameEventShouldJustCountEvenIfMoreThanAggregate() {
		CorrelationResult result = run(repeat(10, this.duplicateEvent), this.duplicateEvent, 30);
		assertThat(result.skip()).isFalse();
		assertThat(result.event().getCount()).isEqualTo(11);
		assertThat(result.event().getMessage()).isEqualTo("me again");
	}

	@Test
	void theSameEventIsSpamIfItHappensTooFrequently() {
		CorrelationResult result = run(repeat(26, this.duplicateEvent), this.duplicateEvent, 1);
		assertThat(result.skip()).isTrue();
	}

	@Test
	void createManyUniqueEvents() {
		CorrelationResult result = run(unique(30), this.uniqueEvent, 5);
		assertThat(result.skip()).isFalse();
		assertThat(result.event().getCount()).isEqualTo(1);
		assertThat(result.event().getReason()).isEqualTo("unique");
	}

	@Test
	void similarEventsShouldAggregate() {
		CoreV1Event similar = similarEvent();
		CorrelationResult result = run(similar(9, similar), similar, 5);
		assertThat(result.skip()).isFalse();
		assertThat(result.event().getCount()).isEqualTo(1);
		assertThat(result.event().getMessage()).isEqualTo("(combined from similar events): similar message");
		assertThat(result.event().getReason()).isEqualTo("similar");
		assertThat(result.event().getInvolvedObject()).isEqualTo(similar.getInvolvedObject());
		assertThat(result.event().getMetadata().getName()).startsWith("my-pod.");
		assertThat(result.event().getMetadata().getNamespace()).isEqualTo("my-ns");
		assertThat(result.event().getFirstTimestamp()).isEqualTo(result.event().getLastTimestamp());
	}

	/**
	 * The deterministic-names mode names a new aggregate Event, and nothing else; no name from it keeps the
	 * generated one.
	 */
	@Test
	void aNewAggregateIsNamedByTheAggregateNamesAlone() {
		CoreV1Event similar = similarEvent();
		List<String> named = new ArrayList<>();
		Function<CoreV1Event, String> names = (event) -> {
			named.add(event.getMessage());
			return "my-pod.aggregate";
		};
		assertThat(run(similar(8, similar), similar, 5, names).event().getMetadata().getName()).isEqualTo("name");
		assertThat(named).isEmpty();
		CorrelationResult aggregate = run(similar(9, similar), similar, 5, names);
		assertThat(aggregate.event().getMetadata().getName()).isEqualTo("my-pod.aggregate");
		assertThat(named).containsExactly("(combined from similar events): similar message");
		assertThat(run(similar(9, similar), similar, 5, (event) -> null).event().getMetadata().getName())
			.matches("my-pod\\.[0-9a-f]+");
	}

	@Test
	void similarEventsManyTimesShouldCountTheAggregate() {
		CoreV1Event similar = similarEvent();
		CorrelationResult result = run(similar(10, similar), similar, 5);
		assertThat(result.skip()).isFalse();
		assertThat(result.event().getCount()).isEqualTo(2);
		assertThat(result.event().getMessage()).isEqualTo("(combined from similar events): similar message");
		assertThat(result.patch()).isEqualTo(new EventSink.CountPatch(2, result.event().getLastTimestamp(),
				"(combined from similar events): similar message"));
	}

	@Test
	void eventsFromDifferentContainersDoNotAggregate() {
		CoreV1Event similar = similarEvent();
		CorrelationResult result = run(List.of(similarButDifferentContainerEvent()), similar, 5);
		assertThat(result.skip()).isFalse();
		assertThat(result.event().getCount()).isEqualTo(1);
		assertThat(result.event().getMessage()).isEqualTo("similar message");
		assertThat(result.event().getInvolvedObject().getFieldPath()).isEqualTo("spec.containers{container1}");
	}

	@Test
	void similarEventsWhoseIntervalIsGreaterThanTheAggregateIntervalDoNotAggregate() {
		CoreV1Event similar = similarEvent();
		CorrelationResult result = run(similar(9, similar), similar, 600);
		assertThat(result.skip()).isFalse();
		assertThat(result.event().getCount()).isEqualTo(1);
		assertThat(result.event().getMessage()).isEqualTo("similar message");
	}

	@Test
	void theAggregateEventKeepsTheOriginalsRelatedTypeActionSourceAndReportingFields() {
		Instant now = START.plusNanos(123_456_789);
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(TickingClock.fixed(now)).build());
		CoreV1Event template = similarEvent();
		template.type("Warning")
			.action("Pulling")
			.related(TestEvents.ref("Node", "node-1", null))
			.reportingComponent("kubelet")
			.reportingInstance("kubelet-node1");
		CorrelationResult result = null;
		for (CoreV1Event event : similar(10, template)) {
			result = correlator.correlate(event);
		}
		OffsetDateTime second = OffsetDateTime.of(2026, 11, 30, 12, 0, 0, 0, ZoneOffset.UTC);
		assertThat(result.event()).isEqualTo(new CoreV1Event()
			.metadata(new V1ObjectMeta().name("my-pod." + Long.toHexString(EventNames.unixNanos(now))).namespace("my-ns"))
			.involvedObject(similarEvent().getInvolvedObject())
			.related(TestEvents.ref("Node", "node-1", null))
			.type("Warning")
			.reason("similar")
			.action("Pulling")
			.message("(combined from similar events): similar message9")
			.source(new V1EventSource().component("kubelet").host("kublet.node1"))
			.reportingComponent("kubelet")
			.reportingInstance("kubelet-node1")
			.count(1)
			.firstTimestamp(second)
			.lastTimestamp(second));
		assertThat(result.patch()).isNull();
	}

	@Test
	void anEventWithoutSourceAggregatesToOneWithoutSource() {
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(TickingClock.fixed(START)).build());
		CoreV1Event template = similarEvent().source(null);
		CorrelationResult result = null;
		for (CoreV1Event event : similar(10, template)) {
			result = correlator.correlate(event);
		}
		assertThat(result.event().getMessage()).isEqualTo("(combined from similar events): similar message9");
		assertThat(result.event().getSource()).isNull();
		assertThat(result.event().getReportingComponent()).isNull();
	}

	@Test
	void similarEventsExactlyOneWindowApartStillAggregateOneNanosecondMoreDoNot() {
		for (Duration gap : List.of(CorrelatorOptions.DEFAULT_AGGREGATE_INTERVAL,
				CorrelatorOptions.DEFAULT_AGGREGATE_INTERVAL.plusNanos(1))) {
			TickingClock clock = TickingClock.fixed(START);
			EventCorrelator correlator = new EventCorrelator(CorrelatorOptions.builder().clock(clock).build());
			List<CoreV1Event> events = similar(10, similarEvent());
			for (CoreV1Event event : events.subList(0, 9)) {
				correlator.correlate(event);
			}
			clock.advance(gap);
			String message = correlator.correlate(events.get(9)).event().getMessage();
			assertThat(message).as("after %s", gap)
				.isEqualTo(gap.equals(Duration.ofSeconds(600)) ? "(combined from similar events): similar message9"
						: "similar message9");
		}
	}

	@Test
	void aStoredEventWithoutACountStartsOverWithACreate() {
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(TickingClock.fixed(START)).build());
		CoreV1Event stored = TestEvents.copy(correlator.correlate(TestEvents.copy(this.duplicateEvent)).event());
		stored.getMetadata().name("server-name").resourceVersion("5");
		stored.setCount(null);
		correlator.updateState(stored);
		CorrelationResult next = correlator.correlate(TestEvents.copy(this.duplicateEvent));
		assertThat(next.patch()).isNull();
		assertThat(next.event().getCount()).isEqualTo(1);
		assertThat(next.event().getMetadata().getName()).isEqualTo("name");
		assertThat(next.event().getMetadata().getResourceVersion()).isNull();
	}

	@Test
	void aServerAnswerForAnEarlierCountKeepsTheHigherCountObservedMeanwhile() {
		// the create's answer arrives after the repeat was observed (writes run on the writer threads)
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(TickingClock.fixed(START)).build());
		CorrelationResult create = correlator.correlate(TestEvents.copy(this.duplicateEvent));
		assertThat(correlator.correlate(TestEvents.copy(this.duplicateEvent)).event().getCount()).isEqualTo(2);
		CoreV1Event answer = TestEvents.copy(create.event());
		answer.getMetadata().setResourceVersion("5");
		correlator.updateState(answer);
		CorrelationResult third = correlator.correlate(TestEvents.copy(this.duplicateEvent));
		assertThat(third.event().getCount()).isEqualTo(3);
		assertThat(third.event().getMetadata().getName()).isEqualTo("name");
		assertThat(third.event().getMetadata().getResourceVersion()).isEqualTo("5");
		assertThat(third.patch()).isEqualTo(new EventSink.CountPatch(3, third.event().getLastTimestamp(), "me again"));
	}

	@Test
	void aServerAnswerWithTheSameCountReplacesTheObservedLastTimestamp() {
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(TickingClock.fixed(START)).build());
		CorrelationResult create = correlator.correlate(TestEvents.copy(this.duplicateEvent));
		CoreV1Event answer = TestEvents.copy(create.event());
		answer.getMetadata().setResourceVersion("5");
		answer.lastTimestamp(answer.getLastTimestamp().plusSeconds(5));
		correlator.updateState(answer);
		List<CorrelatorSnapshot.ObservedEvent> observed = correlator.snapshot(10, (object) -> true).observedEvents();
		assertThat(observed).singleElement().satisfies((event) -> {
			assertThat(event.count()).isEqualTo(1);
			assertThat(event.lastTimestamp()).isEqualTo(answer.getLastTimestamp().toInstant());
		});
	}

	@Test
	void aServerAnswerForAnotherEventReplacesWhatWasObserved() {
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(TickingClock.fixed(START)).build());
		CorrelationResult create = correlator.correlate(TestEvents.copy(this.duplicateEvent));
		correlator.correlate(TestEvents.copy(this.duplicateEvent));
		CoreV1Event recreated = TestEvents.copy(create.event());
		recreated.getMetadata().name("name.recreated").resourceVersion("9");
		correlator.updateState(recreated);
		CorrelationResult next = correlator.correlate(TestEvents.copy(this.duplicateEvent));
		assertThat(next.event().getCount()).isEqualTo(2);
		assertThat(next.event().getMetadata().getName()).isEqualTo("name.recreated");
		assertThat(next.event().getMetadata().getResourceVersion()).isEqualTo("9");
	}

	@Test
	void snapshotLimitCutsEveryListButNotTheSizes() {
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(TickingClock.fixed(START)).build());
		for (String pod : List.of("web-0", "web-1", "web-2")) {
			correlator.correlate(TestEvents.event("A", "a", TestEvents.ref("Pod", pod, "shop")));
		}
		CorrelatorSnapshot one = correlator.snapshot(1, (object) -> true);
		assertThat(one.aggregateRecords()).hasSize(1);
		assertThat(one.observedEvents()).hasSize(1);
		assertThat(one.spamBuckets()).hasSize(1);
		assertThat(List.of(one.aggregatorSize(), one.observedSize(), one.spamBucketsSize())).containsExactly(3L, 3L, 3L);
		CorrelatorSnapshot none = correlator.snapshot(0, (object) -> true);
		assertThat(none.aggregateRecords()).isEmpty();
		assertThat(none.observedEvents()).isEmpty();
		assertThat(none.spamBuckets()).isEmpty();
	}

	@Test
	void suppressedOccurrencesStillCountSoTheNextWriteCarriesThem() {
		TickingClock clock = TickingClock.fixed(START);
		EventCorrelator correlator = new EventCorrelator(CorrelatorOptions.builder().clock(clock).burst(2).build());
		List<Integer> written = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			CorrelationResult result = correlator.correlate(TestEvents.copy(this.duplicateEvent));
			if (!result.skip()) {
				written.add(result.event().getCount());
				correlator.updateState(result.event());
			}
		}
		assertThat(written).containsExactly(1, 2);
		clock.advance(Duration.ofSeconds(300));
		CorrelationResult next = correlator.correlate(TestEvents.copy(this.duplicateEvent));
		assertThat(next.skip()).isFalse();
		assertThat(next.event().getCount()).isEqualTo(6);
	}

	@Test
	void aggregationCanBeSwitchedOff() {
		CoreV1Event similar = similarEvent();
		TickingClock clock = new TickingClock(START, Duration.ofSeconds(5));
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(clock).aggregationEnabled(false).build());
		for (CoreV1Event event : similar(20, similar)) {
			CorrelationResult result = correlator.correlate(event);
			assertThat(result.event().getMessage()).startsWith("similar message");
			correlator.updateState(result.event());
		}
		assertThat(correlator.snapshot(10, (object) -> true).aggregatorSize()).isZero();
	}

	@Test
	void spamFilterCanBeSwitchedOff() {
		TickingClock clock = TickingClock.fixed(START);
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(clock).spamFilterEnabled(false).build());
		for (int i = 1; i <= 100; i++) {
			CorrelationResult result = correlator.correlate(TestEvents.copy(this.duplicateEvent));
			assertThat(result.skip()).isFalse();
			assertThat(result.event().getCount()).isEqualTo(i);
			correlator.updateState(result.event());
		}
	}

	@Test
	void updateStateAdoptsTheServersNameCountAndResourceVersion() {
		EventCorrelator correlator = new EventCorrelator(CorrelatorOptions.builder().clock(TickingClock.fixed(START)).build());
		CorrelationResult first = correlator.correlate(TestEvents.copy(this.duplicateEvent));
		CoreV1Event stored = TestEvents.copy(first.event());
		stored.getMetadata().setName("server-name");
		stored.getMetadata().setResourceVersion("77");
		stored.setCount(7);
		correlator.updateState(stored);
		CorrelationResult second = correlator.correlate(TestEvents.copy(this.duplicateEvent));
		assertThat(second.event().getMetadata().getName()).isEqualTo("server-name");
		assertThat(second.event().getMetadata().getResourceVersion()).isEqualTo("77");
		assertThat(second.event().getCount()).isEqualTo(8);
	}

	@Test
	void aRepeatGetsBackExactlyTheNameResourceVersionAndFirstTimestampTheServerStored() {
		OffsetDateTime whole = OffsetDateTime.parse("2026-11-30T12:00:00Z");
		long firstNanos = EventNames.unixNanos(whole.toInstant());
		// generated names within an int of nanoseconds of firstTimestamp are kept as numbers, the others as given
		List<String> names = List.of(EventNames.generate("my-pod", whole.toInstant().plusNanos(123_456_789)),
				"my-pod." + Long.toHexString(firstNanos + Integer.MAX_VALUE),
				"my-pod." + Long.toHexString(firstNanos + Integer.MAX_VALUE + 1L),
				"my-pod." + Long.toHexString(firstNanos + Integer.MIN_VALUE),
				"my-pod." + Long.toHexString(firstNanos + Integer.MIN_VALUE - 1L), "my-pod.0",
				"my-pod.187a3c5e2b1d0f00", "my-pod.ffffffffffffffff", "my-pod.00", "my-pod.ABC",
				"my-pod.1ffffffffffffffff", "my-pod.", "my-pod", "other.1f", "my-pod.1f.x",
				"3f2504e0-4f89-11d3-9a0c-0305e82c3301", "");
		List<String> resourceVersions = Arrays.asList("0", "7", "123456789012345678", "1234567890123456789", "007",
				"-1", "", "abc", null);
		List<OffsetDateTime> firstTimestamps = Arrays.asList(whole, whole.plusNanos(1),
				whole.withOffsetSameInstant(ZoneOffset.ofHours(1)), OffsetDateTime.parse("1900-01-01T00:00:00Z"),
				OffsetDateTime.parse("2100-01-01T00:00:00Z"), null);
		for (String name : names) {
			for (String resourceVersion : resourceVersions) {
				for (OffsetDateTime first : firstTimestamps) {
					EventCorrelator correlator = new EventCorrelator(
							CorrelatorOptions.builder().clock(TickingClock.fixed(START)).build());
					CoreV1Event stored = TestEvents.copy(correlator.correlate(TestEvents.copy(this.duplicateEvent)).event());
					stored.getMetadata().name(name).resourceVersion(resourceVersion);
					stored.setFirstTimestamp(first);
					correlator.updateState(stored);
					CoreV1Event repeat = correlator.correlate(TestEvents.copy(this.duplicateEvent)).event();
					assertThat(repeat.getMetadata().getName()).as("name %s", name).isEqualTo(name);
					assertThat(repeat.getMetadata().getResourceVersion()).as("resourceVersion %s", resourceVersion)
						.isEqualTo(resourceVersion);
					assertThat(repeat.getFirstTimestamp()).as("firstTimestamp %s", first).isEqualTo(first);
					assertThat(repeat.getCount()).isEqualTo(2);
					CorrelatorSnapshot.ObservedEvent observed = correlator.snapshot(1, (object) -> true)
						.observedEvents()
						.get(0);
					assertThat(observed.name()).isEqualTo(name);
					assertThat(observed.firstTimestamp()).isEqualTo((first != null) ? first.toInstant() : null);
				}
			}
		}
	}

	@Test
	void snapshotShowsEachCacheAsStructuredEntries() {
		TickingClock clock = TickingClock.fixed(START);
		EventCorrelator correlator = new EventCorrelator(CorrelatorOptions.builder().clock(clock).build());
		correlator.correlate(TestEvents.copy(this.duplicateEvent));
		CorrelatorSnapshot snapshot = correlator.snapshot(10, (object) -> true);
		ObjectRef pod = new ObjectRef("Pod", "my-ns", "my-pod");
		assertThat(snapshot.aggregatorSize()).isEqualTo(1);
		assertThat(snapshot.aggregateRecords()).containsExactly(
				new CorrelatorSnapshot.AggregateRecord(pod, "Normal", "duplicate", 1, START));
		assertThat(snapshot.observedSize()).isEqualTo(1);
		assertThat(snapshot.observedEvents()).containsExactly(new CorrelatorSnapshot.ObservedEvent(pod, "Normal",
				"duplicate", "me again", "name", 1, TestEvents.TIME, TestEvents.TIME));
		assertThat(snapshot.spamBucketsSize()).isEqualTo(1);
		assertThat(snapshot.spamBuckets())
			.containsExactly(new CorrelatorSnapshot.SpamBucket(pod, "Normal", "duplicate", 24.0, Duration.ZERO));
		assertThat(correlator.snapshot(0, (object) -> true).observedEvents()).isEmpty();
	}

	@Test
	void snapshotFilterSelectsOneObjectsEntriesAndKeepsTheFullSizes() {
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(TickingClock.fixed(START)).build());
		correlator.correlate(TestEvents.event("A", "a", TestEvents.ref("Pod", "web-0", "shop")));
		correlator.correlate(TestEvents.event("B", "b", TestEvents.ref("Pod", "web-1", "shop")));
		correlator.correlate(TestEvents.event("C", "c", TestEvents.ref("Node", "web-0", null)));
		CorrelatorSnapshot snapshot = correlator.snapshot(10, (object) -> object.is("shop", "web-0"));
		assertThat(snapshot.observedSize()).isEqualTo(3);
		assertThat(snapshot.observedEvents()).extracting(CorrelatorSnapshot.ObservedEvent::reason).containsExactly("A");
		assertThat(snapshot.aggregateRecords()).extracting(CorrelatorSnapshot.AggregateRecord::reason)
			.containsExactly("A");
		assertThat(snapshot.spamBuckets()).extracting(CorrelatorSnapshot.SpamBucket::object)
			.containsExactly(new ObjectRef("Pod", "shop", "web-0"));
		CorrelatorSnapshot node = correlator.snapshot(10, (object) -> object.is("", "web-0"));
		assertThat(node.observedEvents()).extracting(CorrelatorSnapshot.ObservedEvent::object)
			.containsExactly(new ObjectRef("Node", null, "web-0"));
	}

	@Test
	void correlateNeverModifiesItsInput() {
		EventCorrelator correlator = new EventCorrelator(
				CorrelatorOptions.builder().clock(new TickingClock(START, Duration.ofSeconds(5))).build());
		CoreV1Event similar = similarEvent();
		for (CoreV1Event event : similar(12, similar)) {
			CoreV1Event before = TestEvents.copy(event);
			CorrelationResult result = correlator.correlate(event);
			correlator.updateState(result.event());
			assertThat(event).isEqualTo(before);
		}
	}

	@Test
	void nullEventIsRejectedLikeClientGo() {
		EventCorrelator correlator = new EventCorrelator(CorrelatorOptions.defaults());
		assertThatNullPointerException().isThrownBy(() -> correlator.correlate(null)).withMessage("event is nil");
	}

}
