package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.ApiFallback.Decision;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Issue 18 item 1: RBAC told verb by verb. The probe asks every verb the write mode needs for both APIs, at startup
 * for the recorder's own namespace and after a refusal; {@code auto} takes core/v1 when it serves the recorder better;
 * with {@code create} but no {@code patch}, repeats are written as new Events ({@code written_without_patch}) instead
 * of being refused. Scripted sinks and a scripted access review stand in for the server; {@code RbacVerbsIT} in the
 * starter checks the same with real RBAC.
 */
class EventsAccessTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String NS = "ns";

	private final TickingClock clock = TickingClock.fixed(Instant.parse("2026-12-02T09:00:00Z"));

	private final EventBroadcaster broadcaster = EventBroadcaster.builder().clock(this.clock).build();

	private final EventCounters counters = new EventCounters(this.clock, Duration.ofSeconds(10));

	/** "group verb" → answer; absent means refused; {@code null} values are not allowed in the map, see unknown. */
	private final Map<String, Boolean> rbac = new ConcurrentHashMap<>();

	private final List<String> unknown = new CopyOnWriteArrayList<>();

	private final List<String> reviews = new CopyOnWriteArrayList<>();

	private final RbacScriptedCoreSink coreV1 = new RbacScriptedCoreSink();

	private final RbacScriptedEventsV1Sink eventsV1 = new RbacScriptedEventsV1Sink();

	/** How the sinks built by {@link #sink} name their Events. */
	private EventNaming naming = EventNaming.clientGo();

	/** The verbs the probe asks about. */
	private List<String> verbs = EventsAccess.WRITE_VERBS;

	/** Whether {@link #sink} names Events deterministically where its probe allows get (as a client's sink does). */
	private boolean namingAsksTheProbe;

	@AfterEach
	void shutDown() {
		this.broadcaster.shutdown(WAIT);
	}

	private void grant(String group, String... verbs) {
		for (String verb : verbs) {
			this.rbac.put(group + " " + verb, Boolean.TRUE);
		}
	}

	private EventsAccess access() {
		return new EventsAccess((group, verb, namespace) -> {
			String key = (group.isEmpty() ? "core" : group) + " " + verb;
			this.reviews.add(key + " " + namespace);
			Boolean inNamespace = this.rbac.get(key + " " + namespace);
			return this.unknown.contains(key) ? null
					: (inNamespace != null) ? inNamespace : this.rbac.getOrDefault(key, Boolean.FALSE);
		}, this.verbs, this.clock);
	}

	/** A sink built as {@code startRecordingTo(client)} builds it, over the scripted sinks and review. */
	private SinkSubscriber sink(EventsApi configured, EventsApi discovered) {
		return sink(configured, discovered, EventShape.CLIENT_GO);
	}

	private SinkSubscriber sink(EventsApi configured, EventsApi discovered, EventShape shape) {
		SinkSettings base = TestSinks.settings(RetryPolicy.defaults(), (duration) -> {
		}, (api, verb, result, duration) -> {
		}, this.clock, shape);
		SinkSettings settings = new SinkSettings(base.retryPolicy(), base.sleeper(), base.jitter(),
				base.requestListener(), null, this.clock, 1, 1000, configured, base.requestTimeout(),
				base.seriesCacheSize(), base.coreV1Correlation(), base.eventsV1Correlation(), false, base.shape(),
				false, null, System::nanoTime);
		SinkFactory factory = new SinkFactory(settings, this.counters, NS);
		ApiChoice choice = (configured == EventsApi.AUTO)
				? new ApiChoice(discovered, "auto: the API server serves " + discovered.value())
				: new ApiChoice(configured, "configured");
		EventsAccess access = access();
		if (this.namingAsksTheProbe) {
			this.naming = EventNaming.of(true, access);
		}
		SinkSubscriber sink = factory.forAccess(choice, this.coreV1, this.eventsV1, access, (api) -> this.naming, "");
		this.broadcaster.subscribeSink(sink);
		this.broadcaster.start();
		return sink;
	}

	private void warningTimes(String pod, int times) {
		ObjectRecorder recorder = this.broadcaster.newRecorder(new EventSource("example.com/web", "web-0"))
			.about(TestEvents.object("Pod", pod, NS));
		for (int i = 0; i < times; i++) {
			recorder.warning("Unhealthy", "probe failed");
			this.clock.advance(Duration.ofSeconds(1));
		}
	}

	private static EventsAccess.Check check(EventsApi api, String allowed) {
		List<String> all = List.of("create", "patch");
		if ("unknown".equals(allowed)) {
			return new EventsAccess.Check(api, NS, List.of("create"), List.of(), List.of("patch"));
		}
		List<String> yes = verbs(allowed);
		return new EventsAccess.Check(api, NS, yes, all.stream().filter((v) -> !yes.contains(v)).toList(), List.of());
	}

	/** Every combination of what each API allows, and what {@code auto} does (events.k8s.io/v1 chosen first). */
	@ParameterizedTest(name = "events.k8s.io/v1 [{0}], core/v1 [{1}] -> {2}")
	@CsvSource({
			"create+patch, create+patch, KEEP",
			"create+patch, create, KEEP",
			"create+patch, '', KEEP",
			"create, create+patch, SWITCH",
			"create, create, SWITCH",
			"create, '', KEEP",
			"'', create+patch, SWITCH",
			"'', create, SWITCH",
			"'', '', KEEP",
			"patch, create, SWITCH",
			"unknown, create+patch, UNDECIDED",
			"create, unknown, UNDECIDED",
			"create+patch, unknown, KEEP" })
	void autoSwitchesWhenCoreV1ServesTheRecorderBetter(String eventsV1, String coreV1, Decision expected) {
		assertThat(ApiFallback.decide(check(EventsApi.EVENTS_V1, eventsV1), check(EventsApi.CORE_V1, coreV1)))
			.isEqualTo(expected);
	}

	/**
	 * {@code auto} in the readers' shape, where discovery found events.k8s.io/v1: core/v1 at once where RBAC allows
	 * it create and patch in every namespace; otherwise events.k8s.io/v1, whose fallback still switches to core/v1
	 * at startup where core/v1 serves better in the startup namespace.
	 */
	@ParameterizedTest(name = "readers' shape: events.k8s.io/v1 [{0}], core/v1 [{1}] -> {2}")
	@CsvSource({
			"create+patch, create+patch, core/v1 readers",
			"'', create+patch, core/v1 readers",
			"create, create+patch, core/v1 readers",
			"create, create, core/v1 switched",
			"'', create, core/v1 switched",
			"create+patch, create, events.k8s.io/v1",
			"create+patch, '', events.k8s.io/v1",
			"'', '', events.k8s.io/v1" })
	void autoInTheReadersShapeWritesCoreV1WhereRbacAllowsItEverywhere(String eventsV1, String coreV1, String expected) {
		if (!eventsV1.isEmpty()) {
			grant("events.k8s.io", eventsV1.split("\\+"));
		}
		if (!coreV1.isEmpty()) {
			grant("core", coreV1.split("\\+"));
		}
		SinkSubscriber sink = sink(EventsApi.AUTO, EventsApi.EVENTS_V1, EventShape.READERS);
		RecorderSnapshot.SinkSnapshot written = sink.snapshot(0, (o) -> true);
		assertThat(written.api()).isEqualTo(expected.split(" ")[0]);
		if (expected.equals("core/v1 readers")) {
			assertThat(written.apiReason()).startsWith("auto, readers' shape: core/v1");
			assertThat(this.reviews).startsWith("core create ", "core patch ");
		}
		else if (expected.equals("core/v1 switched")) {
			assertThat(written.apiReason()).startsWith("auto: switched from events.k8s.io/v1");
		}
	}

	/** A Role in the recorder's namespace alone is not enough for core/v1 at once: Events elsewhere would be lost. */
	@Test
	void coreV1OnlyInTheStartupNamespaceKeepsEventsV1AllowedEverywhere() {
		this.rbac.put("core create ns", Boolean.TRUE);
		this.rbac.put("core patch ns", Boolean.TRUE);
		grant("events.k8s.io", "create", "patch");
		SinkSubscriber sink = sink(EventsApi.AUTO, EventsApi.EVENTS_V1, EventShape.READERS);
		assertThat(sink.snapshot(0, (o) -> true).api()).isEqualTo("events.k8s.io/v1");
	}

	/**
	 * The bug as issue 18 states it: core/v1 RBAC with {@code create} only, {@code auto}, the same Warning three
	 * times. Before: one create, two PATCHes refused (rejected_by_server), 1 occurrence on the server. Now: the
	 * startup check takes core/v1 and every repeat is an Event of its own.
	 */
	@Test
	void createOnlyCoreRbacUnderAutoWritesEveryRepeatAsANewEvent() {
		grant("core", "create");
		SinkSubscriber sink;
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			sink = sink(EventsApi.AUTO, EventsApi.EVENTS_V1);
			warningTimes("db-0", 3);
			// the counter follows the create's answer: wait for both
			await().atMost(WAIT)
				.until(() -> this.coreV1.created.size() == 3 && this.counters.writtenWithoutPatchCount() == 2);
			assertThat(log.messages(Level.INFO)).filteredOn((line) -> line.startsWith("Writing Kubernetes events with"))
				.singleElement()
				.asString()
				.startsWith("Writing Kubernetes events with the core/v1 API (auto: switched from events.k8s.io/v1,"
						+ " which RBAC refuses (RBAC in namespace 'ns': events.k8s.io/v1 refuses create, patch);"
						+ " core/v1 serves better (core/v1 allows create, refuses patch: each repeat is written as an"
						+ " Event of its own))")
				.endsWith("RBAC in namespace 'ns': events.k8s.io/v1 refuses create, patch; core/v1 allows create,"
						+ " refuses patch");
			assertThat(log.warnings()).as("one line for one cause")
				.containsExactly("RBAC in namespace 'ns' refuses patch on core/v1 events, the API written (core/v1"
						+ " allows create, refuses patch): repeats of an event are written as new Events (counted as"
						+ " written_without_patch) instead of raising the count of one. Grant the verb patch on"
						+ " resource \"events\" in API group \"\" (core)");
		}
		assertThat(this.coreV1.calls).containsExactly("create", "create", "create");
		assertThat(this.coreV1.created).extracting(CoreV1Event::getCount).containsExactly(1, 1, 1);
		assertThat(this.coreV1.created).extracting((e) -> e.getMetadata().getName()).doesNotHaveDuplicates();
		assertThat(this.eventsV1.calls).isEmpty();
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(2);
		assertThat(this.counters.totalDropped()).isZero();
		assertThat(sink.missingAccessNow()).containsExactly(new RecorderStats.MissingAccess("core/v1", "patch", NS));
		assertThat(sink.snapshot(0, (o) -> true).missingAccess()).containsExactly(
				new RecorderStats.MissingAccess("core/v1", "patch", NS),
				new RecorderStats.MissingAccess("events.k8s.io/v1", "create", NS),
				new RecorderStats.MissingAccess("events.k8s.io/v1", "patch", NS));
		assertThat(this.reviews).containsExactly("events.k8s.io create ns", "events.k8s.io patch ns",
				"core create ns", "core patch ns");
	}

	@Test
	void createWithoutPatchOnEventsV1AndBothOnCoreV1TakesCoreV1AtStartup() {
		grant("events.k8s.io", "create");
		grant("core", "create", "patch");
		SinkSubscriber sink = sink(EventsApi.AUTO, EventsApi.EVENTS_V1);
		warningTimes("db-0", 3);
		await().atMost(WAIT).until(() -> this.coreV1.calls.size() == 3);
		assertThat(this.coreV1.calls).containsExactly("create", "patch", "patch");
		assertThat(this.eventsV1.calls).isEmpty();
		assertThat(this.counters.writtenWithoutPatchCount()).isZero();
		assertThat(sink.snapshot(0, (o) -> true).api()).isEqualTo("core/v1");
		assertThat(sink.missingAccessNow()).isEmpty();
	}

	@Test
	void bothVerbsOnEventsV1KeepsItWhateverCoreV1Allows() {
		grant("events.k8s.io", "create", "patch");
		SinkSubscriber sink = sink(EventsApi.AUTO, EventsApi.EVENTS_V1);
		warningTimes("db-0", 2);
		await().atMost(WAIT).until(() -> this.eventsV1.calls.size() == 2);
		assertThat(this.eventsV1.calls).containsExactly("create", "patch");
		assertThat(sink.snapshot(0, (o) -> true).api()).isEqualTo("events.k8s.io/v1");
		assertThat(sink.missingAccessNow()).isEmpty();
	}

	/**
	 * RBAC of another namespace than the startup one: its first refusal asks the probe there, and the repeat that
	 * was refused is written as a new Event at once (same attempt); the next repeat sends no PATCH at all.
	 */
	@Test
	void aConfiguredCoreV1SinkWritesRepeatsAsNewEventsOnceAPatchIsRefusedAndThatIsConfirmed() {
		grant("core", "create", "patch");
		SinkSubscriber sink = sink(EventsApi.CORE_V1, EventsApi.CORE_V1);
		this.rbac.remove("core patch");
		warningTimes("db-0", 3);
		// the counter follows the create's answer: wait for both
		await().atMost(WAIT)
			.until(() -> this.coreV1.created.size() == 3 && this.counters.writtenWithoutPatchCount() == 2);
		assertThat(this.coreV1.calls).containsExactly("create", "patch 403", "create", "create");
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(2);
		assertThat(this.counters.totalDropped()).isZero();
		assertThat(sink.missingAccessNow()).containsExactly(new RecorderStats.MissingAccess("core/v1", "patch", NS));
		assertThat(this.reviews).as("the startup check, then the recheck the refusal contradicting it asked")
			.containsExactly("core create ns", "core patch ns", "core create ns", "core patch ns");
	}

	/** RBAC fixed later: once the answer that refused patch expired, the next repeat is a PATCH again. */
	@Test
	void patchGrantedLaterIsUsedOnceTheAnswerThatRefusedItExpired() {
		grant("core", "create");
		SinkSubscriber sink = sink(EventsApi.CORE_V1, EventsApi.CORE_V1);
		warningTimes("db-0", 2);
		await().atMost(WAIT).until(() -> this.coreV1.created.size() == 2);
		grant("core", "patch");
		this.clock.advance(EventsAccess.ANSWER_TTL);
		assertThat(sink.missingAccessNow()).as("the answer expired").isEmpty();
		warningTimes("db-0", 1);
		await().atMost(WAIT).until(() -> this.coreV1.calls.size() == 3);
		assertThat(this.coreV1.calls).containsExactly("create", "create", "patch");
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(1);
		assertThat(this.reviews).as("nothing asked again: the PATCH went through").hasSize(2);
	}

	/** Configured events.k8s.io/v1 with create only: each series write becomes an Event of its own occurrences. */
	@Test
	void aConfiguredEventsV1SinkWritesRepeatsAsNewEventsWithoutPatch() {
		grant("events.k8s.io", "create");
		SinkSubscriber sink = sink(EventsApi.EVENTS_V1, EventsApi.EVENTS_V1);
		warningTimes("db-0", 2);
		await().atMost(WAIT).until(() -> this.eventsV1.created.size() == 2);
		this.broadcaster.stop(WAIT);
		assertThat(this.eventsV1.calls).containsExactly("create", "create");
		assertThat(this.eventsV1.created).extracting(EventsV1Event::getSeries).containsOnlyNulls();
		assertThat(this.eventsV1.created).extracting((e) -> e.getMetadata().getName()).doesNotHaveDuplicates();
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(1);
		assertThat(this.counters.totalDropped()).isZero();
		assertThat(sink.missingAccessNow())
			.containsExactly(new RecorderStats.MissingAccess("events.k8s.io/v1", "patch", NS));
	}

	/**
	 * Deterministic names with core/v1 RBAC of {@code create} only: the first occurrence is created under the
	 * stream's name, and the repeats, which the stream path would PATCH, are new Events of their own
	 * ({@code written_without_patch}) instead of refused PATCHes.
	 */
	@Test
	void deterministicNamesWithoutPatchWriteEveryRepeatAsANewEvent() {
		this.naming = EventNaming.of(true);
		grant("core", "create");
		sink(EventsApi.CORE_V1, EventsApi.CORE_V1);
		warningTimes("db-0", 3);
		await().atMost(WAIT)
			.until(() -> this.coreV1.created.size() == 3 && this.counters.writtenWithoutPatchCount() == 2);
		assertThat(this.coreV1.calls).containsExactly("create", "create", "create");
		assertThat(this.coreV1.created.get(0).getMetadata().getName()).matches("db-0\\.[0-9a-f]{32}");
		assertThat(this.coreV1.created).extracting(CoreV1Event::getCount).containsExactly(1, 1, 1);
		assertThat(this.coreV1.created).extracting((e) -> e.getMetadata().getName()).doesNotHaveDuplicates();
		assertThat(this.counters.totalDropped()).isZero();
	}

	/** The same on events.k8s.io/v1: the series write of the repeat becomes an Event of its own occurrences. */
	@Test
	void deterministicNamesWithoutPatchOnEventsV1WriteTheSeriesWriteAsANewEvent() {
		this.naming = EventNaming.of(true);
		grant("events.k8s.io", "create");
		sink(EventsApi.EVENTS_V1, EventsApi.EVENTS_V1);
		warningTimes("db-0", 2);
		await().atMost(WAIT).until(() -> this.eventsV1.created.size() == 2);
		this.broadcaster.stop(WAIT);
		assertThat(this.eventsV1.calls).containsExactly("create", "create");
		assertThat(this.eventsV1.created.get(0).getMetadata().getName()).matches("db-0\\.[0-9a-f]{32}");
		assertThat(this.eventsV1.created).extracting((e) -> e.getMetadata().getName()).doesNotHaveDuplicates();
		assertThat(this.counters.writtenWithoutPatchCount()).isEqualTo(1);
		assertThat(this.counters.totalDropped()).isZero();
	}

	@Test
	void aReviewThatFailsIsUnknownAndAskedAgain() {
		grant("core", "create", "patch");
		this.unknown.add("core patch");
		EventsAccess access = access();
		EventsAccess.Check first = access.check(EventsApi.CORE_V1, NS);
		assertThat(first.unknown()).containsExactly("patch");
		assertThat(first.describe()).isEqualTo("core/v1 allows create, could not ask about patch");
		this.unknown.clear();
		assertThat(access.check(EventsApi.CORE_V1, NS).complete()).isTrue();
		access.check(EventsApi.CORE_V1, NS);
		assertThat(this.reviews).containsExactly("core create ns", "core patch ns", "core create ns", "core patch ns");
	}

	/** An unreachable server costs one review's time limit at startup, not one per verb and API. */
	@Test
	void afterAFailedReviewTheRestIsUnknownWithoutAsking() {
		this.unknown.add("events.k8s.io create");
		SinkSubscriber sink = sink(EventsApi.AUTO, EventsApi.EVENTS_V1);
		assertThat(this.reviews).containsExactly("events.k8s.io create ns");
		assertThat(sink.snapshot(0, (o) -> true).api()).isEqualTo("events.k8s.io/v1");
		assertThat(sink.missingAccessNow()).isEmpty();
	}

	/**
	 * Issue 36: create allowed and patch refused on both APIs, {@code auto}: one WARN for the one cause, naming the
	 * missing verb and the API written (core/v1, which writes each repeat as an Event of its own), and a startup line
	 * that does not call the API it writes "allowed" with the verbs it calls "refused" on the other.
	 */
	@Test
	void createWithoutPatchOnBothApisUnderAutoIsOneWarningNamingPatchOnTheApiWritten() {
		grant("events.k8s.io", "create");
		grant("core", "create");
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			SinkSubscriber sink = sink(EventsApi.AUTO, EventsApi.EVENTS_V1);
			assertThat(sink.choice().api()).isEqualTo(EventsApi.CORE_V1);
			assertThat(log.warnings()).containsExactly("RBAC in namespace 'ns' refuses patch on core/v1 events, the API"
					+ " written (core/v1 allows create, refuses patch): repeats of an event are written as new Events"
					+ " (counted as written_without_patch) instead of raising the count of one. Grant the verb patch on"
					+ " resource \"events\" in API group \"\" (core)");
			assertThat(log.messages(Level.INFO)).filteredOn((line) -> line.startsWith("Writing Kubernetes events with"))
				.singleElement()
				.asString()
				.startsWith("Writing Kubernetes events with the core/v1 API (auto: switched from events.k8s.io/v1,"
						+ " which RBAC refuses (RBAC in namespace 'ns': events.k8s.io/v1 allows create, refuses patch);"
						+ " core/v1 serves better (core/v1 allows create, refuses patch: each repeat is written as an"
						+ " Event of its own))")
				.doesNotContain("allowed");
		}
	}

	/**
	 * The writers of a sink that meet a namespace at once (deterministic names ask on the writer threads) wait for
	 * one answer: one review per verb, not one per writer.
	 */
	@Test
	void writersAskingAboutOneNamespaceAtOnceMakeOneReviewPerVerb() throws Exception {
		grant("core", "create", "patch");
		java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
		EventsAccess access = new EventsAccess((group, verb, namespace) -> {
			this.reviews.add(group + " " + verb + " " + namespace);
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return Boolean.TRUE;
		}, EventsAccess.WRITE_VERBS, this.clock);
		List<Thread> writers = new java.util.ArrayList<>();
		List<EventsAccess.Check> answers = new CopyOnWriteArrayList<>();
		for (int i = 0; i < 4; i++) {
			Thread writer = new Thread(() -> answers.add(access.answer(EventsApi.CORE_V1, NS)));
			writers.add(writer);
			writer.start();
		}
		await().atMost(WAIT).until(() -> this.reviews.size() == 1
				&& writers.stream().filter((w) -> w.getState() == Thread.State.BLOCKED).count() == 3);
		release.countDown();
		for (Thread writer : writers) {
			writer.join(WAIT.toMillis());
		}
		assertThat(this.reviews).containsExactly(" create ns", " patch ns");
		assertThat(answers).hasSize(4).allSatisfy((answer) -> assertThat(answer.allowed()).containsExactly("create", "patch"));
	}

	/** An access review with no answer (an unreachable server) gets no RBAC advice: nothing was refused. */
	@Test
	void reviewsWithoutAnAnswerAreNotAdvisedAsRbac() {
		this.unknown.addAll(List.of("core create", "core patch"));
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			sink(EventsApi.CORE_V1, EventsApi.CORE_V1);
			assertThat(log.warnings()).filteredOn((line) -> line.startsWith("RBAC in namespace 'ns'"))
				.containsExactly("RBAC in namespace 'ns' is unknown for core/v1: the access reviews got no answer (the"
						+ " warnings before say why; the API server may be unreachable). The recorder asks again after"
						+ " the first refusal");
			assertThat(log.warnings()).noneMatch((line) -> line.contains("Grant the verb"));
		}
	}

	@Test
	void aReadRefusedWhileGetWasUnknownMovesGetFromUnknownToMissing() {
		this.verbs = EventsAccess.verbs(true);
		grant("core", "create", "patch");
		this.unknown.add("core get");
		EventsAccess access = access();
		assertThat(access.check(EventsApi.CORE_V1, NS).unknown()).containsExactly("get");
		assertThat(access.refused(EventsApi.CORE_V1, NS, "get")).isEqualTo(new EventsAccess.Check(EventsApi.CORE_V1,
				NS, List.of("create", "patch"), List.of("get"), List.of()));
	}

	@Test
	void aStartupCheckThatFindsCreateRefusedSaysEventsAreRefused() {
		grant("core", "patch");
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			sink(EventsApi.CORE_V1, EventsApi.CORE_V1);
			assertThat(log.warnings()).filteredOn((line) -> line.startsWith("RBAC in namespace 'ns'"))
				.singleElement()
				.satisfies((line) -> assertThat(line).contains(": events are refused (counted as rejected_by_server)."
						+ " Grant the verb create on resource"));
		}
	}

	@Test
	void everyWriteModeNeedsCreate() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new EventsAccess((group, verb, namespace) -> true, List.of("patch", "get"), this.clock))
			.withMessage("every write mode needs create: [patch, get]");
		assertThat(access().verbs()).containsExactly("create", "patch");
	}

	@Test
	void aCheckAsksEachVerbOfTheApisGroupAndSortsTheAnswers() {
		grant("events.k8s.io", "create");
		EventsAccess.Check check = access().check(EventsApi.EVENTS_V1, NS);
		assertThat(this.reviews).containsExactly("events.k8s.io create ns", "events.k8s.io patch ns");
		assertThat(check).isEqualTo(new EventsAccess.Check(EventsApi.EVENTS_V1, NS, List.of("create"),
				List.of("patch"), List.of()));
		assertThat(EventsAccess.group(EventsApi.EVENTS_V1)).isEqualTo("events.k8s.io");
		assertThat(EventsAccess.group(EventsApi.CORE_V1)).isEmpty();
	}

	/** What each answer says, for every mix of allowed, refused and unknown verbs. */
	@ParameterizedTest(name = "allowed [{0}], refused [{1}], unknown [{2}]")
	@CsvSource(delimiter = '|', value = {
			"create+patch | ''           | ''           | true  | true  | false | 2 | core/v1 allows create, patch",
			"create       | patch        | ''           | false | true  | true  | 1 | core/v1 allows create, refuses patch",
			"patch        | create       | ''           | false | true  | false | 0 | core/v1 allows patch, refuses create",
			"''           | create+patch | ''           | false | true  | false | 0 | core/v1 refuses create, patch",
			"create       | ''           | patch        | false | false | false | 1 | core/v1 allows create, could not ask about patch",
			"''           | patch        | create       | false | false | false | 0 | core/v1 refuses patch, could not ask about create",
			"''           | ''           | create+patch | false | false | false | 0 | core/v1 could not ask about create, patch" })
	void aCheckSaysWhatItAllows(String allowed, String missing, String unknown, boolean complete, boolean known,
			boolean withoutPatch, int rank, String describe) {
		EventsAccess.Check check = new EventsAccess.Check(EventsApi.CORE_V1, NS, verbs(allowed), verbs(missing),
				verbs(unknown));
		assertThat(check.complete()).isEqualTo(complete);
		assertThat(check.known()).isEqualTo(known);
		assertThat(check.withoutPatch()).isEqualTo(withoutPatch);
		assertThat(check.rank()).isEqualTo(rank);
		assertThat(check.describe()).isEqualTo(describe);
		assertThat(check.allows("create")).isEqualTo(allowed.contains("create"));
		assertThat(check.refuses("create")).isEqualTo(missing.contains("create"));
		assertThat(check.missingAccess()).containsExactlyElementsOf(
				verbs(missing).stream().map((verb) -> new RecorderStats.MissingAccess("core/v1", verb, NS)).toList());
	}

	private static List<String> verbs(String joined) {
		return joined.isEmpty() ? List.of() : List.of(joined.split("\\+"));
	}

	@Test
	void anAnswerWithEveryVerbKnownIsRememberedPerApiAndNamespace() {
		grant("core", "create");
		EventsAccess access = access();
		assertThat(access.known(EventsApi.CORE_V1, NS)).isNull();
		EventsAccess.Check first = access.check(EventsApi.CORE_V1, NS);
		assertThat(access.known(EventsApi.CORE_V1, NS)).isEqualTo(first);
		assertThat(access.known(EventsApi.EVENTS_V1, NS)).isNull();
		assertThat(access.check(EventsApi.CORE_V1, NS)).isEqualTo(first);
		assertThat(this.reviews).containsExactly("core create ns", "core patch ns");
		access.check(EventsApi.EVENTS_V1, NS);
		access.check(EventsApi.CORE_V1, "other");
		assertThat(this.reviews).containsExactly("core create ns", "core patch ns", "events.k8s.io create ns",
				"events.k8s.io patch ns", "core create other", "core patch other");
	}

	/** Every namespace is asked to choose the API, not to write there: never remembered, never listed as missing. */
	@Test
	void theAnswerForEveryNamespaceIsNotRemembered() {
		EventsAccess access = access();
		access.check(EventsApi.CORE_V1, EventsAccess.EVERY_NAMESPACE);
		access.check(EventsApi.CORE_V1, EventsAccess.EVERY_NAMESPACE);
		assertThat(this.reviews).containsExactly("core create ", "core patch ", "core create ", "core patch ");
		assertThat(access.known(EventsApi.CORE_V1, EventsAccess.EVERY_NAMESPACE)).isNull();
		assertThat(access.missingAccess()).isEmpty();
	}

	/** A refusal of a verb the remembered answer allowed asks again; of one it refused, it does not. */
	@Test
	void aRecheckAsksAgainOnlyWhenTheRememberedAnswerAllowedTheRefusedVerb() {
		grant("core", "create");
		EventsAccess access = access();
		EventsAccess.Check first = access.check(EventsApi.CORE_V1, NS);
		assertThat(access.recheck(EventsApi.CORE_V1, NS, "patch")).isEqualTo(first);
		assertThat(this.reviews).hasSize(2);
		this.rbac.clear();
		EventsAccess.Check revoked = access.recheck(EventsApi.CORE_V1, NS, "create");
		assertThat(this.reviews).hasSize(4);
		assertThat(revoked.missing()).containsExactly("create", "patch");
		assertThat(access.known(EventsApi.CORE_V1, NS)).isEqualTo(revoked);
	}

	@Test
	void anUnaskedAnswerHasEveryVerbUnknownAndAsksNothing() {
		EventsAccess access = access();
		assertThat(access.unasked(EventsApi.EVENTS_V1, NS)).isEqualTo(
				new EventsAccess.Check(EventsApi.EVENTS_V1, NS, List.of(), List.of(), List.of("create", "patch")));
		assertThat(this.reviews).isEmpty();
		assertThat(access.known(EventsApi.EVENTS_V1, NS)).isNull();
	}

	@Test
	void theMissingVerbsAreListedCoreV1FirstOrPerApi() {
		grant("core", "create");
		grant("events.k8s.io", "patch");
		EventsAccess access = access();
		access.check(EventsApi.EVENTS_V1, NS);
		access.check(EventsApi.CORE_V1, NS);
		RecorderStats.MissingAccess corePatch = new RecorderStats.MissingAccess("core/v1", "patch", NS);
		RecorderStats.MissingAccess eventsCreate = new RecorderStats.MissingAccess("events.k8s.io/v1", "create", NS);
		assertThat(access.missingAccess()).containsExactly(corePatch, eventsCreate);
		assertThat(access.missingAccess(EventsApi.CORE_V1)).containsExactly(corePatch);
		assertThat(access.missingAccess(EventsApi.EVENTS_V1)).containsExactly(eventsCreate);
	}

	/** Refuses what the scripted RBAC refuses with the server's 403; otherwise an in-memory core/v1 store. */
	/**
	 * Issue 28 item 3: {@code get}, which deterministic names need, is one more verb of the probe, per namespace,
	 * with the write verbs' expiry rule: refused, it is remembered for {@link EventsAccess#ANSWER_TTL} and listed in
	 * {@code missingAccess}, without making the write verbs incomplete; granted later, it is seen once the answer
	 * expired.
	 */
	@Test
	void getIsAskedWithTheWriteVerbsAndItsRefusalExpiresLikeTheirs() {
		this.verbs = EventsAccess.verbs(true);
		grant("core", "create", "patch");
		EventsAccess access = access();
		EventsAccess.Check refused = access.check(EventsApi.CORE_V1, NS);
		assertThat(refused).isEqualTo(new EventsAccess.Check(EventsApi.CORE_V1, NS, List.of("create", "patch"),
				List.of("get"), List.of()));
		assertThat(refused.complete()).isTrue();
		assertThat(refused.rank()).isEqualTo(2);
		assertThat(access.missingAccess()).containsExactly(new RecorderStats.MissingAccess("core/v1", "get", NS));
		assertThat(this.reviews).containsExactly("core create ns", "core patch ns", "core get ns");
		grant("core", "get");
		this.clock.advance(EventsAccess.ANSWER_TTL.minusSeconds(1));
		assertThat(access.check(EventsApi.CORE_V1, NS).refuses("get")).isTrue();
		assertThat(this.reviews).hasSize(3);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(access.check(EventsApi.CORE_V1, NS).allowed()).containsExactly("create", "patch", "get");
		assertThat(this.reviews).hasSize(6);
		assertThat(access.missingAccess()).isEmpty();
		assertThat(EventsAccess.verbs(false)).isEqualTo(EventsAccess.WRITE_VERBS);
	}

	/**
	 * The question deterministic names ask at every event: a check that got no answer (the server unreachable) is
	 * not asked again until {@link EventsAccess#ANSWER_TTL} passed, so an outage costs one request time limit per
	 * namespace and expiry instead of one per event; {@link EventsAccess#check} still asks at once.
	 */
	@Test
	void theNamingQuestionAsksAReviewThatFailedOncePerExpiry() {
		this.verbs = EventsAccess.verbs(true);
		grant("core", "create", "patch", "get");
		this.unknown.add("core create");
		EventsAccess access = access();
		assertThat(access.answer(EventsApi.CORE_V1, NS).unknown()).containsExactly("create", "patch", "get");
		assertThat(access.answer(EventsApi.CORE_V1, NS).unknown()).containsExactly("create", "patch", "get");
		assertThat(this.reviews).containsExactly("core create ns");
		this.unknown.clear();
		this.clock.advance(EventsAccess.ANSWER_TTL.minusSeconds(1));
		assertThat(access.answer(EventsApi.CORE_V1, NS).known()).isFalse();
		assertThat(this.reviews).hasSize(1);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(access.answer(EventsApi.CORE_V1, NS).allowed()).containsExactly("create", "patch", "get");
		assertThat(this.reviews).hasSize(4);
		assertThat(access.answer(EventsApi.CORE_V1, NS).allows("get")).isTrue();
		assertThat(this.reviews).hasSize(4);
	}

	/**
	 * A read the server refused (403) although the probe allowed {@code get}: asked again, and when the review
	 * still allows it the server's refusal is the answer, remembered like one.
	 */
	@Test
	void aRefusedReadIsRememberedAsTheAnswerEvenWhenTheReviewAllowsGet() {
		this.verbs = EventsAccess.verbs(true);
		grant("core", "create", "patch", "get");
		EventsAccess access = access();
		assertThat(access.check(EventsApi.CORE_V1, NS).allows("get")).isTrue();
		assertThat(access.refused(EventsApi.CORE_V1, NS, "get")).isEqualTo(new EventsAccess.Check(EventsApi.CORE_V1,
				NS, List.of("create", "patch"), List.of("get"), List.of()));
		assertThat(this.reviews).hasSize(6);
		assertThat(access.known(EventsApi.CORE_V1, NS).refuses("get")).isTrue();
		assertThat(access.refused(EventsApi.CORE_V1, NS, "get").refuses("get")).isTrue();
		assertThat(this.reviews).hasSize(6);
		this.clock.advance(EventsAccess.ANSWER_TTL);
		assertThat(access.known(EventsApi.CORE_V1, NS)).isNull();
	}

	/**
	 * Deterministic names where RBAC refuses {@code get}: that namespace's Events get client-go's names, with one
	 * WARN and one counted fallback (not one per event), and {@code missingAccess} lists {@code get}; once the
	 * answer expired and RBAC allows {@code get}, deterministic names resume there, with one INFO.
	 */
	@Test
	void deterministicNamesFallBackWhileGetIsRefusedAndResumeWhenItIsGranted() {
		this.verbs = EventsAccess.verbs(true);
		this.namingAsksTheProbe = true;
		grant("core", "create", "patch");
		SinkSubscriber sink;
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			sink = sink(EventsApi.CORE_V1, EventsApi.CORE_V1);
			assertThat(this.naming.fallingBack()).isTrue();
			assertThat(sink.missingAccessNow()).containsExactly(new RecorderStats.MissingAccess("core/v1", "get", NS));
			warningTimes("db-0", 1);
			warningTimes("db-1", 1);
			await().atMost(WAIT).until(() -> this.coreV1.created.size() == 2);
			assertThat(this.coreV1.created).extracting((e) -> e.getMetadata().getName())
				.allMatch((name) -> name.matches("db-[01]\\.[0-9a-f]{1,16}"));
			assertThat(this.naming.fallbacks()).isEqualTo(1);
			assertThat(this.naming.fallbackReason()).isEqualTo("RBAC does not allow the verb 'get' on events"
					+ " (core/v1) in namespace 'ns', which the mode needs to continue an Event another process wrote;"
					+ " names are deterministic again there once RBAC allows it");
			grant("core", "get");
			this.clock.advance(EventsAccess.ANSWER_TTL);
			warningTimes("db-2", 1);
			await().atMost(WAIT).until(() -> this.coreV1.created.size() == 3);
			assertThat(this.coreV1.created.get(2).getMetadata().getName()).matches("db-2\\.[0-9a-f]{32}");
			assertThat(this.naming.fallingBack()).isFalse();
			assertThat(this.naming.fallbacks()).isEqualTo(1);
			assertThat(sink.missingAccessNow()).isEmpty();
			assertThat(log.warnings()).filteredOn((line) -> line.startsWith("Deterministic event names are off"))
				.containsExactly("Deterministic event names are off, using client-go's names (a restart or another"
						+ " replica starts a new Event): " + this.naming.fallbackReason());
			assertThat(log.messages(Level.INFO)).filteredOn((line) -> line.startsWith("Deterministic event names are on"))
				.containsExactly("Deterministic event names are on again for events (core/v1) in namespace 'ns': RBAC"
						+ " allows the verb 'get'");
		}
		assertThat(this.counters.totalDropped()).isZero();
	}

	/**
	 * RBAC revoked after the startup check: the read of an Event another process wrote is refused (403), the
	 * occurrence is created with client-go's name, and the namespace falls back (one WARN) until the refusal, now
	 * the remembered answer, expires and RBAC allows {@code get} again.
	 */
	@Test
	void aReadRefusedAfterTheStartupCheckFallsBackUntilTheAnswerExpires() {
		this.verbs = EventsAccess.verbs(true);
		this.namingAsksTheProbe = true;
		grant("core", "create", "patch", "get");
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.WARN)) {
			sink(EventsApi.CORE_V1, EventsApi.CORE_V1);
			assertThat(this.naming.fallingBack()).isFalse();
			this.rbac.remove("core get");
			this.coreV1.streamsExist = true;
			warningTimes("db-0", 1);
			await().atMost(WAIT).until(() -> this.coreV1.created.size() == 1);
			assertThat(this.coreV1.calls).containsExactly("create 409", "get 403", "create");
			assertThat(this.coreV1.created.get(0).getMetadata().getName()).matches("db-0\\.[0-9a-f]{1,16}");
			assertThat(this.naming.fallingBack()).isTrue();
			warningTimes("db-1", 1);
			await().atMost(WAIT).until(() -> this.coreV1.created.size() == 2);
			assertThat(this.coreV1.created.get(1).getMetadata().getName()).matches("db-1\\.[0-9a-f]{1,16}");
			assertThat(log.warnings()).filteredOn((line) -> line.startsWith("Deterministic event names are off"))
				.hasSize(1);
			grant("core", "get");
			this.coreV1.streamsExist = false;
			this.clock.advance(EventsAccess.ANSWER_TTL);
			warningTimes("db-2", 1);
			await().atMost(WAIT).until(() -> this.coreV1.created.size() == 3);
			assertThat(this.coreV1.created.get(2).getMetadata().getName()).matches("db-2\\.[0-9a-f]{32}");
			assertThat(this.naming.fallingBack()).isFalse();
			assertThat(this.naming.fallbacks()).isEqualTo(1);
		}
		assertThat(this.counters.totalDropped()).isZero();
	}

	private final class RbacScriptedCoreSink implements EventSink {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<CoreV1Event> created = new CopyOnWriteArrayList<>();

		/** Whether an Event with a stream's name exists already (written by another process). */
		volatile boolean streamsExist;

		@Override
		public CoreV1Event create(CoreV1Event event) throws EventSinkException {
			refuseUnless("core", "create");
			if (this.streamsExist && DeterministicNamesTests.STREAM_NAME.matcher(event.getMetadata().getName()).matches()) {
				this.calls.add("create 409");
				throw EventSinkException.status(409, "AlreadyExists", "events already exists");
			}
			this.calls.add("create");
			this.created.add(TestEvents.copy(event));
			return TestEvents.copy(event);
		}

		@Override
		public CoreV1Event patch(CoreV1Event event, CountPatch patch) throws EventSinkException {
			if (!EventsAccessTests.this.rbac.containsKey("core patch")) {
				this.calls.add("patch 403");
			}
			refuseUnless("core", "patch");
			this.calls.add("patch");
			CoreV1Event patched = TestEvents.copy(event);
			patched.setCount(patch.count());
			return patched;
		}

		@Override
		public CoreV1Event get(String namespace, String name) throws EventSinkException {
			if (!EventsAccessTests.this.rbac.containsKey("core get")) {
				this.calls.add("get 403");
			}
			refuseUnless("core", "get");
			this.calls.add("get");
			return TestEvents.copy(this.created.get(0));
		}

		@Override
		public boolean supportsGet() {
			return true;
		}

	}

	private final class RbacScriptedEventsV1Sink implements EventsV1Sink {

		final List<String> calls = new CopyOnWriteArrayList<>();

		final List<EventsV1Event> created = new CopyOnWriteArrayList<>();

		@Override
		public EventsV1Event create(EventsV1Event event) throws EventSinkException {
			refuseUnless("events.k8s.io", "create");
			this.calls.add("create");
			this.created.add(event);
			return event;
		}

		@Override
		public EventsV1Event patch(EventsV1Event event, SeriesPatch patch) throws EventSinkException {
			if (!EventsAccessTests.this.rbac.containsKey("events.k8s.io patch")) {
				this.calls.add("patch 403");
			}
			refuseUnless("events.k8s.io", "patch");
			this.calls.add("patch");
			return event;
		}

	}

	private void refuseUnless(String group, String verb) throws EventSinkException {
		if (!this.rbac.containsKey(group + " " + verb)) {
			throw EventSinkException.status(403, "Forbidden", "HTTP 403 Forbidden: events is forbidden: User \"web\""
					+ " cannot " + verb + " resource \"events\" in API group \"" + (group.equals("core") ? "" : group)
					+ "\" in the namespace \"ns\"");
		}
	}

}
