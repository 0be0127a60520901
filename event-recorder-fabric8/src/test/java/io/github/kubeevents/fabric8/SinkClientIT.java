package io.github.kubeevents.fabric8;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.TickingClock;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.github.kubeevents.test.cluster.RequiresCapability;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The recorder's sink contract against a real kube-apiserver, the same tests for every client the recorder writes
 * through (one subclass per client): core/v1 create and count patch of a repeat, an Event deleted on the server
 * created again (404 on PATCH), a refused write dropped and counted, the events.k8s.io/v1 series patch, the
 * apiserver killed while events are written (none lost within the retry budget), and {@code auto} for an identity
 * RBAC lets write core/v1 Events only (discovery picks events.k8s.io/v1, the 403 switches to core/v1 for good).
 *
 * <p>Each subclass has its own control plane ({@code isolated}): the outage test stops its API server.
 */
@WithTestCluster(isolated = true)
@RequiresCapability(Capability.STOP_API_SERVER)
abstract class SinkClientIT {

	private static final Duration AWAIT = Duration.ofSeconds(60);

	private static final Instant T0 = Instant.parse("2026-11-30T12:00:00.123456789Z");

	private KubernetesTestCluster cluster;

	private CoreV1Api admin;

	private String ns;

	private EventBroadcaster broadcaster;

	/** Subscribes a sink writing through the client under test, as one identity of the cluster. */
	abstract void startRecording(EventBroadcaster broadcaster, KubernetesTestCluster cluster, Identity identity);

	/** The broadcaster of the test has shut down: release the client. */
	void recorderShutDown() {
	}

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws ApiException {
		this.cluster = cluster;
		this.admin = new CoreV1Api(cluster.adminClient());
		this.ns = "it-" + UUID.randomUUID().toString().substring(0, 8);
		this.admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(this.ns))).execute();
	}

	/** ClusterRoles and bindings a test created (cluster-scoped: they outlive the namespace). */
	private final List<String> clusterRbac = new java.util.ArrayList<>();

	@AfterEach
	void tearDown() throws ApiException {
		if (this.broadcaster != null) {
			this.broadcaster.shutdown(Duration.ofSeconds(5));
		}
		recorderShutDown();
		if (!this.cluster.isApiServerRunning()) {
			this.cluster.startApiServer();
		}
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.cluster.adminClient());
		for (String name : this.clusterRbac) {
			rbac.deleteClusterRoleBinding(name).execute();
			rbac.deleteClusterRole(name).execute();
		}
	}

	private EventRecorder start(EventBroadcaster.Builder builder, Identity identity) {
		this.broadcaster = builder.build();
		startRecording(this.broadcaster, this.cluster, identity);
		this.broadcaster.start();
		return this.broadcaster.newRecorder(new EventSource("it-recorder", "it-host-1"));
	}

	private InvolvedObject pod(String name) {
		return new InvolvedObject("Pod", "v1", this.ns, name, "uid-" + name, null, null);
	}

	private RecorderSnapshot.SinkSnapshot sink() {
		List<RecorderSnapshot.SinkSnapshot> sinks = this.broadcaster.snapshot(10).sinks();
		assertThat(sinks).hasSize(1);
		return sinks.get(0);
	}

	private RecorderStats.Writes writes() {
		return sink().stats();
	}

	private List<CoreV1Event> coreEvents() throws ApiException {
		return this.admin.listNamespacedEvent(this.ns).execute().getItems();
	}

	/** The namespace's core/v1 Events by the name of the object they are about. */
	private Map<String, CoreV1Event> coreEventsByObject() throws ApiException {
		return coreEvents().stream()
			.collect(Collectors.toMap((event) -> event.getInvolvedObject().getName(), (event) -> event));
	}

	/** Until the namespace holds one core/v1 Event, of {@code count}. */
	private void awaitingCount(int count) {
		awaiting(() -> {
			List<CoreV1Event> events = coreEvents();
			return events.size() == 1 && events.get(0).getCount() == count;
		});
	}

	private static void awaiting(Callable<Boolean> condition) {
		await().atMost(AWAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50)).until(condition);
	}

	@Test
	void coreV1RepeatIsCreatedOnceAndCountPatched() throws Exception {
		TickingClock clock = TickingClock.fixed(T0);
		EventRecorder recorder = start(EventBroadcaster.builder().eventsApi(EventsApi.CORE_V1).clock(clock),
				Identity.ADMIN);
		assertThat(sink().api()).isEqualTo("core/v1");
		for (int i = 1; i <= 3; i++) {
			recorder.about(pod("web-0")).warning("BackOff", "Back-off restarting failed container");
			int expected = i;
			awaiting(() -> writes().created() + writes().patched() == expected);
			clock.advance(Duration.ofSeconds(1));
		}
		assertThat(writes()).isEqualTo(new RecorderStats.Writes(1, 2, 0, 0));
		assertThat(coreEvents()).singleElement().satisfies((event) -> {
			assertThat(event.getCount()).isEqualTo(3);
			assertThat(event.getType()).isEqualTo("Warning");
			assertThat(event.getReason()).isEqualTo("BackOff");
			assertThat(event.getFirstTimestamp().toInstant()).isEqualTo(Instant.parse("2026-11-30T12:00:00Z"));
			assertThat(event.getLastTimestamp().toInstant()).isEqualTo(Instant.parse("2026-11-30T12:00:02Z"));
			assertThat(event.getSource().getComponent()).isEqualTo("it-recorder");
		});
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
	}

	/**
	 * Deterministic names: a second recorder (a restarted process, empty caches) continues the first one's Event:
	 * its CREATE answers 409, it reads the Event and PATCHes the server's count plus its own occurrences.
	 */
	@Test
	void deterministicNamesContinueTheCountAfterARestart() throws Exception {
		EventRecorder first = start(EventBroadcaster.builder().eventsApi(EventsApi.CORE_V1).deterministicNames(true),
				Identity.ADMIN);
		for (int i = 1; i <= 3; i++) {
			first.about(pod("web-0")).warning("BackOff", "Back-off restarting failed container");
			awaitingCount(i);
		}
		assertThat(this.broadcaster.stats().naming().mode()).isEqualTo("deterministic");
		assertThat(this.broadcaster.shutdown(Duration.ofSeconds(10))).isTrue();
		EventRecorder restarted = start(EventBroadcaster.builder().eventsApi(EventsApi.CORE_V1)
			.deterministicNames(true), Identity.ADMIN);
		for (int i = 1; i <= 2; i++) {
			restarted.about(pod("web-0")).warning("BackOff", "Back-off restarting failed container");
			awaitingCount(3 + i);
		}
		assertThat(coreEvents()).singleElement().satisfies((event) -> {
			assertThat(event.getCount()).isEqualTo(5);
			assertThat(event.getMetadata().getName()).startsWith("web-0.");
		});
		assertThat(this.broadcaster.stats().naming().fallbacks()).isZero();
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
	}

	@Test
	void coreV1RepeatOfAnEventDeletedOnTheServerIsCreatedAgain() throws Exception {
		EventRecorder recorder = start(EventBroadcaster.builder().eventsApi(EventsApi.CORE_V1), Identity.ADMIN);
		recorder.about(pod("web-0")).normal("Pulled", "Pulled image");
		awaiting(() -> writes().created() == 1);
		String name = coreEvents().get(0).getMetadata().getName();
		this.admin.deleteNamespacedEvent(name, this.ns).execute();
		recorder.about(pod("web-0")).normal("Pulled", "Pulled image");
		// the PATCH answers 404: the repeat is created, with its count
		awaiting(() -> writes().created() == 2);
		assertThat(writes()).isEqualTo(new RecorderStats.Writes(2, 0, 0, 0));
		assertThat(coreEvents()).singleElement().satisfies((event) -> assertThat(event.getCount()).isEqualTo(2));
	}

	@Test
	void aWriteTheServerRefusesIsDroppedAndCounted() throws Exception {
		EventRecorder recorder = start(EventBroadcaster.builder().eventsApi(EventsApi.CORE_V1), Identity.RESTRICTED);
		recorder.about(pod("web-0")).normal("Pulled", "Pulled image");
		awaiting(() -> writes().failed() == 1);
		assertThat(writes()).isEqualTo(new RecorderStats.Writes(0, 0, 0, 1));
		assertThat(this.broadcaster.stats().dropped("rejected_by_server")).isEqualTo(1);
		assertThat(coreEvents()).isEmpty();
	}

	@Test
	void eventsV1RepeatBecomesASeriesPatch() throws Exception {
		TickingClock clock = TickingClock.fixed(T0);
		EventRecorder recorder = start(EventBroadcaster.builder().eventsApi(EventsApi.EVENTS_V1).clock(clock),
				Identity.ADMIN);
		assertThat(sink().api()).isEqualTo("events.k8s.io/v1");
		String note = "é".repeat(700);
		recorder.about(pod("web-0")).action("Pulling").normal("Pulled", note);
		awaiting(() -> writes().created() == 1);
		clock.advance(Duration.ofSeconds(1));
		recorder.about(pod("web-0")).action("Pulling").normal("Pulled", note);
		awaiting(() -> writes().patched() == 1);
		List<EventsV1Event> stored = new EventsV1Api(this.cluster.adminClient()).listNamespacedEvent(this.ns)
			.execute()
			.getItems();
		assertThat(stored).singleElement().satisfies((event) -> {
			assertThat(event.getSeries().getCount()).isEqualTo(2);
			assertThat(event.getSeries().getLastObservedTime().toInstant())
				.isEqualTo(Instant.parse("2026-11-30T12:00:01.123456Z"));
			assertThat(event.getEventTime().toInstant()).isEqualTo(Instant.parse("2026-11-30T12:00:00.123456Z"));
			// cut to 1024 bytes at a character boundary, with the marker
			assertThat(event.getNote()).endsWith(" ... [truncated by kube-events]");
			assertThat(event.getNote().getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(1024);
			assertThat(event.getReportingController()).isEqualTo("it-recorder");
			assertThat(event.getReportingInstance()).isEqualTo("it-recorder-it-host-1");
		});
		// each occurrence's note was cut
		assertThat(this.broadcaster.stats().truncatedNotes()).isEqualTo(2);
	}

	/** 341 unpaired surrogates (a reversed pair, then lone high ones) and one ASCII char: 1,024 bytes once sent. */
	private static final String NOTE_AT_LIMIT = "\uDC00\uD800" + "\uD800".repeat(339) + "x";

	/**
	 * Unpaired surrogates reach the server as U+FFFD, whose 3 bytes the limits count (the client alone would send
	 * {@code ?}, one byte, and Jackson an escape the server stores as U+FFFD): a note at exactly 1,024 bytes is stored
	 * byte for byte, one over is cut to 1,024, a reason of 126 bytes of them is accepted.
	 */
	@Test
	void eventsV1NotesWithUnpairedSurrogatesAreStoredAsCountedAtTheLimit() throws Exception {
		EventRecorder recorder = start(EventBroadcaster.builder().eventsApi(EventsApi.EVENTS_V1), Identity.ADMIN);
		recorder.about(pod("at-limit"))
			.withAnnotation("example.com/lone", "v\uDC00")
			.normal("\uD800".repeat(42), NOTE_AT_LIMIT);
		recorder.about(pod("over-limit")).normal("Pulled", "\uD800".repeat(342));
		awaiting(() -> writes().created() == 2);
		Map<String, EventsV1Event> stored = new EventsV1Api(this.cluster.adminClient()).listNamespacedEvent(this.ns)
			.execute()
			.getItems()
			.stream()
			.collect(Collectors.toMap((event) -> event.getRegarding().getName(), (event) -> event));
		EventsV1Event atLimit = stored.get("at-limit");
		assertThat(atLimit.getNote()).isEqualTo("\uFFFD".repeat(341) + "x");
		assertThat(atLimit.getNote().getBytes(StandardCharsets.UTF_8)).hasSize(1024);
		assertThat(atLimit.getReason()).isEqualTo("\uFFFD".repeat(42));
		assertThat(atLimit.getAction()).isEqualTo("\uFFFD".repeat(42));
		assertThat(atLimit.getMetadata().getAnnotations()).containsEntry("example.com/lone", "v\uFFFD");
		// 1,024 - 31 bytes of the marker = 993 bytes = 331 U+FFFD
		assertThat(stored.get("over-limit").getNote()).isEqualTo("\uFFFD".repeat(331) + " ... [truncated by kube-events]");
		assertThat(writes()).isEqualTo(new RecorderStats.Writes(2, 0, 0, 0));
		assertThat(this.broadcaster.stats().truncatedNotes()).isEqualTo(1);
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
	}

	/**
	 * The readers' shape over core/v1: a message of unpaired surrogates at 1,024 bytes carries {@code eventTime},
	 * one over is written whole without it (as client-go writes it), and the count PATCH of a repeat sends the same
	 * bytes.
	 */
	@Test
	void coreV1MessagesWithUnpairedSurrogatesAreStoredAsCountedAtTheLimit() throws Exception {
		EventRecorder recorder = start(EventBroadcaster.builder().eventsApi(EventsApi.CORE_V1), Identity.ADMIN);
		recorder.about(pod("at-limit")).warning("Full", NOTE_AT_LIMIT);
		recorder.about(pod("over-limit")).warning("Full", "\uD800".repeat(342));
		awaiting(() -> writes().created() == 2);
		Map<String, CoreV1Event> created = coreEventsByObject();
		assertThat(created.get("at-limit").getMessage()).isEqualTo("\uFFFD".repeat(341) + "x");
		assertThat(created.get("at-limit").getEventTime()).as("1,024 bytes pass the new-style validation").isNotNull();
		assertThat(created.get("over-limit").getMessage()).isEqualTo("\uFFFD".repeat(342));
		assertThat(created.get("over-limit").getEventTime()).as("1,026 bytes: written without eventTime").isNull();
		recorder.about(pod("at-limit")).warning("Full", NOTE_AT_LIMIT);
		awaiting(() -> writes().patched() == 1);
		CoreV1Event patched = coreEventsByObject().get("at-limit");
		assertThat(patched.getCount()).isEqualTo(2);
		assertThat(patched.getMessage()).isEqualTo("\uFFFD".repeat(341) + "x");
		assertThat(writes()).isEqualTo(new RecorderStats.Writes(2, 1, 0, 0));
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
	}

	@Test
	void autoForAnIdentityAllowedOnlyCoreV1EventsSwitchesToCoreV1() throws Exception {
		grantEventsOnly("");
		EventRecorder recorder = start(EventBroadcaster.builder().eventShape(EventShape.CLIENT_GO), Identity.RESTRICTED);
		assertThat(sink().api()).isEqualTo("events.k8s.io/v1");
		assertThat(sink().apiReason()).isEqualTo("auto: the API server serves events.k8s.io/v1");
		recorder.about(pod("a")).warning("FailedCreate", "first, refused as events.k8s.io/v1, written as core/v1");
		recorder.about(pod("b")).normal("Created", "second");
		awaiting(() -> coreEvents().size() == 2);
		assertThat(coreEvents()).extracting((e) -> e.getInvolvedObject().getName() + " " + e.getReason())
			.containsExactlyInAnyOrder("a FailedCreate", "b Created");
		assertThat(sink().api()).isEqualTo("core/v1");
		assertThat(sink().apiReason()).startsWith("auto: switched from events.k8s.io/v1, which RBAC refuses (HTTP 403")
			.endsWith("); core/v1 allows create and patch");
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
	}

	/** In the readers' shape (the default), auto writes core/v1 from the start where RBAC allows it everywhere. */
	@Test
	void autoInTheReadersShapeWritesCoreV1WhereRbacAllowsItEverywhere() throws Exception {
		grantCoreEventsEverywhere();
		EventRecorder recorder = start(EventBroadcaster.builder().accessCheckNamespace(this.ns), Identity.RESTRICTED);
		assertThat(sink().api()).isEqualTo("core/v1");
		assertThat(sink().apiReason()).startsWith("auto, readers' shape: core/v1");
		recorder.about(pod("a")).warning("FailedCreate", "first");
		recorder.about(pod("a")).warning("FailedCreate", "first");
		awaiting(() -> writes().patched() == 1);
		assertThat(coreEvents()).singleElement().satisfies((event) -> {
			assertThat(event.getCount()).isEqualTo(2);
			assertThat(event.getSeries().getCount()).isEqualTo(2);
			assertThat(event.getEventTime()).as("removed by the repeat").isNull();
			assertThat(event.getAction()).isEqualTo("FailedCreate");
		});
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
	}

	/** In the readers' shape, auto keeps events.k8s.io/v1 where RBAC allows only that API. */
	@Test
	void autoInTheReadersShapeKeepsEventsV1WhereRbacAllowsOnlyIt() throws Exception {
		grantEventsOnly("events.k8s.io");
		EventRecorder recorder = start(EventBroadcaster.builder().accessCheckNamespace(this.ns), Identity.RESTRICTED);
		assertThat(sink().api()).isEqualTo("events.k8s.io/v1");
		recorder.about(pod("a")).warning("FailedCreate", "first");
		awaiting(() -> writes().created() == 1);
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
	}

	/** The API server is killed while events are written: every one reaches the server once it is back. */
	@Test
	void eventsWrittenWhileTheApiServerIsDownAllArriveWithinTheRetryBudget() throws Exception {
		int duringOutage = 20;
		EventRecorder recorder = start(EventBroadcaster.builder()
			.eventsApi(EventsApi.CORE_V1)
			.retryPolicy(new RetryPolicy(60, Duration.ofMillis(500))), Identity.ADMIN);
		recorder.about(pod("before-outage")).normal("Started", "before the outage");
		awaiting(() -> writes().created() == 1);

		this.cluster.stopApiServer();
		for (int i = 0; i < duringOutage; i++) {
			recorder.about(pod("batch-" + i)).warning("Failed", "recorded during the outage #" + i);
		}
		// the outage is seen by the sink before the server comes back
		awaiting(() -> writes().retried() >= 3);
		this.cluster.startApiServer();
		await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
			.until(() -> writes().created() == 1 + duringOutage);

		List<String> expected = new ArrayList<>(List.of("before-outage"));
		IntStream.range(0, duringOutage).forEach((i) -> expected.add("batch-" + i));
		assertThat(coreEvents()).extracting((e) -> e.getInvolvedObject().getName())
			.containsExactlyInAnyOrderElementsOf(expected);
		assertThat(coreEvents()).allSatisfy((e) -> assertThat(e.getCount()).isEqualTo(1));
		RecorderStats.Writes writes = writes();
		assertThat(writes.failed()).isZero();
		assertThat(writes.patched()).isZero();
		assertThat(this.broadcaster.stats().totalDropped()).isZero();
	}

	/** Grants the restricted identity create and patch on core/v1 events in every namespace (a ClusterRole). */
	private void grantCoreEventsEverywhere() throws ApiException {
		String name = "core-events-" + this.ns;
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.cluster.adminClient());
		rbac.createClusterRole(new V1ClusterRole().metadata(new V1ObjectMeta().name(name)).rules(eventsRule(""))).execute();
		rbac.createClusterRoleBinding(new V1ClusterRoleBinding().metadata(new V1ObjectMeta().name(name))
			.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("ClusterRole").name(name))
			.subjects(restrictedUser())).execute();
		this.clusterRbac.add(name);
	}

	/** Grants the restricted identity create and patch on events of one API group only, in the test's namespace. */
	private void grantEventsOnly(String apiGroup) throws ApiException {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.cluster.adminClient());
		rbac.createNamespacedRole(this.ns, new V1Role().metadata(new V1ObjectMeta().name("events-only"))
			.rules(eventsRule(apiGroup))).execute();
		rbac.createNamespacedRoleBinding(this.ns, new V1RoleBinding().metadata(new V1ObjectMeta().name("events-only"))
			.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("events-only"))
			.subjects(restrictedUser())).execute();
	}

	private static List<V1PolicyRule> eventsRule(String apiGroup) {
		return List.of(new V1PolicyRule().apiGroups(List.of(apiGroup))
			.resources(List.of("events"))
			.verbs(List.of("create", "patch")));
	}

	private List<RbacV1Subject> restrictedUser() {
		return List.of(new RbacV1Subject().kind("User")
			.apiGroup("rbac.authorization.k8s.io")
			.name(this.cluster.restrictedUserName()));
	}

}
