package io.github.kubeevents;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The events.k8s.io/v1 writer where RBAC refuses patch and the probe learns it only from a refused PATCH: the
 * occurrences of that write become an Event of their own, under a generated name (a later write's, with their own
 * series; a write that carries none, nothing), unless {@code auto} switches to core/v1 instead; where the series
 * PATCH finds no Event (404): the Event is created again with its series, and an AlreadyExists while doing so is
 * retried; the series count each write reports to the cache's snapshot; and its stream path (deterministic names,
 * over a {@link StoredEvents} server) where the server refuses the read or the patch.
 */
class EventsV1WritesTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final TickingClock clock = TickingClock.fixed(TestEvents.TIME);

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	private final EventsV1SinkSubscriberTests.Script sink = new EventsV1SinkSubscriberTests.Script();

	private final List<String> reviews = new CopyOnWriteArrayList<>();

	private final EventsAccess access = new EventsAccess((group, verb, namespace) -> {
		this.reviews.add(group + " " + verb);
		return !"patch".equals(verb);
	}, EventsAccess.WRITE_VERBS, this.clock);

	private final EventsV1SinkSubscriber subscriber = new EventsV1SinkSubscriber("sink", this.sink,
			new ApiChoice(EventsApi.EVENTS_V1, "configured"),
			TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
			}, (api, verb, result, duration) -> {
			}, this.clock), this.counters, EventNaming.clientGo(), null, this.access, "");

	private final InvolvedObject pod = TestEvents.object("Pod", "db-0", "ns");

	private final StoredEvents server = new StoredEvents();

	/** The subscribers a test built besides {@link #subscriber}. */
	private final List<EventsV1SinkSubscriber> others = new CopyOnWriteArrayList<>();

	@AfterEach
	void stop() {
		TestSinks.cancel(this.subscriber);
		this.subscriber.end(false);
		this.others.forEach((other) -> other.end(false));
	}

	/** A started subscriber of events.k8s.io/v1. */
	private EventsV1SinkSubscriber subscriber(Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink, EventNaming naming,
			@Nullable ApiFallback apiFallback, @Nullable EventsAccess access) {
		SinkSettings settings = TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
		}, (api, verb, result, duration) -> {
		}, this.clock);
		EventsV1SinkSubscriber other = new EventsV1SinkSubscriber("sink", sink,
				new ApiChoice(EventsApi.EVENTS_V1, "configured"), settings, this.counters, naming, apiFallback, access, "");
		TestSinks.start(other);
		this.others.add(other);
		return other;
	}

	/** One occurrence of the same Warning at the clock's time, handed to {@code to}; waits until it is written. */
	private void occur(EventsV1SinkSubscriber to) {
		to.onEvent(new RecordedEvent(this.pod, null, EventType.WARNING, "BackOff", null, "Back-off", Map.of(),
				TestEvents.SOURCE, this.clock.instant()));
		settle(to);
	}

	private static void settle(EventsV1SinkSubscriber subscriber) {
		await().atMost(WAIT).until(() -> TestSinks.pending(subscriber) == 0);
	}

	/** The one series entry of {@code subscriber}'s snapshot. */
	private static RecorderSnapshot.SeriesSnapshot.Entry entry(EventsV1SinkSubscriber subscriber) {
		return subscriber.snapshot(10, (object) -> true).series().entries().get(0);
	}

	/** The stream's Event of another process (or of this one before a restart), with no series. */
	private String storedByAnotherProcess() {
		occur(subscriber(this.server.eventsV1Sink(), EventNaming.of(true), null, null));
		EventsV1Event stored = (EventsV1Event) this.server.all().get(0);
		return stored.getMetadata().getName();
	}

	/** Records one occurrence twice (a CREATE, then the series' PATCH, which the server refuses with {@code refusal}). */
	private RecordedEvent twiceWithThePatchRefused(EventSinkException refusal) {
		this.sink.failAt.put(1, refusal);
		TestSinks.start(this.subscriber);
		RecordedEvent occurrence = TestEvents.recorded("BackOff", "Back-off", TestEvents.object("Pod", "db-0", "ns"));
		this.subscriber.onEvent(occurrence);
		this.subscriber.onEvent(occurrence);
		return occurrence;
	}

	@Test
	void aPatchRefusedWith403ThatTheProbeConfirmsIsWrittenAsAnEventOfItsOwnOccurrences() {
		RecordedEvent occurrence = twiceWithThePatchRefused(
				EventSinkException.status(403, "Forbidden", "cannot patch events"));
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 3);
		assertThat(this.sink.calls).extracting(EventsV1SinkSubscriberTests.Call::verb)
			.containsExactly("create", "patch", "create");
		EventsV1Event own = this.sink.calls.get(2).event();
		assertThat(own.getMetadata().getName()).isEqualTo(EventNames.generate(occurrence));
		assertThat(own.getMetadata().getNamespace()).isEqualTo("ns");
		assertThat(own.getSeries()).as("one occurrence: no series").isNull();
		assertThat(own.getEventTime()).isEqualTo(EventsV1Events.microTime(TestEvents.TIME));
		assertThat(own.getNote()).isEqualTo("Back-off");
		assertThat(this.reviews).as("asked once the PATCH was refused")
			.containsExactly("events.k8s.io create", "events.k8s.io patch");
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(1);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aPatchRefusedForAnotherReasonIsNoCaseForWithoutPatch() {
		twiceWithThePatchRefused(EventSinkException.status(422, "Invalid", "bad series"));
		await().atMost(WAIT).until(() -> this.counters.totalDropped() == 1);
		assertThat(this.sink.calls).extracting(EventsV1SinkSubscriberTests.Call::verb).containsExactly("create", "patch");
		assertThat(this.reviews).isEmpty();
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(1);
		assertThat(this.counters.writtenWithoutPatchCount()).isZero();
	}

	@Test
	void aSeriesPatchThatFindsNoEventCreatesItAgainWithItsSeries() {
		twiceWithThePatchRefused(EventSinkException.status(404, "NotFound", "gone"));
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 3);
		assertThat(this.sink.calls).extracting(EventsV1SinkSubscriberTests.Call::verb)
			.containsExactly("create", "patch", "create");
		EventsV1Event first = this.sink.calls.get(0).event();
		EventsV1Event again = this.sink.calls.get(2).event();
		assertThat(first.getSeries()).as("a first occurrence has no series").isNull();
		assertThat(again.getMetadata().getName()).isEqualTo(first.getMetadata().getName());
		assertThat(again.getSeries().getCount()).isEqualTo(2);
		assertThat(again.getSeries().getLastObservedTime()).isEqualTo(EventsV1Events.microTime(TestEvents.TIME));
		assertThat(again.getNote()).isEqualTo("Back-off");
		assertThat(again.getReason()).isEqualTo("BackOff");
		assertThat(this.reviews).as("a 404 asks nothing").isEmpty();
		assertThat(this.counters.writtenWithoutPatchCount()).isZero();
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void anAlreadyExistsWhileCreatingFromASeriesIsRetried() {
		this.sink.failAt.put(2, EventSinkException.status(409, "AlreadyExists", "created meanwhile"));
		twiceWithThePatchRefused(EventSinkException.status(404, "NotFound", "gone"));
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 4);
		assertThat(this.sink.calls).extracting(EventsV1SinkSubscriberTests.Call::verb)
			.containsExactly("create", "patch", "create", "patch");
		assertThat(this.sink.calls.get(3).patch().count()).isEqualTo(2);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aSeriesWriteReportsItsCountToTheSnapshot() {
		TestSinks.start(this.subscriber);
		occur(this.subscriber);
		assertThat(entry(this.subscriber).countOnServer()).isEqualTo(1);
		occur(this.subscriber);
		assertThat(this.sink.calls).extracting(EventsV1SinkSubscriberTests.Call::verb).containsExactly("create", "patch");
		assertThat(entry(this.subscriber).countOnServer()).isEqualTo(2);
	}

	@Test
	void laterOccurrencesWithoutPatchAreAnEventOfTheirOwnWithTheirSeriesAndTheirTimes() {
		this.sink.failAt.put(1, EventSinkException.status(403, "Forbidden", "cannot patch events"));
		TestSinks.start(this.subscriber);
		for (int i = 0; i < 4; i++) {
			occur(this.subscriber);
			this.clock.advance(Duration.ofSeconds(1));
		}
		assertThat(this.sink.calls).as("the third and fourth wait for the finish").hasSize(3);
		EventsV1Event second = this.sink.calls.get(2).event();
		assertThat(second.getSeries()).isNull();
		assertThat(second.getEventTime()).as("its own occurrence's time")
			.isEqualTo(EventsV1Events.microTime(TestEvents.TIME.plusSeconds(1)));
		// idle for more than 6 minutes at the pass 12 minutes after the start: the series' final write, whose PATCH
		// is refused again (the probe's answer is older than its 5 minutes)
		this.sink.failAt.put(3, EventSinkException.status(403, "Forbidden", "cannot patch events"));
		this.clock.advance(Duration.ofMinutes(12).minusSeconds(4));
		this.subscriber.tick(this.clock.instant());
		settle(this.subscriber);
		assertThat(this.sink.calls).extracting(EventsV1SinkSubscriberTests.Call::verb)
			.containsExactly("create", "patch", "create", "patch", "create");
		assertThat(this.sink.calls.get(3).patch().count()).isEqualTo(4);
		EventsV1Event rest = this.sink.calls.get(4).event();
		assertThat(rest.getMetadata().getName()).isNotIn(this.sink.calls.get(0).event().getMetadata().getName(),
				second.getMetadata().getName());
		assertThat(rest.getSeries().getCount()).as("the third and fourth").isEqualTo(2);
		assertThat(rest.getSeries().getLastObservedTime())
			.isEqualTo(EventsV1Events.microTime(TestEvents.TIME.plusSeconds(3)));
		assertThat(rest.getEventTime()).as("the series' eventTime, as the Event's other fields are the series'")
			.isEqualTo(EventsV1Events.microTime(TestEvents.TIME));
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(3);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aHeartbeatWithoutPatchThatCarriesNoNewOccurrenceMakesNoRequest() {
		this.sink.failAt.put(1, EventSinkException.status(403, "Forbidden", "cannot patch events"));
		TestSinks.start(this.subscriber);
		// 25 minutes after the start, so that the series lives until the heartbeat at 30 (and the probe's answer
		// too, for 5 minutes)
		this.clock.advance(Duration.ofMinutes(25));
		occur(this.subscriber);
		this.clock.advance(Duration.ofSeconds(1));
		occur(this.subscriber);
		assertThat(this.sink.calls).extracting(EventsV1SinkSubscriberTests.Call::verb)
			.containsExactly("create", "patch", "create");
		assertThat(entry(this.subscriber).nextHeartbeat()).isEqualTo(TestEvents.TIME.plus(Duration.ofMinutes(30)));
		this.clock.advance(Duration.ofMinutes(5).minusSeconds(1));
		this.subscriber.tick(this.clock.instant());
		settle(this.subscriber);
		assertThat(entry(this.subscriber).nextHeartbeat())
			.as("the heartbeat ran: the next one, at 60 minutes, would come after the finish at 36").isNull();
		assertThat(this.sink.calls).hasSize(3);
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(1);
	}

	@Test
	void aPatchRefusedWhereCoreV1ServesBetterIsNotWrittenWithoutPatch() {
		EventsAccess coreV1Allowed = new EventsAccess(
				(group, verb, namespace) -> !("events.k8s.io".equals(group) && "patch".equals(verb)),
				EventsAccess.WRITE_VERBS, this.clock);
		EventsV1SinkSubscriberTests.Script script = new EventsV1SinkSubscriberTests.Script();
		script.failAt.put(1, EventSinkException.status(403, "Forbidden", "cannot patch events"));
		EventsV1SinkSubscriber auto = subscriber(script, EventNaming.clientGo(), new ApiFallback(coreV1Allowed),
				coreV1Allowed);
		occur(auto);
		occur(auto);
		assertThat(script.calls).extracting(EventsV1SinkSubscriberTests.Call::verb).containsExactly("create", "patch");
		assertThat(this.counters.writtenWithoutPatchCount()).isZero();
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(1);
	}

	@Test
	void aStreamWhoseReadIsRefusedFallsBackToAnEventUnderAGeneratedName() {
		String streamName = storedByAnotherProcess();
		this.server.forbidGet();
		InterceptedSink<EventsV1Event, EventsV1Sink.SeriesPatch> sink = new InterceptedSink<>(
				this.server.eventsV1Sink());
		EventNaming naming = EventNaming.of(true);
		EventsV1SinkSubscriber restarted = subscriber(sink, naming, null, null);
		occur(restarted);
		assertThat(sink.verbs()).containsExactly("create", "get", "create");
		EventsV1Event own = sink.created().get(1);
		assertThat(sink.created().get(0).getMetadata().getName()).isEqualTo(streamName);
		assertThat(own.getMetadata().getName()).isNotEqualTo(streamName);
		assertThat(own.getSeries()).isNull();
		assertThat(this.server.all()).hasSize(2);
		assertThat(naming.fallingBack()).isTrue();
		assertThat(entry(restarted).countOnServer()).isEqualTo(1);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aStreamsFirstWriteWhosePatchRbacRefusesIsCreatedAsAnEventOfItsOwn() {
		String streamName = storedByAnotherProcess();
		InterceptedSink<EventsV1Event, EventsV1Sink.SeriesPatch> sink = new InterceptedSink<>(
				this.server.eventsV1Sink());
		sink.failNext("patch", EventSinkException.status(403, "Forbidden", "cannot patch events"));
		EventsV1SinkSubscriber restarted = subscriber(sink, EventNaming.of(true), null, this.access);
		this.clock.advance(Duration.ofSeconds(3));
		occur(restarted);
		assertThat(sink.verbs()).containsExactly("create", "get", "patch", "create");
		EventsV1Event own = sink.created().get(1);
		assertThat(own.getMetadata().getName()).isNotEqualTo(streamName);
		assertThat(own.getSeries()).isNull();
		assertThat(own.getEventTime()).isEqualTo(EventsV1Events.microTime(TestEvents.TIME.plusSeconds(3)));
		assertThat(this.server.all()).hasSize(2);
		assertThat(this.server.eventsV1("ns", streamName).getSeries()).as("the stream's Event unchanged").isNull();
		assertThat(entry(restarted).countOnServer()).isEqualTo(1);
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(1);

		// the probe knows now: the second occurrence's series write is an Event of its own without a PATCH
		this.clock.advance(Duration.ofSeconds(1));
		occur(restarted);
		assertThat(sink.verbs()).containsExactly("create", "get", "patch", "create", "create");
		assertThat(sink.created().get(2).getEventTime())
			.isEqualTo(EventsV1Events.microTime(TestEvents.TIME.plusSeconds(4)));
		assertThat(entry(restarted).countOnServer()).as("the series write's count").isEqualTo(2);
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(2);
		assertThat(this.counters.totalDropped()).isZero();
	}

}
