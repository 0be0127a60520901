package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.introspect.RecorderSnapshot.SeriesSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The events.k8s.io/v1 sink subscriber with a scripted sink and a clock the test moves: the series state
 * machine of client-go's {@code tools/events} (spec §2.4–2.6), its error classes, the bound on the series cache,
 * and validation before sending (§6.3).
 */
class EventsV1SinkSubscriberTests {

	private static final Instant T0 = Instant.parse("2026-11-30T12:00:00.123456789Z");

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final TickingClock clock = TickingClock.fixed(T0);

	private final Script sink = new Script();

	private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

	private final List<EventBroadcaster> broadcasters = new ArrayList<>();

	private EventRecorder recorder(EventBroadcaster.Builder builder) {
		EventBroadcaster broadcaster = builder.clock(this.clock)
			.sleeper((duration) -> this.sleeps.add(duration))
			.jitter(() -> 0.5)
			.build();
		this.broadcasters.add(broadcaster);
		broadcaster.startRecordingToSink(this.sink);
		broadcaster.start();
		return broadcaster.newRecorder(new EventSource("example.com/my-controller", "host-1"));
	}

	private EventRecorder recorder() {
		return recorder(EventBroadcaster.builder());
	}

	@AfterEach
	void shutDown() {
		this.broadcasters.forEach((b) -> b.shutdown(Duration.ofSeconds(10)));
	}

	private static InvolvedObject pod(String name) {
		return new InvolvedObject("Pod", "v1", "ns", name, "uid-" + name, null, null);
	}

	private SeriesSnapshot series() {
		RecorderSnapshot snapshot = this.broadcasters.get(0).snapshot(Integer.MAX_VALUE);
		return snapshot.sinks().get(0).series();
	}

	@Test
	void createThenSeriesPatchThenNothingUntilTheFinishWritesTheCountAndForgets() {
		ObjectRecorder web = recorder().about(pod("web-0")).action("Pulling");
		web.normal("Pulled", "pulled %s", "a");
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 1);
		Call create = this.sink.calls.get(0);
		assertThat(create.verb()).isEqualTo("create");
		assertThat(create.event().getSeries()).isNull();
		assertThat(create.event().getDeprecatedCount()).isNull();
		assertThat(create.event().getDeprecatedSource()).isNull();
		assertThat(create.event().getEventTime().toInstant()).isEqualTo(Instant.parse("2026-11-30T12:00:00.123456Z"));
		assertThat(create.event().getReportingController()).isEqualTo("example.com/my-controller");
		assertThat(create.event().getReportingInstance()).isEqualTo("example.com/my-controller-host-1");
		assertThat(create.event().getAction()).isEqualTo("Pulling");
		assertThat(create.event().getNote()).isEqualTo("pulled a");

		this.clock.advance(Duration.ofSeconds(1));
		web.normal("Pulled", "pulled %s", "b");
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 2);
		assertThat(this.sink.calls.get(1).patch()).isEqualTo(new EventsV1Sink.SeriesPatch(2, T0.plusSeconds(1)));
		assertThat(this.sink.calls.get(1).event().getMetadata().getName())
			.isEqualTo(create.event().getMetadata().getName());

		this.clock.advance(Duration.ofSeconds(1));
		web.normal("Pulled", "pulled %s", "c");
		await().atMost(WAIT).until(() -> series().entries().get(0).count() == 3);
		assertThat(this.sink.calls).hasSize(2);

		// the finish passes run every 6 minutes from the start (client-go's finishSeries); the first that sees the
		// series idle for more than 6 minutes (at 12 minutes) writes the final count and forgets it
		this.clock.advance(Duration.ofMinutes(6));
		await().atMost(WAIT).until(() -> series().entries().get(0).finishesAt().equals(T0.plus(Duration.ofMinutes(12))));
		assertThat(this.sink.calls).hasSize(2);
		this.clock.advance(Duration.ofMinutes(7));
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 3);
		assertThat(this.sink.calls.get(2).patch()).isEqualTo(new EventsV1Sink.SeriesPatch(3, T0.plusSeconds(2)));
		await().atMost(WAIT).until(() -> series().size() == 0);
	}

	@Test
	void tenThousandRepeatsCostThreeRequests() {
		// 10,000 occurrences 100 ms apart (16 min 40 s, no heartbeat due): CREATE, the series PATCH of the 2nd,
		// and the finish PATCH with the final count; core/v1 with its spam filter would write 25 + 3 times and
		// drop the rest
		EventRecorder recorder = recorder(EventBroadcaster.builder().incomingQueueCapacity(10_000)
			.subscriberOptions(new Subscription.Options(10_000, Subscription.FullQueuePolicy.WAIT)));
		ObjectRecorder db = recorder.about(pod("db-0"));
		for (int i = 0; i < 10_000; i++) {
			db.warning("Unhealthy", "probe failed");
			this.clock.advance(Duration.ofMillis(100));
		}
		await().atMost(WAIT).until(() -> series().size() == 1 && series().entries().get(0).count() == 10_000);
		assertThat(this.sink.calls).hasSize(2);
		// last occurrence at 16:39.9; the pass at 24:00 is the first to see it idle for more than 6 minutes
		this.clock.advance(Duration.ofMinutes(8));
		await().atMost(WAIT).until(() -> series().size() == 0);
		assertThat(this.sink.calls).extracting(Call::verb).containsExactly("create", "patch", "patch");
		assertThat(this.sink.calls.get(2).patch())
			.isEqualTo(new EventsV1Sink.SeriesPatch(10_000, T0.plus(Duration.ofMillis(100 * 9_999))));
	}

	@Test
	void heartbeatWritesTheCountEveryThirtyMinutesAndKeepsTheSeries() {
		ObjectRecorder db = recorder().about(pod("db-0"));
		for (int i = 0; i < 3; i++) {
			db.warning("Unhealthy", "probe failed");
		}
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 2 && series().entries().get(0).count() == 3);
		for (int i = 0; i < 6; i++) {
			this.clock.advance(Duration.ofMinutes(5));
			db.warning("Unhealthy", "probe failed");
		}
		// the heartbeat due at 30 minutes runs before the occurrence recorded at 30 minutes is counted
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 3);
		assertThat(this.sink.calls.get(2).patch()).isEqualTo(new EventsV1Sink.SeriesPatch(8, T0.plus(Duration.ofMinutes(25))));
		await().atMost(WAIT).untilAsserted(() -> assertThat(series().entries()).singleElement().satisfies((e) -> {
			assertThat(e.count()).isEqualTo(9);
			assertThat(e.countOnServer()).isEqualTo(8);
		}));
	}

	@Test
	void singletonIsForgottenByTheFirstPassThatSeesItOlderThanSixMinutesWithoutARequest() {
		recorder().about(pod("job-0")).normal("Completed", "done");
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 1 && series().size() == 1);
		this.clock.advance(Duration.ofMinutes(7));
		await().atMost(WAIT).until(() -> series().entries().get(0).finishesAt().equals(T0.plus(Duration.ofMinutes(12))));
		this.clock.advance(Duration.ofMinutes(6));
		await().atMost(WAIT).until(() -> series().size() == 0);
		assertThat(this.sink.calls).hasSize(1);
	}

	/**
	 * Issue 12 item 8: the snapshot's times are per series and mean what they say: when this entry will be finished
	 * (the first finish pass that sees it idle for more than 6 minutes; passes every 6 minutes from the start) and,
	 * only when it comes first, when the heartbeat will next write its count.
	 */
	@Test
	void snapshotShowsWhenEachSeriesWillBeFinishedOrRefreshed() {
		EventRecorder recorder = recorder();
		ObjectRecorder a = recorder.about(pod("a"));
		a.warning("BackOff", "x");
		this.clock.advance(Duration.ofSeconds(1));
		a.warning("BackOff", "x");
		this.clock.advance(Duration.ofSeconds(419));
		recorder.about(pod("c")).normal("Started", "once");
		ObjectRecorder b = recorder.about(pod("b"));
		b.warning("BackOff", "x");
		this.clock.advance(Duration.ofSeconds(1));
		b.warning("BackOff", "x");
		await().atMost(WAIT).until(() -> series().size() == 3 && this.sink.calls.size() == 5);
		assertThat(series().entries()).extracting((e) -> e.object().name() + " " + e.count() + " finishes "
				+ e.finishesAt() + " heartbeat " + e.nextHeartbeat())
			.containsExactlyInAnyOrder("a 2 finishes " + T0.plus(Duration.ofMinutes(12)) + " heartbeat null",
					"c 1 finishes " + T0.plus(Duration.ofMinutes(18)) + " heartbeat null",
					"b 2 finishes " + T0.plus(Duration.ofMinutes(18)) + " heartbeat null");
		// near the 30-minute heartbeat, a series that stays active is refreshed before it could be finished
		this.clock.advance(Duration.ofMinutes(19));
		ObjectRecorder d = recorder.about(pod("d"));
		d.warning("BackOff", "x");
		this.clock.advance(Duration.ofSeconds(1));
		d.warning("BackOff", "x");
		await().atMost(WAIT).until(() -> series().size() == 1 && series().entries().get(0).count() == 2);
		assertThat(series().entries()).singleElement().satisfies((e) -> {
			assertThat(e.nextHeartbeat()).isEqualTo(T0.plus(Duration.ofMinutes(30)));
			assertThat(e.finishesAt()).isEqualTo(T0.plus(Duration.ofMinutes(36)));
		});
	}

	/** TestRecordEventToSink (c): PATCH 404 → create with the series; AlreadyExists there is retried. */
	@Test
	void notFoundPatchCreatesWithTheSeriesAndAlreadyExistsFromASeriesIsRetried() {
		this.sink.failAt.put(1, EventSinkException.status(404, "NotFound", "not found"));
		this.sink.failAt.put(2, EventSinkException.status(409, "AlreadyExists", "already exists"));
		ObjectRecorder api = recorder().about(pod("api-0"));
		api.warning("BackOff", "x");
		api.warning("BackOff", "x");
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 4);
		assertThat(this.sink.calls).extracting(Call::verb).containsExactly("create", "patch", "create", "patch");
		assertThat(this.sink.calls.get(2).event().getSeries().getCount()).isEqualTo(2);
		assertThat(this.sink.calls.get(2).event().getSeries().getLastObservedTime().toInstant())
			.isEqualTo(Instant.parse("2026-11-30T12:00:00.123456Z"));
		assertThat(this.sleeps).containsExactly(Duration.ofMillis(11_250));
		assertThat(this.broadcasters.get(0).stats().dropped().values()).allMatch((n) -> n == 0);
	}

	@Test
	void forbiddenIsOneAttemptAndCounted() {
		this.sink.failAt.put(0, EventSinkException.status(403, "Forbidden", "events.events.k8s.io is forbidden"));
		recorder().about(pod("rbac-0")).warning("Failed", "boom");
		await().atMost(WAIT).until(() -> this.broadcasters.get(0).stats().dropped(DropReason.REJECTED_BY_SERVER.tag()) == 1);
		assertThat(this.sink.calls).hasSize(1);
		assertThat(this.broadcasters.get(0).stats().lastRejection().error()).contains("events.events.k8s.io is forbidden");
	}

	@Test
	void transportFailuresAreRetriedTwelveTimesWithJitterOnEveryRetry() {
		for (int i = 0; i < 12; i++) {
			this.sink.failAt.put(i, EventSinkException.of(EventSinkException.Kind.TRANSPORT, "refused", null));
		}
		recorder().about(pod("net-0")).warning("Failed", "boom");
		await().atMost(WAIT).until(() -> this.broadcasters.get(0).stats().dropped(DropReason.RETRIES_EXHAUSTED.tag()) == 1);
		assertThat(this.sink.calls).hasSize(12);
		assertThat(this.sleeps).hasSize(11).allMatch((d) -> d.equals(Duration.ofMillis(11_250)));
	}

	@Test
	void seriesCacheStaysAtItsBoundAndWritesTheFinalCountOfAnEvictedSeries() {
		EventRecorder recorder = recorder(EventBroadcaster.builder().seriesCacheSize(100).incomingQueueCapacity(200_000)
			.subscriberOptions(new Subscription.Options(200_000, Subscription.FullQueuePolicy.WAIT))
			.sinkBacklogCapacity(200_000));
		ObjectRecorder first = recorder.about(pod("first"));
		first.warning("Repeated", "x");
		first.warning("Repeated", "x");
		first.warning("Repeated", "x");
		for (int i = 0; i < 100_000; i++) {
			recorder.about(pod("p-" + i)).normal("Distinct", "x");
		}
		await().atMost(Duration.ofSeconds(60)).until(() -> this.sink.calls.size() == 100_003);
		assertThat(series().size()).isEqualTo(100);
		assertThat(this.sink.calls).filteredOn((c) -> c.event().getRegarding().getName().equals("first"))
			.extracting((c) -> c.patch() != null ? c.patch().count() : 1)
			.containsExactly(1, 2, 3);
	}

	@Test
	void invalidReportingControllerIsInvalidInputAndLongNotesAreCut() {
		EventBroadcaster broadcaster = EventBroadcaster.builder().clock(this.clock).build();
		this.broadcasters.add(broadcaster);
		broadcaster.startRecordingToSink(this.sink);
		broadcaster.start();
		broadcaster.newRecorder(EventSource.of("My Controller!")).about(pod("a")).normal("Started", "x");
		EventRecorder valid = broadcaster.newRecorder(EventSource.of("my-controller"));
		valid.about(pod("b")).normal("Started", "\u00e9".repeat(1000));
		valid.about(pod("c")).normal("R".repeat(129), "x");
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 1
				&& broadcaster.stats().dropped(DropReason.INVALID_INPUT.tag()) == 2);
		String note = this.sink.calls.get(0).event().getNote();
		assertThat(note).endsWith(EventsV1Events.TRUNCATION_MARKER);
		assertThat(WireText.utf8Length(note)).isLessThanOrEqualTo(1024).isGreaterThan(1020);
		assertThat(broadcaster.stats().truncatedNotes()).isEqualTo(1);
	}

	@Test
	void spamFilterIsOffByDefaultAndCanBeEnabled() {
		ObjectRecorder flood = recorder().about(pod("flood"));
		for (int i = 0; i < 40; i++) {
			flood.warning("Reason" + i, "x");
		}
		await().atMost(WAIT).until(() -> this.sink.calls.size() == 40);
		this.sink.calls.clear();
		ObjectRecorder limited = recorder(EventBroadcaster.builder()
			.eventsV1CorrelatorOptions(CorrelatorOptions.builder().aggregationEnabled(false).build()))
			.about(pod("limited"));
		for (int i = 0; i < 40; i++) {
			limited.warning("Reason" + i, "x");
		}
		await().atMost(WAIT).until(() -> this.broadcasters.get(1).stats().dropped(DropReason.SPAM_FILTERED.tag()) == 15);
		assertThat(this.sink.calls).hasSize(25);
	}

	/** One sink call. */
	record Call(String verb, EventsV1Event event, EventsV1Sink.SeriesPatch patch) {
	}

	/** A sink that records calls and fails the calls whose index (from 0) is scripted. */
	static final class Script implements EventsV1Sink {

		final List<Call> calls = new CopyOnWriteArrayList<>();

		final Map<Integer, EventSinkException> failAt = new ConcurrentHashMap<>();

		private final AtomicInteger index = new AtomicInteger();

		@Override
		public EventsV1Event create(EventsV1Event event) throws EventSinkException {
			return answer(new Call("create", event, null));
		}

		@Override
		public EventsV1Event patch(EventsV1Event event, EventsV1Sink.SeriesPatch patch) throws EventSinkException {
			return answer(new Call("patch", event, patch));
		}

		private EventsV1Event answer(Call call) throws EventSinkException {
			this.calls.add(call);
			EventSinkException failure = this.failAt.get(this.index.getAndIncrement());
			if (failure != null) {
				throw failure;
			}
			return call.event();
		}

	}

}
