package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.github.kubeevents.introspect.RecorderStats;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The deterministic-names mode through the broadcaster, over an in-memory API server that several broadcasters
 * share (a restart is a new broadcaster, a replica a second one): one Event per stream across restarts and
 * replicas on both APIs, the exact requests, the fallback when reads are refused, and the default mode unchanged.
 */
class DeterministicNamingTests {

	private static final Instant T0 = Instant.parse("2026-12-02T15:00:00Z");

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final TickingClock clock = TickingClock.fixed(T0);

	private final StoredEvents server = new StoredEvents();

	private final List<EventBroadcaster> broadcasters = new CopyOnWriteArrayList<>();

	private final List<String> requests = new CopyOnWriteArrayList<>();

	@AfterEach
	void shutDown() {
		this.broadcasters.forEach((b) -> b.shutdown(Duration.ofSeconds(10)));
	}

	private EventBroadcaster broadcaster(boolean deterministic) {
		EventBroadcaster broadcaster = EventBroadcaster.builder()
			.clock(this.clock)
			.sleeper((duration) -> {
			})
			.jitter(() -> 0.5)
			.deterministicNames(deterministic)
			.requestListener((api, verb, result, duration) -> this.requests.add(api + " " + verb + " " + result))
			.build();
		this.broadcasters.add(broadcaster);
		return broadcaster;
	}

	private ObjectRecorder coreV1Recorder(EventBroadcaster broadcaster, String host) {
		broadcaster.startRecordingToSink(this.server.coreV1Sink());
		broadcaster.start();
		return broadcaster.newRecorder(new EventSource("example.com/operator", host)).about(pod());
	}

	private ObjectRecorder eventsV1Recorder(EventBroadcaster broadcaster, String host) {
		broadcaster.startRecordingToSink(this.server.eventsV1Sink());
		broadcaster.start();
		return broadcaster.newRecorder(new EventSource("example.com/operator", host)).about(pod());
	}

	private static InvolvedObject pod() {
		return new InvolvedObject("Pod", "v1", "shop", "web-0", "uid-web-0", null, null);
	}

	private void record(ObjectRecorder recorder, int times) {
		for (int i = 0; i < times; i++) {
			recorder.warning("BackOff", "Back-off restarting failed container");
			this.clock.advance(Duration.ofSeconds(1));
		}
	}

	private static void stop(EventBroadcaster broadcaster) {
		broadcaster.shutdown(Duration.ofSeconds(10));
	}

	private List<CoreV1Event> coreV1Events() {
		List<CoreV1Event> events = new ArrayList<>();
		for (Object event : this.server.all()) {
			events.add((CoreV1Event) event);
		}
		return events;
	}

	@Test
	void coreV1ARestartContinuesTheEventCountFiveThenEight() {
		EventBroadcaster first = broadcaster(true);
		record(coreV1Recorder(first, "web-7d9f-abcde"), 5);
		stop(first);
		assertThat(coreV1Events()).singleElement().satisfies((event) -> assertThat(event.getCount()).isEqualTo(5));
		String name = coreV1Events().get(0).getMetadata().getName();
		assertThat(name).startsWith("web-0.").hasSize("web-0.".length() + 32);
		this.server.clearRequests();
		this.requests.clear();

		// the restarted pod has a new name (another reporting instance): the stream is the same
		EventBroadcaster second = broadcaster(true);
		record(coreV1Recorder(second, "web-7d9f-xyz12"), 3);
		stop(second);
		assertThat(coreV1Events()).singleElement().satisfies((event) -> {
			assertThat(event.getMetadata().getName()).isEqualTo(name);
			assertThat(event.getCount()).isEqualTo(8);
			assertThat(event.getFirstTimestamp().toInstant()).isEqualTo(T0);
			assertThat(event.getLastTimestamp().toInstant()).isEqualTo(T0.plusSeconds(7));
		});
		// the first write after the restart costs a GET and a PATCH more; the next ones none
		String key = "shop/" + name;
		assertThat(this.server.requests()).containsExactly("create " + key, "get " + key, "patch " + key,
				"patch " + key, "patch " + key);
		assertThat(this.requests).containsExactly("core/v1 create client_error", "core/v1 get success",
				"core/v1 patch success", "core/v1 patch success", "core/v1 patch success");
		assertThat(second.stats().writes().created()).isZero();
		assertThat(second.stats().writes().patched()).isEqualTo(3);
		assertThat(second.stats().totalDropped()).isZero();
		assertThat(second.stats().naming()).isEqualTo(new RecorderStats.Naming("deterministic", true, 0, null));
	}

	@Test
	void coreV1TwoReplicasWritingTwentyEachEndWithOneEventOfForty() {
		ObjectRecorder one = coreV1Recorder(broadcaster(true), "replica-1");
		ObjectRecorder two = coreV1Recorder(broadcaster(true), "replica-2");
		for (int i = 0; i < 20; i++) {
			one.warning("BackOff", "Back-off restarting failed container");
			two.warning("BackOff", "Back-off restarting failed container");
		}
		this.broadcasters.forEach(DeterministicNamingTests::stop);
		assertThat(coreV1Events()).singleElement().satisfies((event) -> assertThat(event.getCount()).isEqualTo(40));
		this.broadcasters.forEach((b) -> assertThat(b.stats().totalDropped()).isZero());
	}

	@Test
	void coreV1TwoReplicasCoalescingRepeatsWithAMinimumUpdateIntervalEndWithOneEventOfForty() {
		List<ObjectRecorder> replicas = new ArrayList<>();
		for (String host : List.of("replica-1", "replica-2")) {
			EventBroadcaster broadcaster = EventBroadcaster.builder()
				.clock(this.clock)
				.sleeper((duration) -> {
				})
				.jitter(() -> 0.5)
				.deterministicNames(true)
				.correlatorOptions(CorrelatorOptions.builder().minUpdateInterval(Duration.ofMinutes(10)).build())
				.build();
			this.broadcasters.add(broadcaster);
			replicas.add(coreV1Recorder(broadcaster, host));
		}
		for (int i = 0; i < 20; i++) {
			replicas.forEach((replica) -> replica.warning("BackOff", "Back-off restarting failed container"));
		}
		this.broadcasters.forEach(DeterministicNamingTests::stop);
		assertThat(coreV1Events()).singleElement().satisfies((event) -> assertThat(event.getCount()).isEqualTo(40));
		// each replica: its first occurrence, then its 19 repeats as one write at the shutdown
		assertThat(this.broadcasters).allSatisfy((b) -> {
			assertThat(b.stats().writes().created() + b.stats().writes().patched()).isEqualTo(2);
			assertThat(b.stats().totalDropped()).isZero();
		});
	}

	@Test
	void coreV1AConflictInjectedBeforeAPatchIsReadAgainAndAdded() {
		EventBroadcaster broadcaster = broadcaster(true);
		ObjectRecorder recorder = coreV1Recorder(broadcaster, "host-1");
		record(recorder, 1);
		await().atMost(WAIT).until(() -> this.server.requests().size() == 1);
		String key = "shop/" + coreV1Events().get(0).getMetadata().getName();
		// another writer adds 10 between this recorder's writes
		this.server.bump(key, 10);
		record(recorder, 1);
		stop(broadcaster);
		assertThat(coreV1Events().get(0).getCount()).isEqualTo(12);
		assertThat(this.server.requests()).containsExactly("create " + key, "patch " + key, "get " + key,
				"patch " + key);
		assertThat(broadcaster.stats().totalDropped()).isZero();
	}

	@Test
	void coreV1AnOccurrenceThatLosesTheRaceTenTimesIsCarriedAndTheShutdownWritesIt() {
		EventBroadcaster broadcaster = broadcaster(true);
		ObjectRecorder recorder = coreV1Recorder(broadcaster, "host-1");
		record(recorder, 1);
		await().atMost(WAIT).until(() -> this.server.requests().size() == 1);
		String key = "shop/" + coreV1Events().get(0).getMetadata().getName();
		// another writer changes the Event before each of this recorder's next 11 patches, then stops writing
		AtomicInteger racing = new AtomicInteger(11);
		this.server.beforeRequest((request) -> {
			if (request.startsWith("patch") && racing.getAndDecrement() > 0) {
				this.server.bump(key, 1);
			}
		});
		record(recorder, 1);
		stop(broadcaster);
		assertThat(coreV1Events().get(0).getCount()).as("1 + 11 by the other writer + the carried one").isEqualTo(13);
		assertThat(broadcaster.stats().totalDropped()).isZero();
	}

	@Test
	void coreV1WhatAStreamStillCarriesWhenTheShutdownEndsIsCountedAsShutdown() {
		EventBroadcaster broadcaster = broadcaster(true);
		ObjectRecorder recorder = coreV1Recorder(broadcaster, "host-1");
		record(recorder, 1);
		await().atMost(WAIT).until(() -> this.server.requests().size() == 1);
		String key = "shop/" + coreV1Events().get(0).getMetadata().getName();
		this.server.beforeRequest((request) -> {
			if (request.startsWith("patch")) {
				this.server.bump(key, 1);
			}
		});
		try (LogCapture log = LogCapture.of(CoreV1SinkSubscriber.class, Level.WARN)) {
			record(recorder, 1);
			stop(broadcaster);
			assertThat(log.messages(Level.WARN)).singleElement()
				.asString()
				.startsWith("1 occurrence(s) that lost the race for their Event to another writer were not written"
						+ " before the shutdown ended (counted as shutdown drops)");
		}
		// the write's 10 re-reads, then the stop's 100
		assertThat(this.server.requests()).filteredOn((request) -> request.startsWith("get")).hasSize(10 + 100);
		assertThat(broadcaster.stats().dropped("shutdown")).isEqualTo(1);
		assertThat(broadcaster.stats().totalDropped()).isEqualTo(1);
	}

	@Test
	void coreV1DefaultModeCreatesASecondEventAfterARestartAsClientGoDoes() {
		EventBroadcaster first = broadcaster(false);
		record(coreV1Recorder(first, "host-1"), 5);
		stop(first);
		EventBroadcaster second = broadcaster(false);
		record(coreV1Recorder(second, "host-1"), 3);
		stop(second);
		assertThat(coreV1Events()).extracting(CoreV1Event::getCount).containsExactly(5, 3);
		assertThat(coreV1Events()).extracting((event) -> event.getMetadata().getName())
			.containsExactly("web-0." + Long.toHexString(EventNames.unixNanos(T0)),
					"web-0." + Long.toHexString(EventNames.unixNanos(T0.plusSeconds(5))));
		assertThat(this.server.requests()).noneMatch((request) -> request.startsWith("get"));
		assertThat(second.stats().naming()).isEqualTo(RecorderStats.Naming.CLIENT_GO_NAMES);
	}

	@Test
	void coreV1ARefusedReadFallsBackToClientGoNamesWithOneWarningAndLosesNothing() {
		EventBroadcaster first = broadcaster(true);
		record(coreV1Recorder(first, "host-1"), 5);
		stop(first);
		this.server.forbidGet();
		EventBroadcaster second = broadcaster(true);
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.WARN)) {
			ObjectRecorder recorder = coreV1Recorder(second, "host-2");
			for (int i = 1; i <= 3; i++) {
				record(recorder, 1);
				int written = i;
				await().atMost(WAIT).until(() -> second.stats().writes().created() + second.stats().writes().patched() == written);
			}
			stop(second);
			assertThat(log.messages(Level.WARN)).filteredOn((line) -> line.contains("Deterministic event names are off"))
				.singleElement()
				.satisfies((line) -> assertThat(line).contains("the verb 'get' on events (core/v1)"));
		}
		// the occurrences after the restart are a new Event with client-go's name, counted 3
		assertThat(coreV1Events()).extracting(CoreV1Event::getCount).containsExactly(5, 3);
		assertThat(coreV1Events().get(1).getMetadata().getName())
			.isEqualTo("web-0." + Long.toHexString(EventNames.unixNanos(T0.plusSeconds(5))));
		assertThat(second.stats().totalDropped()).isZero();
		RecorderStats.Naming naming = second.stats().naming();
		assertThat(naming.mode()).isEqualTo("client-go-fallback");
		assertThat(naming.fallbacks()).isEqualTo(1);
		assertThat(naming.fallbackReason()).contains("'get'");
	}

	@Test
	void aCustomSinkThatCannotReadKeepsClientGoNames() {
		ScriptedSink sink = new ScriptedSink();
		EventBroadcaster broadcaster = broadcaster(true);
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		broadcaster.newRecorder(new EventSource("example.com/operator", "host-1")).about(pod()).warning("BackOff", "x");
		stop(broadcaster);
		assertThat(sink.calls()).singleElement()
			.satisfies((call) -> assertThat(call.event().getMetadata().getName())
				.isEqualTo("web-0." + Long.toHexString(EventNames.unixNanos(T0))));
		assertThat(broadcaster.stats().naming().mode()).isEqualTo("client-go-fallback");
		assertThat(broadcaster.stats().naming().fallbackReason()).contains("supportsGet() is false");
	}

	@Test
	void coreV1AnAggregateEventIsNamedByItsStreamToo() {
		EventBroadcaster broadcaster = broadcaster(true);
		ObjectRecorder recorder = coreV1Recorder(broadcaster, "host-1");
		// ten distinct messages of one reason within the window make an aggregate (client-go's default of 10)
		for (int i = 0; i < 12; i++) {
			recorder.warning("BackOff", "Back-off " + i);
		}
		stop(broadcaster);
		CoreV1Event aggregate = coreV1Events().stream()
			.filter((event) -> event.getMessage().startsWith("(combined from similar events)"))
			.findFirst()
			.orElseThrow();
		assertThat(aggregate.getCount()).isEqualTo(3);
		assertThat(aggregate.getMetadata().getName()).isEqualTo(DeterministicNames.coreV1(aggregate, true));
		assertThat(coreV1Events()).hasSize(10);
	}

	private EventsV1Event eventsV1Event() {
		assertThat(this.server.all()).hasSize(1);
		return (EventsV1Event) this.server.all().get(0);
	}

	@Test
	void eventsV1ARestartContinuesTheSeriesFromTheServersCount() {
		EventBroadcaster first = broadcaster(true);
		record(eventsV1Recorder(first, "host-1"), 5);
		// a graceful stop writes the final count (a kill -9 would lose what only the cache had)
		stop(first);
		assertThat(eventsV1Event().getSeries().getCount()).isEqualTo(5);
		String key = "shop/" + eventsV1Event().getMetadata().getName();
		this.server.clearRequests();

		EventBroadcaster second = broadcaster(true);
		record(eventsV1Recorder(second, "host-2"), 3);
		// the series cache counts this process's 3 occurrences and shows the server's count (7 before the final)
		await().atMost(WAIT).untilAsserted(() -> assertThat(second.snapshot(10).sinks().get(0).series().entries())
			.singleElement()
			.satisfies((entry) -> {
				assertThat(entry.count()).isEqualTo(3);
				assertThat(entry.countOnServer()).isEqualTo(7);
			}));
		stop(second);
		EventsV1Event event = eventsV1Event();
		assertThat(event.getSeries().getCount()).isEqualTo(8);
		assertThat(event.getSeries().getLastObservedTime().toInstant()).isEqualTo(T0.plusSeconds(7));
		// create (409), read, the first occurrence's patch; the second occurrence's series patch; the final count
		assertThat(this.server.requests()).containsExactly("create " + key, "get " + key, "patch " + key,
				"patch " + key, "patch " + key);
		assertThat(second.stats().totalDropped()).isZero();
	}

	@Test
	void eventsV1AFirstOccurrenceThatFindsAnEventWithoutASeriesStartsOneAtTwo() {
		EventBroadcaster first = broadcaster(true);
		record(eventsV1Recorder(first, "host-1"), 1);
		stop(first);
		assertThat(eventsV1Event().getSeries()).isNull();
		EventBroadcaster second = broadcaster(true);
		record(eventsV1Recorder(second, "host-2"), 1);
		stop(second);
		assertThat(eventsV1Event().getSeries().getCount()).isEqualTo(2);
	}

	@Test
	void eventsV1TwoReplicasWritingTwentyEachEndWithOneSeriesOfForty() {
		ObjectRecorder one = eventsV1Recorder(broadcaster(true), "replica-1");
		ObjectRecorder two = eventsV1Recorder(broadcaster(true), "replica-2");
		for (int i = 0; i < 20; i++) {
			one.warning("BackOff", "Back-off restarting failed container");
			two.warning("BackOff", "Back-off restarting failed container");
		}
		this.broadcasters.forEach(DeterministicNamingTests::stop);
		assertThat(eventsV1Event().getSeries().getCount()).isEqualTo(40);
	}

	@Test
	void eventsV1DefaultModeIsUnchanged() {
		EventBroadcaster broadcaster = broadcaster(false);
		record(eventsV1Recorder(broadcaster, "host-1"), 3);
		stop(broadcaster);
		EventsV1Event event = eventsV1Event();
		assertThat(event.getMetadata().getName()).isEqualTo("web-0." + Long.toHexString(EventNames.unixNanos(T0)));
		assertThat(event.getSeries().getCount()).isEqualTo(3);
		assertThat(this.server.requests()).extracting((request) -> request.substring(0, request.indexOf(' ')))
			.containsExactly("create", "patch", "patch");
	}

}
