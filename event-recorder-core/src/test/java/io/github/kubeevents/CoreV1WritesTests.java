package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The core/v1 writer where RBAC refuses patch and the probe learns it only from a refused PATCH: the repeat becomes
 * an Event of its own, a fresh one (no resourceVersion of the Event it repeats, no series), under a generated name,
 * with the times of its own occurrences; a PATCH that finds no Event is no such case. And its stream path
 * (deterministic names, over a {@link StoredEvents} server): the count each write puts on the server's Event when
 * it was deleted, when a write was dropped, when occurrences lost the race, and when RBAC refuses patch.
 */
class CoreV1WritesTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final TickingClock clock = TickingClock.fixed(TestEvents.TIME);

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	private final ScriptedSink sink = new ScriptedSink();

	private final List<String> reviews = new CopyOnWriteArrayList<>();

	private final EventsAccess access = new EventsAccess((group, verb, namespace) -> {
		this.reviews.add(group + " " + verb);
		return !"patch".equals(verb);
	}, EventsAccess.WRITE_VERBS, this.clock);

	private final CoreV1SinkSubscriber subscriber = new CoreV1SinkSubscriber("sink", this.sink,
			new ApiChoice(EventsApi.CORE_V1, "configured"),
			TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
			}, (api, verb, result, duration) -> {
			}, this.clock), this.counters, this.access, EventNaming.clientGo(), "");

	private final InvolvedObject pod = TestEvents.object("Pod", "db-0", "ns");

	private final StoredEvents server = new StoredEvents();

	/** The stream tests' sink over {@link #server}, which keeps each request. */
	private final InterceptedSink<CoreV1Event, EventSink.CountPatch> intercepted = new InterceptedSink<>(
			this.server.coreV1Sink());

	/** The subscribers a test built besides {@link #subscriber}. */
	private final List<CoreV1SinkSubscriber> others = new CopyOnWriteArrayList<>();

	@AfterEach
	void stop() {
		TestSinks.cancel(this.subscriber);
		this.subscriber.end(false);
		this.others.forEach((other) -> other.end(false));
	}

	/** A started subscriber of core/v1 with {@code options} for its correlator. */
	private CoreV1SinkSubscriber subscriber(Sink<CoreV1Event, EventSink.CountPatch> sink, CorrelatorOptions options,
			@Nullable EventsAccess access, EventNaming naming) {
		CoreV1SinkSubscriber other = new CoreV1SinkSubscriber("sink", sink,
				new ApiChoice(EventsApi.CORE_V1, "configured"),
				TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
				}, (api, verb, result, duration) -> {
				}, this.clock, EventShape.CLIENT_GO, options), this.counters, access, naming, "");
		TestSinks.start(other);
		this.others.add(other);
		return other;
	}

	/** A started subscriber of the deterministic-names mode. */
	private CoreV1SinkSubscriber streams(Sink<CoreV1Event, EventSink.CountPatch> sink, @Nullable EventsAccess access) {
		return subscriber(sink, CorrelatorOptions.builder().clock(this.clock).build(), access, EventNaming.of(true));
	}

	/** One occurrence of the same Warning at the clock's time, handed to {@code to}; waits until it is written. */
	private void occur(CoreV1SinkSubscriber to) {
		to.onEvent(occurrence());
		settle(to);
	}

	private RecordedEvent occurrence() {
		return new RecordedEvent(this.pod, null, EventType.WARNING, "BackOff", null, "Back-off", Map.of(),
				TestEvents.SOURCE, this.clock.instant());
	}

	private static void settle(CoreV1SinkSubscriber subscriber) {
		await().atMost(WAIT).until(() -> TestSinks.pending(subscriber) == 0);
	}

	/**
	 * Records the same Warning twice, {@code between} apart, the second's PATCH failing with {@code failure}: a
	 * CREATE follows it.
	 */
	private void twiceWithThePatchFailing(EventSinkException failure, Duration between) {
		TestSinks.start(this.subscriber);
		occur(this.subscriber);
		this.clock.advance(between);
		this.sink.failNext(failure);
		occur(this.subscriber);
		assertThat(this.sink.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "create");
	}

	/** Records a first occurrence through {@code streams}: the server's one Event, as {@code namespace/name}. */
	private String firstOccurrence(CoreV1SinkSubscriber streams) {
		occur(streams);
		return storedKey();
	}

	/** The one Event the server has, as {@code namespace/name}. */
	private String storedKey() {
		CoreV1Event stored = (CoreV1Event) this.server.all().get(0);
		return stored.getMetadata().getNamespace() + "/" + stored.getMetadata().getName();
	}

	private CoreV1Event stored(String key) {
		return this.server.coreV1(key.substring(0, key.indexOf('/')), key.substring(key.indexOf('/') + 1));
	}

	@Test
	void aRepeatWhosePatchIsRefusedWith403IsCreatedAsAFreshEventOfItsOwn() {
		TestSinks.start(this.subscriber);
		RecordedEvent occurrence = TestEvents.recorded("BackOff", "Back-off", TestEvents.object("Pod", "db-0", "ns"));
		this.subscriber.onEvent(occurrence);
		await().atMost(WAIT).until(() -> this.sink.calls().size() == 1);
		this.sink.failNext(EventSinkException.status(403, "Forbidden", "cannot patch events"));
		this.subscriber.onEvent(occurrence);
		await().atMost(WAIT).until(() -> this.sink.calls().size() == 3);
		assertThat(this.sink.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "create");
		CoreV1Event own = this.sink.calls().get(2).event();
		assertThat(own.getMetadata().getName()).isEqualTo(EventNames.generate(occurrence));
		assertThat(own.getMetadata().getNamespace()).isEqualTo("ns");
		assertThat(own.getMetadata().getResourceVersion()).as("a CREATE carries no resourceVersion").isNull();
		assertThat(own.getMetadata().getUid()).isNull();
		assertThat(own.getMetadata().getCreationTimestamp()).isNull();
		assertThat(own.getCount()).isEqualTo(1);
		assertThat(own.getFirstTimestamp()).isEqualTo(own.getLastTimestamp());
		assertThat(own.getSeries()).isNull();
		assertThat(own.getMessage()).isEqualTo("Back-off");
		assertThat(this.reviews).as("asked once the PATCH was refused")
			.extracting((review) -> review.substring(review.lastIndexOf(' ') + 1))
			.containsExactly("create", "patch");
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(1);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aRepeatCreatedWithoutPatchCarriesTheTimeOfItsOwnOccurrenceNotTheFirstOnes() {
		twiceWithThePatchFailing(EventSinkException.status(403, "Forbidden", "cannot patch events"),
				Duration.ofSeconds(5));
		CoreV1Event own = this.sink.calls().get(2).event();
		assertThat(own.getFirstTimestamp().toInstant()).isEqualTo(TestEvents.TIME.plusSeconds(5));
		assertThat(own.getLastTimestamp().toInstant()).isEqualTo(TestEvents.TIME.plusSeconds(5));
		assertThat(own.getCount()).isEqualTo(1);
		assertThat(this.sink.calls().get(0).event().getFirstTimestamp().toInstant()).isEqualTo(TestEvents.TIME);
	}

	@Test
	void coalescedRepeatsCreatedWithoutPatchAreOneEventFromTheFirstOfThemToTheLast() {
		CoreV1SinkSubscriber coalescing = subscriber(this.sink, CorrelatorOptions.builder()
			.minUpdateInterval(Duration.ofSeconds(10))
			.clock(this.clock)
			.build(), this.access, EventNaming.clientGo());
		occur(coalescing);
		this.clock.advance(Duration.ofSeconds(1));
		occur(coalescing);
		this.clock.advance(Duration.ofSeconds(1));
		occur(coalescing);
		assertThat(this.sink.calls()).as("two repeats held for the interval").hasSize(1);
		this.sink.failNext(EventSinkException.status(403, "Forbidden", "cannot patch events"));
		this.clock.advance(Duration.ofSeconds(10));
		coalescing.tick(this.clock.instant());
		settle(coalescing);
		assertThat(this.sink.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create", "patch", "create");
		assertThat(this.sink.calls().get(1).patch().count()).isEqualTo(3);
		CoreV1Event own = this.sink.calls().get(2).event();
		assertThat(own.getCount()).as("the two held repeats").isEqualTo(2);
		assertThat(own.getFirstTimestamp().toInstant()).isEqualTo(TestEvents.TIME.plusSeconds(1));
		assertThat(own.getLastTimestamp().toInstant()).isEqualTo(TestEvents.TIME.plusSeconds(2));
		assertThat(own.getMetadata().getName()).isNotEqualTo(this.sink.calls().get(0).event().getMetadata().getName());
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(2);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aPatchThatFindsNoEventCreatesItAgainUnderItsNameAndIsNoCaseForWithoutPatch() {
		twiceWithThePatchFailing(EventSinkException.status(404, "NotFound", "gone"), Duration.ZERO);
		CoreV1Event again = this.sink.calls().get(2).event();
		assertThat(again.getMetadata().getName()).isEqualTo(this.sink.calls().get(0).event().getMetadata().getName());
		assertThat(again.getMetadata().getResourceVersion()).isNull();
		assertThat(again.getCount()).isEqualTo(2);
		assertThat(this.reviews).as("a 404 asks nothing").isEmpty();
		assertThat(this.counters.writtenWithoutPatchCount()).isZero();
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aStreamEventThatWasDeletedIsCreatedAgainWithTheServersLastCountPlusTheNewOccurrence() {
		CoreV1SinkSubscriber streams = streams(this.intercepted, null);
		String key = firstOccurrence(streams);
		// another process adds 4, then the Event expires after this process's next write
		this.server.bump(key, 4);
		occur(streams);
		assertThat(stored(key).getCount()).isEqualTo(6);
		this.server.delete(key);
		occur(streams);
		assertThat(this.intercepted.verbs()).containsExactly("create", "patch", "get", "patch", "patch", "get",
				"create");
		CoreV1Event again = this.intercepted.created().get(1);
		assertThat(again.getMetadata().getName()).isEqualTo(key.substring(key.indexOf('/') + 1));
		assertThat(again.getCount()).as("the 6 the server had, and this occurrence").isEqualTo(7);
		assertThat(again.getMetadata().getResourceVersion()).as("a CREATE carries no resourceVersion").isNull();
		assertThat(stored(key).getCount()).isEqualTo(7);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aStreamWriteTheServerRejectedIsInTheCountOfTheNextOneAsInClientGosCount() {
		CoreV1SinkSubscriber streams = streams(this.intercepted, null);
		String key = firstOccurrence(streams);
		this.intercepted.failNext("patch", EventSinkException.status(422, "Invalid", "bad count"));
		occur(streams);
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(1);
		occur(streams);
		assertThat(this.intercepted.verbs()).containsExactly("create", "patch", "patch");
		assertThat(((EventSink.CountPatch) this.intercepted.requests().get(2).patch()).count())
			.as("the correlator's count: the rejected occurrence and this one on the 1 written").isEqualTo(3);
		assertThat(stored(key).getCount()).isEqualTo(3);
	}

	@Test
	void occurrencesThatLostTheRaceAreAddedOnceToTheNextWriteWhichReadsTheEventAgain() {
		CoreV1SinkSubscriber streams = streams(this.server.coreV1Sink(), null);
		String key = firstOccurrence(streams);
		// another writer changes the Event before each of this process's next 11 patches: the occurrence is carried
		AtomicInteger racing = new AtomicInteger(11);
		this.server.beforeRequest((request) -> {
			if (request.startsWith("patch") && racing.getAndDecrement() > 0) {
				this.server.bump(key, 1);
			}
		});
		occur(streams);
		assertThat(stored(key).getCount()).as("1 and the other writer's 11").isEqualTo(12);
		this.server.clearRequests();
		occur(streams);
		assertThat(this.server.requests()).as("nothing known of the stream: a CREATE, then a read")
			.containsExactly("create " + key, "get " + key, "patch " + key);
		assertThat(stored(key).getCount()).as("the carried occurrence and this one, once each").isEqualTo(14);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aStreamsFirstWriteWhosePatchRbacRefusesIsCreatedAsAnEventOfItsOwn() {
		// another process (or this one before a restart) wrote the stream's Event
		occur(streams(this.server.coreV1Sink(), null));
		String key = storedKey();
		this.intercepted.failNext("patch", EventSinkException.status(403, "Forbidden", "cannot patch events"));
		CoreV1SinkSubscriber restarted = streams(this.intercepted, this.access);
		occur(restarted);
		assertThat(this.intercepted.verbs()).containsExactly("create", "get", "patch", "create");
		CoreV1Event own = this.intercepted.created().get(1);
		assertThat(own.getMetadata().getName()).isNotEqualTo(key.substring(key.indexOf('/') + 1));
		assertThat(own.getCount()).isEqualTo(1);
		assertThat(this.server.all()).hasSize(2);
		assertThat(stored(key).getCount()).isEqualTo(1);
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(1);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aStreamWriteTellsTheCorrelatorThisProcesssCountWithTheServersResourceVersion() {
		SinkSettings settings = TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
		}, (api, verb, result, duration) -> {
		}, this.clock);
		SinkRun<CoreV1Event, EventSink.CountPatch> run = TestSinks.run(settings, this.server.coreV1Sink(),
				new SinkWritersTests.NoTarget());
		run.start();
		EventWriter<CoreV1SinkSubscriber.Write, CoreV1Event, EventSink.CountPatch> writer = new EventWriter<>(
				EventsApi.CORE_V1, new CoreV1Writes(settings), run.requests(), this.counters, EventNaming.of(true), null,
				null, 4096, settings);
		EventCorrelator correlator = new EventCorrelator(settings.coreV1Correlation());
		List<CoreV1Event> learned = new CopyOnWriteArrayList<>();
		for (int i = 0; i < 2; i++) {
			RecordedEvent recorded = occurrence();
			CoreV1Event event = CoreV1Events.of(recorded);
			event.getMetadata().setName(DeterministicNames.coreV1(event, false));
			CorrelationResult result = correlator.correlate(event);
			CoreV1SinkSubscriber.Write write = new CoreV1SinkSubscriber.Write(recorded, result, 1,
					recorded.timestamp(), true, result.isUpdate());
			WriteAttempts.Outcome<EventWriter.Written<CoreV1Event>> outcome = run.attempts()
				.write(write, recorded, 1, writer);
			assertThat(outcome.state()).isEqualTo(WriteAttempts.State.WRITTEN);
			CoreV1Event answer = CoreV1SinkSubscriber.learned(write, outcome.written());
			correlator.updateState(answer);
			learned.add(answer);
			if (i == 0) {
				// another process adds 4 between the writes
				this.server.bump(storedKey(), 4);
			}
		}
		CoreV1Event stored = stored(storedKey());
		assertThat(stored.getCount()).isEqualTo(6);
		assertThat(learned.get(1).getCount()).as("this process's count, which its correlator goes on from")
			.isEqualTo(2);
		assertThat(learned.get(1).getMetadata().getResourceVersion()).as("the server's")
			.isEqualTo(stored.getMetadata().getResourceVersion())
			.isNotEqualTo(learned.get(0).getMetadata().getResourceVersion());
	}

}
