package io.github.kubeevents;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The events.k8s.io/v1 writer where RBAC refuses patch and the probe learns it only from a refused PATCH: the
 * occurrences of that write become an Event of their own, under a generated name; and where the series PATCH finds no
 * Event (404): the Event is created again with its series, and an AlreadyExists while doing so is retried.
 */
class EventsV1WritesTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final TickingClock clock = TickingClock.fixed(TestEvents.TIME);

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	private final EventsV1RecordingTests.Script sink = new EventsV1RecordingTests.Script();

	private final List<String> reviews = new CopyOnWriteArrayList<>();

	private final EventsAccess access = new EventsAccess((group, verb, namespace) -> {
		this.reviews.add(group + " " + verb);
		return !"patch".equals(verb);
	}, EventsAccess.WRITE_VERBS, this.clock);

	private final EventsV1SinkSubscriber subscriber = new EventsV1SinkSubscriber("sink", this.sink,
			new ApiChoice(EventsApi.EVENTS_V1, "configured"),
			TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
			}, (api, verb, result, duration) -> {
			}, this.clock), this.counters, EventNaming.clientGo(), null, this.access);

	@AfterEach
	void stop() {
		this.subscriber.cancel();
		this.subscriber.stopped(false);
	}

	/** Records one occurrence twice (a CREATE, then the series' PATCH, which the server refuses with {@code refusal}). */
	private RecordedEvent twiceWithThePatchRefused(EventSinkException refusal) {
		this.sink.failAt.put(1, refusal);
		this.subscriber.started();
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
		assertThat(this.sink.calls).extracting(EventsV1RecordingTests.Call::verb)
			.containsExactly("create", "patch", "create");
		EventsV1Event own = this.sink.calls.get(2).event();
		assertThat(own.getMetadata().getName()).isEqualTo(occurrence.generateEventName());
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
		assertThat(this.sink.calls).extracting(EventsV1RecordingTests.Call::verb).containsExactly("create", "patch");
		assertThat(this.reviews).isEmpty();
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(1);
		assertThat(this.counters.writtenWithoutPatchCount()).isZero();
	}

	@Test
	void aSeriesPatchThatFindsNoEventCreatesItAgainWithItsSeries() {
		twiceWithThePatchRefused(EventSinkException.status(404, "NotFound", "gone"));
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 3);
		assertThat(this.sink.calls).extracting(EventsV1RecordingTests.Call::verb)
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
		assertThat(this.sink.calls).extracting(EventsV1RecordingTests.Call::verb)
			.containsExactly("create", "patch", "create", "patch");
		assertThat(this.sink.calls.get(3).patch().count()).isEqualTo(2);
		assertThat(this.counters.totalDropped()).isZero();
	}

}
