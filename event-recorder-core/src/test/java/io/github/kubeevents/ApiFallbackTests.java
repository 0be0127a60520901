package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 12 item 2: under {@code auto}, an events.k8s.io/v1 sink that RBAC refuses (HTTP 403) switches to core/v1
 * for good when core/v1 serves better, writes the refused occurrences there and every later one, and says so
 * once; when core/v1 is refused too, or the API was configured, nothing switches. Scripted sinks stand in for the
 * server here; {@code RbacFallbackIT} in the starter checks the same against a real kube-apiserver and RBAC.
 */
class ApiFallbackTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final EventSinkException FORBIDDEN = EventSinkException.status(403, "Forbidden",
			"HTTP 403 Forbidden: events.events.k8s.io is forbidden: User \"system:serviceaccount:shop:web\" cannot create resource"
					+ " \"events\" in API group \"events.k8s.io\" in the namespace \"ns\"");

	private static final EventSinkException NAMESPACE_TERMINATING = new EventSinkException(
			EventSinkException.Kind.HTTP_STATUS, 403, "Forbidden", true,
			"HTTP 403 Forbidden: events.events.k8s.io \"a.1\" is forbidden: unable to create new content in namespace ns"
					+ " because it is being terminated",
			null);

	private final TickingClock clock = TickingClock.fixed(Instant.parse("2026-12-01T09:00:00Z"));

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	private final EventsV1SinkSubscriberTests.Script eventsV1 = new EventsV1SinkSubscriberTests.Script();

	private final ScriptedSink coreV1 = new ScriptedSink();

	private final List<String> accessReviews = new CopyOnWriteArrayList<>();

	private final EventBroadcaster broadcaster = EventBroadcaster.builder().clock(this.clock).build();

	@AfterEach
	void shutDown() {
		this.broadcaster.shutdown(WAIT);
	}

	/** An auto sink whose events.k8s.io/v1 writes are all refused, over the scripted sinks. */
	private SwitchingSinkSubscriber autoSink(Boolean coreV1Allowed) {
		return autoSink(coreV1Allowed, FORBIDDEN);
	}

	private SwitchingSinkSubscriber autoSink(Boolean coreV1Allowed, EventSinkException refusal) {
		for (int i = 0; i < 100; i++) {
			this.eventsV1.failAt.put(i, refusal);
		}
		SinkSettings settings = TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
		}, (api, verb, result, duration) -> {
		}, this.clock);
		CoreV1SinkSubscriber fallback = new CoreV1SinkSubscriber("sink-core", this.coreV1,
				new ApiChoice(EventsApi.CORE_V1, "auto: fallback"), settings, this.counters);
		ApiFallback apiFallback = new ApiFallback(new EventsAccess((group, verb, namespace) -> {
			this.accessReviews.add(group + " " + verb + " " + namespace);
			return group.isEmpty() ? coreV1Allowed : Boolean.FALSE;
		}, EventsAccess.WRITE_VERBS, this.clock));
		SwitchingSinkSubscriber sink = new SwitchingSinkSubscriber(new EventsV1SinkSubscriber("sink", this.eventsV1,
				new ApiChoice(EventsApi.EVENTS_V1, "auto: the API server serves events.k8s.io/v1"), settings,
				this.counters, EventNaming.clientGo(), apiFallback, null, ""), fallback, apiFallback,
				settings.backlogCapacity());
		this.broadcaster.subscribeSink(sink);
		this.broadcaster.start();
		return sink;
	}

	private ObjectRecorder pod(String name) {
		return this.broadcaster.newRecorder(new EventSource("example.com/web", "web-0"))
			.about(TestEvents.object("Pod", name, "ns"));
	}

	/** "group verb" → answer of the scripted access review ({@code ""} for core/v1); absent: unknown. */
	private final Map<String, Boolean> rbac = new ConcurrentHashMap<>();

	/** An {@link ApiFallback} on its own, over {@link #rbac}; every review asked is added to {@link #accessReviews}. */
	private ApiFallback fallback() {
		return new ApiFallback(new EventsAccess((group, verb, namespace) -> {
			this.accessReviews.add(group + " " + verb + " " + namespace);
			return this.rbac.get(group + " " + verb);
		}, EventsAccess.WRITE_VERBS, this.clock));
	}

	private void rbac(String group, Boolean create, Boolean patch) {
		this.rbac.put(group + " create", create);
		this.rbac.put(group + " patch", patch);
	}

	private static RecordedEvent refusedIn(String namespace) {
		return TestEvents.recorded("FailedCreate", "quota exceeded", TestEvents.object("Pod", "a", namespace));
	}

	@Test
	void atStartCoreV1ServingBetterInTheOwnNamespaceSwitchesWithoutALineOfItsOwn() {
		rbac("events.k8s.io", false, false);
		rbac("", true, true);
		ApiFallback fallback = fallback();
		EventsAccess.Check[] checks;
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			checks = fallback.atStart("ns");
			assertThat(fallback.refused(refusedIn("ns"), "create", FORBIDDEN)).isTrue();
			assertThat(log.warnings()).as("the startup report says which API is written, and why").isEmpty();
		}
		assertThat(checks).extracting(EventsAccess.Check::describe)
			.containsExactly("events.k8s.io/v1 refuses create, patch", "core/v1 allows create, patch");
		assertThat(fallback.switched()).isEqualTo(new ApiChoice(EventsApi.CORE_V1, "auto: switched from"
				+ " events.k8s.io/v1, which RBAC refuses (RBAC in namespace 'ns': events.k8s.io/v1 refuses create,"
				+ " patch); core/v1 allows create and patch"));
		assertThat(this.accessReviews).as("nothing asked after the switch")
			.containsExactly("events.k8s.io create ns", "events.k8s.io patch ns", " create ns", " patch ns");
	}

	@Test
	void atStartEventsV1ServingAsWellIsKept() {
		rbac("events.k8s.io", true, true);
		rbac("", true, true);
		ApiFallback fallback = fallback();
		EventsAccess.Check[] checks = fallback.atStart("ns");
		assertThat(checks).extracting(EventsAccess.Check::describe)
			.containsExactly("events.k8s.io/v1 allows create, patch", "core/v1 allows create, patch");
		assertThat(fallback.switched()).isNull();
	}

	/** A review that got no answer at startup: core/v1 is not asked, startup waits for no second time limit. */
	@Test
	void atStartAFailedReviewAsksNothingMoreAndSwitchesNothing() {
		rbac("", true, true);
		ApiFallback fallback = fallback();
		EventsAccess.Check[] checks = fallback.atStart("ns");
		assertThat(this.accessReviews).containsExactly("events.k8s.io create ns");
		assertThat(checks[1]).isEqualTo(new EventsAccess.Check(EventsApi.CORE_V1, "ns", List.of(), List.of(),
				List.of("create", "patch")));
		assertThat(fallback.switched()).isNull();
	}

	@Test
	void aRefusalWhereNeitherApiServesIsLoggedAndKeepsEventsV1() {
		rbac("events.k8s.io", false, false);
		rbac("", false, false);
		ApiFallback fallback = fallback();
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			assertThat(fallback.refused(refusedIn("shop"), "create", FORBIDDEN)).isFalse();
			assertThat(log.warnings()).containsExactly("Kubernetes events in namespace 'shop' are refused:"
					+ " events.k8s.io/v1 (events.k8s.io/v1 refuses create, patch; " + FORBIDDEN.getMessage()
					+ ") and core/v1 refuses create, patch; grant create and patch on events");
		}
		assertThat(fallback.switched()).isNull();
		assertThat(this.accessReviews).containsExactly("events.k8s.io create shop", "events.k8s.io patch shop",
				" create shop", " patch shop");
	}

	/** events.k8s.io/v1 with create alone and nothing better on core/v1: repeats become new Events, no warning. */
	@Test
	void aRefusedPatchWhereEventsV1KeepsCreatingIsNotLogged() {
		rbac("events.k8s.io", true, false);
		rbac("", false, false);
		ApiFallback fallback = fallback();
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			assertThat(fallback.refused(refusedIn("ns"), "patch", FORBIDDEN)).isFalse();
			assertThat(log.lines()).isEmpty();
		}
		assertThat(fallback.keepsWithoutPatch("ns")).isTrue();
		assertThat(fallback.switched()).isNull();
	}

	@Test
	void aRefusalWithAReviewUnansweredDecidesNothing() {
		rbac("events.k8s.io", false, false);
		ApiFallback fallback = fallback();
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			assertThat(fallback.refused(refusedIn("ns"), "create", FORBIDDEN)).isFalse();
			assertThat(log.lines()).isEmpty();
		}
		assertThat(fallback.switched()).isNull();
		assertThat(this.accessReviews).containsExactly("events.k8s.io create ns", "events.k8s.io patch ns",
				" create ns");
	}

	@Test
	void aRefusalWhereCoreV1ServesBetterSwitchesOnceForEveryNamespace() {
		rbac("events.k8s.io", true, false);
		rbac("", true, true);
		ApiFallback fallback = fallback();
		assertThat(fallback.keepsWithoutPatch("ns")).as("core/v1 serves better").isFalse();
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			assertThat(fallback.refused(refusedIn("ns"), "patch", FORBIDDEN)).isTrue();
			assertThat(fallback.switched().reason()).isEqualTo("auto: switched from events.k8s.io/v1, which RBAC"
					+ " refuses (" + FORBIDDEN.getMessage() + "); core/v1 allows create and patch");
			// another namespace, where events.k8s.io/v1 alone would keep writing without patch
			rbac("", false, false);
			assertThat(fallback.refused(refusedIn("other"), "patch", FORBIDDEN)).isTrue();
			assertThat(fallback.keepsWithoutPatch("other")).isFalse();
			assertThat(log.warnings()).hasSize(1);
		}
		assertThat(this.accessReviews).containsExactly("events.k8s.io create ns", "events.k8s.io patch ns",
				" create ns", " patch ns");
	}

	/**
	 * Writer threads report refusals concurrently: one that waited while another switched finds the switch made,
	 * writes core/v1 too and asks nothing (the test holds the fallback's lock, the switch at startup takes it again).
	 */
	@Test
	void aRefusalThatWaitedForTheSwitchFindsItMadeAndAsksNothing() throws Exception {
		rbac("events.k8s.io", false, false);
		rbac("", true, true);
		ApiFallback fallback = fallback();
		RecordedEvent refused = refusedIn("ns");
		CompletableFuture<Boolean> answer = new CompletableFuture<>();
		Thread writer = new Thread(() -> answer.complete(fallback.refused(refused, "create", FORBIDDEN)));
		synchronized (fallback) {
			writer.start();
			await().atMost(WAIT).until(() -> writer.getState() == Thread.State.BLOCKED);
			fallback.atStart("ns");
		}
		assertThat(answer.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.accessReviews).as("the startup check's reviews alone")
			.containsExactly("events.k8s.io create ns", "events.k8s.io patch ns", " create ns", " patch ns");
	}

	@Test
	void eventsV1AllowingEveryVerbIsNeverKeptWithoutPatch() {
		rbac("events.k8s.io", true, true);
		rbac("", false, false);
		assertThat(fallback().keepsWithoutPatch("ns")).isFalse();
	}

	@Test
	void forbiddenEventsV1SwitchesToCoreV1ForGoodAndWritesEveryOccurrenceThere() {
		SwitchingSinkSubscriber sink;
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			sink = autoSink(true);
			pod("a").warning("FailedCreate", "quota exceeded");
			await().atMost(WAIT).until(() -> this.coreV1.calls().size() == 1);
			pod("b").warning("FailedCreate", "quota exceeded");
			pod("c").normal("Created", "ok");
			await().atMost(WAIT).until(() -> this.coreV1.calls().size() == 3);
			assertThat(log.warnings()).filteredOn((line) -> line.startsWith("Writing core/v1")).singleElement()
				.asString()
				.contains("RBAC in namespace 'ns' refuses events.k8s.io/v1 Events (events.k8s.io/v1 refuses create, patch;"
						+ " HTTP 403 Forbidden: events.events.k8s.io is forbidden")
				.contains("and allows create and patch on core/v1 Events")
				.contains("grant the rule {apiGroups: [\"events.k8s.io\"], resources: [\"events\"], verbs: [\"create\","
						+ " \"patch\"]}");
		}
		assertThat(this.coreV1.calls()).extracting((call) -> call.event().getInvolvedObject().getName())
			.containsExactlyInAnyOrder("a", "b", "c");
		int triedOnEventsV1 = this.eventsV1.calls.size();
		pod("d").normal("Created", "ok");
		await().atMost(WAIT).until(() -> this.coreV1.calls().size() == 4);
		assertThat(this.eventsV1.calls).as("after the switch events.k8s.io/v1 is not tried").hasSize(triedOnEventsV1);
		assertThat(this.accessReviews).containsExactly("events.k8s.io create ns", "events.k8s.io patch ns", " create ns",
				" patch ns");
		assertThat(this.counters.totalDropped()).isZero();
		RecorderSnapshot.SinkSnapshot snapshot = sink.snapshot(10, (object) -> true);
		assertThat(snapshot.api()).isEqualTo("core/v1");
		assertThat(snapshot.apiReason()).startsWith("auto: switched from events.k8s.io/v1, which RBAC refuses (HTTP 403")
			.endsWith("core/v1 allows create and patch");
		assertThat(snapshot.stats().created()).isEqualTo(4);
	}

	@Test
	void occurrencesASeriesHeldBeforeTheSwitchAreWrittenOnCoreV1Too() {
		autoSink(true);
		ObjectRecorder db = pod("db-0");
		for (int i = 0; i < 5; i++) {
			db.warning("Unhealthy", "probe failed");
		}
		// every occurrence ends up on core/v1 once, wherever the switch fell in the sequence: CREATE and 4 PATCHes
		await().atMost(WAIT).until(() -> this.coreV1.stored().values().stream().anyMatch((e) -> e.getCount() == 5));
		assertThat(this.coreV1.calls()).extracting(ScriptedSink.Call::verb)
			.containsExactly("create", "patch", "patch", "patch", "patch");
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void whenCoreV1IsRefusedTooNothingSwitchesAndTheRefusalIsCounted() {
		SwitchingSinkSubscriber sink = autoSink(false);
		pod("a").warning("FailedCreate", "quota exceeded");
		pod("b").warning("FailedCreate", "quota exceeded");
		await().atMost(WAIT).until(() -> this.counters.dropped(DropReason.REJECTED_BY_SERVER) == 2);
		assertThat(this.coreV1.calls()).isEmpty();
		assertThat(this.accessReviews).as("the namespace's answers are remembered")
			.containsExactly("events.k8s.io create ns", "events.k8s.io patch ns", " create ns", " patch ns");
		assertThat(sink.snapshot(0, (object) -> true).api()).isEqualTo("events.k8s.io/v1");
		assertThat(sink.current().health().read().rejectedInARow()).isEqualTo(2);
	}

	@Test
	void aFailedAccessReviewIsAskedAgainAtTheNextRefusal() {
		autoSink(null);
		pod("a").warning("FailedCreate", "quota exceeded");
		await().atMost(WAIT).until(() -> this.counters.dropped(DropReason.REJECTED_BY_SERVER) == 1);
		pod("b").warning("FailedCreate", "quota exceeded");
		await().atMost(WAIT).until(() -> this.counters.dropped(DropReason.REJECTED_BY_SERVER) == 2);
		assertThat(this.accessReviews)
			.as("the known answers are remembered, the failed ones asked again (patch not asked after create failed)")
			.containsExactly("events.k8s.io create ns", "events.k8s.io patch ns", " create ns", " create ns");
		assertThat(this.coreV1.calls()).isEmpty();
	}

	@Test
	void aRefusalBecauseTheNamespaceIsTerminatingIsNoRbacRefusalAndSwitchesNothing() {
		SwitchingSinkSubscriber sink = autoSink(true, NAMESPACE_TERMINATING);
		pod("a").warning("FailedDelete", "still has finalizers");
		await().atMost(WAIT).until(() -> this.counters.dropped(DropReason.REJECTED_BY_SERVER) == 1);
		assertThat(this.accessReviews).isEmpty();
		assertThat(this.coreV1.calls()).isEmpty();
		assertThat(sink.snapshot(0, (object) -> true).api()).isEqualTo("events.k8s.io/v1");
		assertThat(sink.current().health().read().rejectedInARow()).as("an expected refusal").isZero();
	}

	@Test
	void aConfiguredEventsV1SinkNeverSwitches() {
		for (int i = 0; i < 10; i++) {
			this.eventsV1.failAt.put(i, FORBIDDEN);
		}
		this.broadcaster.startRecordingToSink(this.eventsV1);
		this.broadcaster.start();
		pod("a").warning("FailedCreate", "quota exceeded");
		await().atMost(WAIT).until(() -> this.broadcaster.stats().dropped(DropReason.REJECTED_BY_SERVER.tag()) == 1);
		assertThat(this.coreV1.calls()).isEmpty();
		assertThat(this.broadcaster.snapshot(0).sinks().get(0).api()).isEqualTo("events.k8s.io/v1");
	}

}
