package io.github.kubeevents.it;

import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.DocOutputs;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.LogCapture;
import io.github.kubeevents.ObjectRecorder;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.health.KubeEventsHealthIndicator;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AuthorizationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ApplicationContext;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 18 item 1 against a real kube-apiserver and real RBAC: the restricted identity gets a Role in a namespace of
 * its own with exactly the verbs of each combination, on {@code events} of the core group and of
 * {@code events.k8s.io}; the recorder checks them verb by verb, chooses, and writes every occurrence, as new Events
 * where {@code patch} is refused ({@code written_without_patch}, health {@code DEGRADED}).
 */
@WithTestCluster
class RbacVerbsIT {

	private static final String CORE = "";

	private static final String EVENTS_V1 = "events.k8s.io";

	private KubernetesTestCluster cluster;

	private String ns;

	private CoreV1Api admin;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws ApiException {
		this.cluster = cluster;
		this.admin = new CoreV1Api(cluster.adminClient());
		this.ns = createNamespace(this.admin);
	}

	private InvolvedObject pod(String name) {
		return new InvolvedObject("Pod", "v1", this.ns, name, "uid-" + name, null, null);
	}

	/** Grants the restricted identity exactly these verbs on events of each group, in the test's namespace. */
	private void grant(List<String> coreVerbs, List<String> eventsV1Verbs) throws ApiException {
		List<V1PolicyRule> rules = new ArrayList<>();
		if (!coreVerbs.isEmpty()) {
			rules.add(new V1PolicyRule().apiGroups(List.of(CORE)).resources(List.of("events")).verbs(coreVerbs));
		}
		if (!eventsV1Verbs.isEmpty()) {
			rules.add(new V1PolicyRule().apiGroups(List.of(EVENTS_V1)).resources(List.of("events")).verbs(eventsV1Verbs));
		}
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.cluster.adminClient());
		rbac.createNamespacedRole(this.ns, new V1Role().metadata(new V1ObjectMeta().name("events")).rules(rules))
			.execute();
		rbac.createNamespacedRoleBinding(this.ns, new V1RoleBinding().metadata(new V1ObjectMeta().name("events"))
			.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("events"))
			.subjects(List.of(new RbacV1Subject().kind("User")
				.apiGroup("rbac.authorization.k8s.io")
				.name(this.cluster.restrictedUserName())))).execute();
		// the RBAC authorizer reads through an informer: wait until the last granted verb is allowed
		String group = eventsV1Verbs.isEmpty() ? CORE : EVENTS_V1;
		String verb = eventsV1Verbs.isEmpty() ? coreVerbs.get(coreVerbs.size() - 1)
				: eventsV1Verbs.get(eventsV1Verbs.size() - 1);
		awaiting().until(() -> allowed(group, verb));
	}

	private boolean allowed(String group, String verb) throws ApiException {
		V1SelfSubjectAccessReview answer = new AuthorizationV1Api(this.cluster.restrictedClient())
			.createSelfSubjectAccessReview(new V1SelfSubjectAccessReview().spec(new V1SelfSubjectAccessReviewSpec()
				.resourceAttributes(new V1ResourceAttributes().group(group)
					.resource("events")
					.verb(verb)
					.namespace(this.ns))))
			.execute();
		return answer.getStatus() != null && Boolean.TRUE.equals(answer.getStatus().getAllowed());
	}

	private static Health health(ApplicationContext context) {
		return new KubeEventsHealthIndicator(context.getBean(EventBroadcaster.class),
				context.getBean(KubeEventsStatus.class)).health(true);
	}

	private static RecorderStats stats(ApplicationContext context) {
		return context.getBean(EventBroadcaster.class).stats();
	}

	private void warningThreeTimes(ApplicationContext context, String name) {
		ObjectRecorder db = context.getBean(EventRecorder.class).about(pod(name)).action("Probing");
		for (int i = 0; i < 3; i++) {
			db.warning("Unhealthy", "probe failed");
		}
	}

	private List<String> coreEvents() throws ApiException {
		return ItSupport.events(this.admin, this.ns)
			.stream()
			.map((e) -> e.getInvolvedObject().getName() + " " + e.getReason() + " x" + e.getCount())
			.toList();
	}

	private int coreOccurrences() throws ApiException {
		return ItSupport.events(this.admin, this.ns).stream().mapToInt(CoreV1Event::getCount).sum();
	}

	private List<EventsV1Event> eventsV1() throws ApiException {
		return new EventsV1Api(this.cluster.adminClient()).listNamespacedEvent(this.ns).execute().getItems();
	}

	/** The recorder's startup check looks at the test's namespace, as it would at its own. */
	private static EventBroadcasterCustomizer startupCheckIn(String namespace) {
		return (builder) -> builder.accessCheckNamespace(namespace);
	}

	/**
	 * The bug as issue 18 states it: core/v1 RBAC with {@code create} alone, {@code api=auto}, the same Warning
	 * three times. Before: 1 occurrence on the server (the two PATCHes refused, rejected_by_server), health UP. Now:
	 * each repeat is an Event of its own, none lost, health DEGRADED naming the missing verb and API.
	 */
	@Test
	void createOnlyCoreRbacUnderAutoLosesNoRepeatAndIsDegraded() throws Exception {
		grant(List.of("create"), List.of());
		ApiClient client = this.cluster.restrictedClient();
		starter(client, "kubeevents.sink.api=auto").run((context) -> {
			warningThreeTimes(context, "db");
			awaiting().untilAsserted(() -> assertThat(coreOccurrences()).isEqualTo(3));
			// the counter follows the create's answer
			awaiting().until(() -> stats(context).writtenWithoutPatch() == 2);
			assertThat(coreEvents()).containsExactly("db Unhealthy x1", "db Unhealthy x1", "db Unhealthy x1");
			Health health = health(context);
			assertThat(health.getStatus()).isEqualTo(KubeEventsHealthIndicator.DEGRADED);
			assertThat(health.getDetails()).containsEntry("writtenWithoutPatch", 2L);
			// the startup check asked about the default namespace (the starter knows no other outside a Pod)
			assertThat(health.getDetails().get("missingAccess")).asInstanceOf(
					org.assertj.core.api.InstanceOfAssertFactories.list(String.class))
				.containsExactlyInAnyOrder("patch on core/v1 events in namespace '" + this.ns + "'",
						"create on core/v1 events in namespace 'default'",
						"patch on core/v1 events in namespace 'default'");
			RecorderStats stats = stats(context);
			assertThat(stats.writtenWithoutPatch()).isEqualTo(2);
			assertThat(stats.dropped()).isEqualTo(drops());
			assertThat(stats.writes().created()).isEqualTo(3);
			assertThat(snapshot(context).sinks()).singleElement().satisfies((sink) -> {
				assertThat(sink.api()).isEqualTo("core/v1");
				assertThat(sink.missingAccess()).containsExactlyInAnyOrder(
						new RecorderStats.MissingAccess("events.k8s.io/v1", "create", "default"),
						new RecorderStats.MissingAccess("events.k8s.io/v1", "patch", "default"),
						new RecorderStats.MissingAccess("core/v1", "create", "default"),
						new RecorderStats.MissingAccess("core/v1", "patch", "default"),
						new RecorderStats.MissingAccess("events.k8s.io/v1", "create", this.ns),
						new RecorderStats.MissingAccess("events.k8s.io/v1", "patch", this.ns),
						new RecorderStats.MissingAccess("core/v1", "patch", this.ns));
			});
		});
	}

	/** create without patch on events.k8s.io/v1, both on core/v1: the startup check takes core/v1, count PATCHes work. */
	@Test
	void createWithoutPatchOnEventsV1AndBothOnCoreV1TakesCoreV1AtStartup() throws Exception {
		grant(List.of("create", "patch"), List.of("create"));
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			starter(this.cluster.restrictedClient(), "kubeevents.sink.api=auto", "kubeevents.sink.shape=client-go")
				.withBean(EventBroadcasterCustomizer.class, () -> startupCheckIn(this.ns))
				.run((context) -> {
					warningThreeTimes(context, "db");
					awaiting().untilAsserted(() -> assertThat(coreEvents()).containsExactly("db Unhealthy x3"));
					// events.k8s.io/v1 lists core/v1 Events too (one storage); none was written as events.k8s.io/v1
					assertThat(eventsV1()).extracting(EventsV1Event::getEventTime).containsOnlyNulls();
					assertThat(health(context).getStatus()).isEqualTo(Status.UP);
					RecorderStats stats = stats(context);
					assertThat(stats.missingAccess()).isEmpty();
					assertThat(stats.writtenWithoutPatch()).isZero();
					assertThat(snapshot(context).sinks()).singleElement().satisfies((sink) -> {
						assertThat(sink.api()).isEqualTo("core/v1");
						assertThat(sink.apiReason()).isEqualTo("auto: switched from events.k8s.io/v1, which RBAC"
								+ " refuses (RBAC in namespace '" + this.ns + "': events.k8s.io/v1 allows create,"
								+ " refuses patch); core/v1 allows create and patch");
						assertThat(sink.missingAccess())
							.containsExactly(new RecorderStats.MissingAccess("events.k8s.io/v1", "patch", this.ns));
					});
				});
			assertThat(log.messages(Level.INFO)).filteredOn((line) -> line.startsWith("Writing Kubernetes events"))
				.singleElement()
				.asString()
				.startsWith("Writing Kubernetes events with the core/v1 API (auto: switched")
				.endsWith("RBAC in namespace '" + this.ns + "': events.k8s.io/v1 allows create, refuses patch; core/v1"
						+ " allows create, patch");
			// a switch at startup has no line of its own: the startup report above says it, and core/v1 lacks nothing
			assertThat(log.warnings()).filteredOn((line) -> line.contains("RBAC")).isEmpty();
		}
	}

	/** Both verbs on events.k8s.io/v1 and nothing on core/v1: events.k8s.io/v1 stays, with its series. */
	@Test
	void bothVerbsOnEventsV1KeepIt() throws Exception {
		grant(List.of(), List.of("create", "patch"));
		starter(this.cluster.restrictedClient(), "kubeevents.sink.api=auto")
			.withBean(EventBroadcasterCustomizer.class, () -> startupCheckIn(this.ns))
			.run((context) -> {
				ObjectRecorder db = context.getBean(EventRecorder.class).about(pod("db")).action("Probing");
				db.warning("Unhealthy", "probe failed");
				db.warning("Unhealthy", "probe failed");
				awaiting().untilAsserted(() -> assertThat(eventsV1()).singleElement()
					.satisfies((e) -> assertThat(e.getSeries()).isNotNull()
						.satisfies((series) -> assertThat(series.getCount()).isEqualTo(2))));
				assertThat(health(context).getStatus()).isEqualTo(Status.UP);
				assertThat(stats(context).missingAccess()).isEmpty();
				assertThat(snapshot(context).sinks().get(0).api()).isEqualTo("events.k8s.io/v1");
				assertThat(snapshot(context).sinks().get(0).missingAccess()).containsExactly(
						new RecorderStats.MissingAccess("core/v1", "create", this.ns),
						new RecorderStats.MissingAccess("core/v1", "patch", this.ns));
			});
	}

	/** create without patch on both APIs: core/v1, each repeat an Event of its own, DEGRADED. */
	@Test
	void createWithoutPatchOnBothApisWritesRepeatsAsNewCoreV1Events() throws Exception {
		grant(List.of("create"), List.of("create"));
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			starter(this.cluster.restrictedClient(), "kubeevents.sink.api=auto")
				.withBean(EventBroadcasterCustomizer.class, () -> startupCheckIn(this.ns))
				.run((context) -> {
					warningThreeTimes(context, "db");
					awaiting().untilAsserted(() -> assertThat(coreEvents()).containsExactly("db Unhealthy x1",
							"db Unhealthy x1", "db Unhealthy x1"));
					awaiting().until(() -> stats(context).writtenWithoutPatch() == 2);
					assertThat(health(context).getStatus()).isEqualTo(KubeEventsHealthIndicator.DEGRADED);
					assertThat(stats(context).writtenWithoutPatch()).isEqualTo(2);
					assertThat(stats(context).dropped()).isEqualTo(drops());
					assertThat(stats(context).missingAccess())
						.containsExactly(new RecorderStats.MissingAccess("core/v1", "patch", this.ns));
				});
			// one WARN for the one cause, naming the missing verb and the API written
			assertThat(log.warnings()).filteredOn((line) -> line.contains("RBAC"))
				.containsExactly("RBAC in namespace '" + this.ns + "' refuses patch on core/v1 events, the API written"
						+ " (core/v1 allows create, refuses patch): repeats of an event are written as new Events"
						+ " (counted as written_without_patch) instead of raising the count of one. Grant the verb patch"
						+ " on resource \"events\" in API group \"\" (core)");
			String warning = log.warnings().stream().filter((line) -> line.contains("RBAC")).findFirst().orElseThrow();
			DocOutputs.check("docs/which-api.md", "rbac-no-patch-warn",
					warning.replace("'" + this.ns + "'", "'shop'"));
		}
	}

	/** events.k8s.io/v1 configured, create only: the second occurrence is an events.k8s.io/v1 Event of its own. */
	@Test
	void configuredEventsV1WithCreateOnlyWritesTheRepeatAsANewEvent() throws Exception {
		grant(List.of(), List.of("create"));
		starter(this.cluster.restrictedClient(), "kubeevents.sink.api=events.k8s.io/v1")
			.withBean(EventBroadcasterCustomizer.class, () -> startupCheckIn(this.ns))
			.run((context) -> {
				ObjectRecorder db = context.getBean(EventRecorder.class).about(pod("db")).action("Probing");
				db.warning("Unhealthy", "probe failed");
				db.warning("Unhealthy", "probe failed");
				awaiting().untilAsserted(() -> assertThat(eventsV1()).hasSize(2));
				awaiting().until(() -> stats(context).writtenWithoutPatch() == 1);
				assertThat(eventsV1()).extracting(EventsV1Event::getSeries).containsOnlyNulls();
				assertThat(stats(context).writtenWithoutPatch()).isEqualTo(1);
				assertThat(stats(context).dropped()).isEqualTo(drops());
				Health health = health(context);
				assertThat(health.getStatus()).isEqualTo(KubeEventsHealthIndicator.DEGRADED);
				assertThat(health.getDetails()).containsEntry("missingAccess",
						List.of("patch on events.k8s.io/v1 events in namespace '" + this.ns + "'"));
			});
	}

	/** Nothing on either API: refused and counted, DEGRADED, every missing verb named at startup. */
	@Test
	void noVerbOnEitherApiIsRefusedAndNamedVerbByVerb() throws Exception {
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			starter(this.cluster.restrictedClient(), "kubeevents.sink.api=auto")
				.withBean(EventBroadcasterCustomizer.class, () -> startupCheckIn(this.ns))
				.run((context) -> {
					context.getBean(EventRecorder.class).about(pod("a")).warning("FailedCreate", "quota exceeded");
					awaiting().until(() -> stats(context).dropped("rejected_by_server") == 1);
					assertThat(coreEvents()).isEmpty();
					assertThat(health(context).getStatus()).isEqualTo(KubeEventsHealthIndicator.DEGRADED);
					assertThat(stats(context).missingAccess()).containsExactly(
							new RecorderStats.MissingAccess("events.k8s.io/v1", "create", this.ns),
							new RecorderStats.MissingAccess("events.k8s.io/v1", "patch", this.ns));
				});
			// one WARN for the one cause, naming the missing verb and the API written
			assertThat(log.warnings()).filteredOn((line) -> line.contains("RBAC"))
				.containsExactly("RBAC in namespace '" + this.ns + "' refuses create, patch on events.k8s.io/v1 events,"
						+ " the API written (events.k8s.io/v1 refuses create, patch): events are refused (counted as"
						+ " rejected_by_server). Grant the verb create, patch on resource \"events\" in API group"
						+ " \"events.k8s.io\"");
		}
	}

}
