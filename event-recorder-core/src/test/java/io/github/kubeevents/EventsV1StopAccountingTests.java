package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 26 item 1: on events.k8s.io/v1 every occurrence a series held is written (on one API or the other) or
 * counted, at a stop, a shutdown past its deadline and an RBAC switch that a final write or a heartbeat triggers;
 * {@code accepted = on the server (both APIs) + dropped} is asserted per occurrence. Scripted sinks stand in for the
 * server; the failures are chosen by request, so no interleaving is left to chance.
 */
class EventsV1StopAccountingTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final EventSinkException FORBIDDEN = EventSinkException.status(403, "Forbidden",
			"HTTP 403 Forbidden: events.events.k8s.io is forbidden: User \"web\" cannot patch resource \"events\" in API"
					+ " group \"events.k8s.io\" in the namespace \"ns\"");

	private static final Instant T0 = Instant.parse("2026-12-06T09:00:00Z");

	private final TickingClock clock = TickingClock.fixed(T0);

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	private final Server eventsV1 = new Server();

	private final ScriptedSink coreV1 = new ScriptedSink();

	private final EventBroadcaster broadcaster = EventBroadcaster.builder().clock(this.clock).build();

	private final SinkSettings settings = TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
	}, (api, verb, result, duration) -> {
	}, this.clock);

	@AfterEach
	void shutDown() {
		this.broadcaster.shutdown(WAIT);
	}

	/** An {@code auto} sink: events.k8s.io/v1 first, core/v1 once RBAC refuses events.k8s.io/v1 and allows core/v1. */
	private SwitchingSinkSubscriber autoSink() {
		CoreV1SinkSubscriber fallback = new CoreV1SinkSubscriber("sink-core", this.coreV1,
				new ApiChoice(EventsApi.CORE_V1, "auto: fallback"), this.settings, this.counters);
		ApiFallback apiFallback = new ApiFallback(
				new EventsAccess((group, verb, namespace) -> group.isEmpty(), EventsAccess.WRITE_VERBS, this.clock));
		SwitchingSinkSubscriber sink = new SwitchingSinkSubscriber(new EventsV1SinkSubscriber("sink", this.eventsV1,
				new ApiChoice(EventsApi.EVENTS_V1, "auto: the API server serves events.k8s.io/v1"), this.settings,
				this.counters, EventNaming.clientGo(), apiFallback, null, ""), fallback, apiFallback,
				this.settings.backlogCapacity());
		this.broadcaster.subscribeSink(sink);
		this.broadcaster.start();
		return sink;
	}

	private ObjectRecorder pod(String name) {
		return this.broadcaster.newRecorder(new EventSource("example.com/web", "web-0"))
			.about(TestEvents.object("Pod", name, "ns"));
	}

	/** The occurrences on the server: each Event's series count (1 without one), over both APIs. */
	private long onTheServer() {
		long eventsV1 = this.eventsV1.stored.values().stream().mapToLong(Server::count).sum();
		long coreV1 = this.coreV1.stored().values().stream().mapToLong(CoreV1Event::getCount).sum();
		return eventsV1 + coreV1;
	}

	private void assertAccountedFor(long accepted) {
		assertThat(this.broadcaster.stats().accepted()).isEqualTo(accepted);
		long dropped = this.broadcaster.stats().totalDropped() + this.counters.totalDropped();
		assertThat(onTheServer() + dropped).as("on the server + dropped = accepted")
			.isEqualTo(accepted);
	}

	@Test
	void aFinalPatchRefusedWith403DuringTheShutdownSwitchesAndItsOccurrenceIsWrittenOnCoreV1() {
		autoSink();
		// the shutdown's final PATCH (count 3) is refused; the switch happens while the subscriber thread ends
		this.eventsV1.refuse = (call) -> call.count() == 3;
		ObjectRecorder db = pod("db-0");
		for (int i = 0; i < 3; i++) {
			db.warning("Unhealthy", "probe failed");
		}
		await().atMost(WAIT).until(() -> this.eventsV1.stored.values().stream().anyMatch((e) -> Server.count(e) == 2));
		assertThat(this.broadcaster.shutdown(WAIT)).isTrue();
		assertThat(this.eventsV1.calls).extracting(Server.Call::describe)
			.containsExactly("create 1", "patch 2", "patch 3");
		assertThat(this.coreV1.calls()).extracting(ScriptedSink.Call::verb).containsExactly("create");
		assertThat(this.counters.totalDropped()).isZero();
		assertAccountedFor(3);
	}

	@Test
	void aHeartbeatRefusedWith403ThatSwitchesCarriesTheOccurrencesTheSeriesHeldToCoreV1() {
		autoSink();
		this.eventsV1.refuse = (call) -> call.count() == 7;
		ObjectRecorder db = pod("db-0");
		db.warning("Unhealthy", "probe failed");
		db.warning("Unhealthy", "probe failed");
		await().atMost(WAIT).until(() -> this.eventsV1.stored.values().stream().anyMatch((e) -> Server.count(e) == 2));
		// one more every 5 minutes, so no finish pass ends the series: counts 3 to 7 are held, none written
		for (int i = 0; i < 5; i++) {
			this.clock.advance(Duration.ofMinutes(5));
			db.warning("Unhealthy", "probe failed");
		}
		// at 30 minutes the heartbeat PATCH (count 7, carrying the 5 held occurrences) runs before the next event
		this.clock.advance(Duration.ofMinutes(5));
		pod("web-1").normal("Started", "started");
		await().atMost(WAIT)
			.until(() -> this.coreV1.stored().values().stream().anyMatch((e) -> e.getCount() == 5));
		assertThat(this.broadcaster.shutdown(WAIT)).isTrue();
		assertThat(this.eventsV1.calls).extracting(Server.Call::describe)
			.as("the heartbeat was the refused write").startsWith("create 1", "patch 2", "patch 7");
		assertThat(this.counters.totalDropped()).isZero();
		assertAccountedFor(8);
	}

	@Test
	void aShutdownPastItsDeadlineCountsEveryOccurrenceTheSeriesHeldAsShutdown() {
		EventsV1SinkSubscriber sink = new EventsV1SinkSubscriber("sink", this.eventsV1,
				new ApiChoice(EventsApi.EVENTS_V1, "events.k8s.io/v1"), this.settings, this.counters);
		TestSinks.start(sink);
		for (int i = 0; i < 7; i++) {
			sink.onEvent(TestEvents.recorded("Unhealthy", "probe failed", TestEvents.object("Pod", "db-0", "ns")));
		}
		await().atMost(WAIT).until(() -> TestSinks.pending(sink) == 0);
		// the deadline passed before the final writes (beforeStop is skipped), as SubscriberQueue does when aborted
		TestSinks.abort(sink);
		sink.end(true);
		assertThat(this.eventsV1.calls).extracting(Server.Call::describe).containsExactly("create 1", "patch 2");
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(5);
		assertThat(this.counters.totalDropped()).isEqualTo(5);
	}

	@Test
	void finalWritesThatTheAbortedWritersDropAreCountedOncePerOccurrence() {
		EventsV1SinkSubscriber sink = new EventsV1SinkSubscriber("sink", this.eventsV1,
				new ApiChoice(EventsApi.EVENTS_V1, "events.k8s.io/v1"), this.settings, this.counters);
		TestSinks.start(sink);
		for (int i = 0; i < 7; i++) {
			sink.onEvent(TestEvents.recorded("Unhealthy", "probe failed", TestEvents.object("Pod", "db-0", "ns")));
		}
		await().atMost(WAIT).until(() -> TestSinks.pending(sink) == 0);
		// aborted while the final PATCH (5 occurrences) was being submitted: the writers drop it
		TestSinks.abort(sink);
		sink.beforeStop(true);
		sink.end(true);
		assertThat(this.eventsV1.calls).hasSize(2);
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).as("one per occurrence, not one per write")
			.isEqualTo(5);
		assertThat(this.counters.totalDropped()).isEqualTo(5);
	}

	/**
	 * A stop past its deadline keeps what the series hold for the next start; a shutdown that comes instead makes it
	 * lost: counted then, once per occurrence.
	 */
	@Test
	void aShutdownAfterAStopCountsWhatTheStopKeptForTheNextStart() {
		EventsV1SinkSubscriber sink = new EventsV1SinkSubscriber("sink", this.eventsV1,
				new ApiChoice(EventsApi.EVENTS_V1, "events.k8s.io/v1"), this.settings, this.counters);
		InlineSink inline = new InlineSink("sink", sink, this.counters, this.clock, (subscriber) -> {
		});
		inline.start();
		for (int i = 0; i < 7; i++) {
			inline.offer(TestEvents.recorded("Unhealthy", "probe failed", TestEvents.object("Pod", "db-0", "ns")));
		}
		await().atMost(WAIT).until(() -> TestSinks.pending(sink) == 0);
		// the deadline passed before the stop marker's final writes
		inline.abort();
		inline.closeInput(false);
		assertThat(inline.join(System.nanoTime() + WAIT.toNanos())).isTrue();
		assertThat(this.counters.totalDropped()).as("kept for the next start").isZero();
		inline.closeInput(true);
		assertThat(this.eventsV1.calls).extracting(Server.Call::describe).containsExactly("create 1", "patch 2");
		assertThat(this.counters.dropped(DropReason.SHUTDOWN)).isEqualTo(5);
		assertThat(this.counters.totalDropped()).isEqualTo(5);
	}

	@Test
	void aStopThatIsNotFinalKeepsWhatTheSeriesHoldForTheNextStart() {
		EventsV1SinkSubscriber sink = new EventsV1SinkSubscriber("sink", this.eventsV1,
				new ApiChoice(EventsApi.EVENTS_V1, "events.k8s.io/v1"), this.settings, this.counters);
		TestSinks.start(sink);
		for (int i = 0; i < 7; i++) {
			sink.onEvent(TestEvents.recorded("Unhealthy", "probe failed", TestEvents.object("Pod", "db-0", "ns")));
		}
		await().atMost(WAIT).until(() -> TestSinks.pending(sink) == 0);
		TestSinks.abort(sink);
		sink.end(false);
		assertThat(this.counters.totalDropped()).isZero();
		TestSinks.start(sink);
		sink.beforeStop(true);
		sink.end(true);
		assertThat(this.eventsV1.calls).extracting(Server.Call::describe)
			.containsExactly("create 1", "patch 2", "patch 7");
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void acceptedIsWrittenPlusDroppedPerOccurrenceWithDeterministicNamesAtAShutdownPastItsDeadline() {
		StoredEvents server = new StoredEvents();
		EventBroadcaster broadcaster = EventBroadcaster.builder()
			.clock(this.clock)
			.deterministicNames(true)
			.eventsApi(EventsApi.EVENTS_V1)
			.build();
		broadcaster.startRecordingToSink(server.eventsV1Sink());
		broadcaster.start();
		try {
			for (int object = 0; object < 50; object++) {
				ObjectRecorder pod = broadcaster.newRecorder(new EventSource("example.com/web", "web-0"))
					.about(TestEvents.object("Pod", "db-" + object, "ns"));
				for (int i = 0; i < 7; i++) {
					pod.warning("Unhealthy", "probe failed");
				}
			}
			await().atMost(WAIT).until(() -> server.all().size() == 50
					&& broadcaster.stats().writes().patched() == 50);
			// from now on the server hangs until the shutdown's deadline interrupts the writers
			CountDownLatch never = new CountDownLatch(1);
			server.beforeRequest((request) -> {
				try {
					never.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("aborted");
				}
			});
			assertThat(broadcaster.shutdown(Duration.ofMillis(50))).isFalse();
			await().atMost(WAIT).until(() -> EventBroadcasterTests.kubeEventsThreads().isEmpty());
			long written = server.all().stream().mapToLong((event) -> Server.count((EventsV1Event) event)).sum();
			assertThat(written).as("each Event at its series' count 2").isEqualTo(100);
			assertThat(broadcaster.stats().accepted()).isEqualTo(350);
			assertThat(broadcaster.stats().dropped("shutdown")).as("5 held per series").isEqualTo(250);
			assertThat(written + broadcaster.stats().totalDropped()).isEqualTo(350);
		}
		finally {
			broadcaster.shutdown(WAIT);
		}
	}

	/** events.k8s.io/v1 as the server keeps it; refuses with 403 the requests {@link #refuse} selects. */
	static final class Server implements EventsV1Sink {

		record Call(String verb, String name, int count) {

			String describe() {
				return this.verb + " " + this.count;
			}

		}

		final List<Call> calls = new CopyOnWriteArrayList<>();

		final Map<String, EventsV1Event> stored = new ConcurrentHashMap<>();

		volatile Predicate<Call> refuse = (call) -> false;

		static int count(EventsV1Event event) {
			return (event.getSeries() != null) ? event.getSeries().getCount() : 1;
		}

		@Override
		public EventsV1Event create(EventsV1Event event) throws EventSinkException {
			Call call = new Call("create", event.getMetadata().getName(), count(event));
			answer(call);
			this.stored.put(call.name(), event);
			return event;
		}

		@Override
		public EventsV1Event patch(EventsV1Event event, SeriesPatch patch) throws EventSinkException {
			Call call = new Call("patch", event.getMetadata().getName(), patch.count());
			answer(call);
			EventsV1Event stored = this.stored.get(call.name());
			if (stored == null) {
				throw EventSinkException.status(404, "NotFound", "events \"" + call.name() + "\" not found");
			}
			stored.setSeries(new io.kubernetes.client.openapi.models.EventsV1EventSeries().count(patch.count())
				.lastObservedTime(EventsV1Events.microTime(patch.lastObservedTime())));
			return stored;
		}

		private void answer(Call call) throws EventSinkException {
			this.calls.add(call);
			if (this.refuse.test(call)) {
				throw FORBIDDEN;
			}
		}

	}

}
