package io.github.kubeevents.it;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.DocOutputs;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.LogCapture;
import io.github.kubeevents.ObjectRecorder;
import io.github.kubeevents.TickingClock;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.it.HttpExchangeLog.Exchange;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationContext;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * events.k8s.io/v1 against a real kube-apiserver: creates without deprecated fields, the series PATCH of the
 * second occurrence, no request for later ones until the finish task (6 min) or the heartbeat (30 min) writes the
 * count, singletons forgotten, an Event deleted on the server created again with its series, RBAC on the
 * {@code events.k8s.io} group alone. Time is a {@link TickingClock} the test advances; the sink's periodic tasks
 * read it at least once a second.
 */
@WithTestCluster
class EventsV1IT {

	private static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

	private static final Instant T0 = Instant.parse("2026-11-30T12:00:00.123456789Z");

	private KubernetesTestCluster cluster;

	private String ns;

	private EventsV1Api events;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws ApiException {
		this.cluster = cluster;
		this.ns = createNamespace(new CoreV1Api(cluster.adminClient()));
		this.events = new EventsV1Api(cluster.adminClient());
	}

	private InvolvedObject pod(String name) {
		return new InvolvedObject("Pod", "v1", this.ns, name, "uid-" + name, null, null);
	}

	private List<EventsV1Event> stored() throws ApiException {
		return this.events.listNamespacedEvent(this.ns).execute().getItems();
	}

	private static List<RecorderSnapshot.SinkSnapshot> sinks(ApplicationContext context) {
		return snapshot(context).sinks();
	}

	/** First occurrence → CREATE with no deprecated field; second → PATCH series 2; third → nothing until finish. */
	@Test
	void repeatsBecomeASeriesWrittenOnTheSecondOccurrenceAndWhenFinished() throws Exception {
		ApiClient client = this.cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		TickingClock clock = TickingClock.fixed(T0);
		starter(client, "kubeevents.sink.api=events.k8s.io/v1")
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(clock))
			.run((context) -> {
				assertThat(sinks(context)).singleElement()
					.satisfies((sink) -> assertThat(sink.api()).isEqualTo("events.k8s.io/v1"));
				ObjectRecorder web = context.getBean(EventRecorder.class)
					.about(pod("web-0"))
					.related(InvolvedObject.of("Node", "v1", null, "node-1"))
					.action("Pulling");
				web.normal("Pulled", "Successfully pulled image %s", "nginx:1.27");
				awaiting().until(() -> http.size() == 1);
				EventsV1Event created = stored().get(0);
				assertThat(created.getSeries()).isNull();
				assertThat(created.getDeprecatedCount()).isNull();
				assertThat(created.getDeprecatedFirstTimestamp()).isNull();
				assertThat(created.getDeprecatedLastTimestamp()).isNull();
				// the server answers an empty deprecatedSource for events.k8s.io/v1 Events
				assertThat(created.getDeprecatedSource().getComponent()).isNull();
				assertThat(created.getDeprecatedSource().getHost()).isNull();
				assertThat(created.getEventTime().toInstant()).isEqualTo(Instant.parse("2026-11-30T12:00:00.123456Z"));
				assertThat(created.getReportingController()).isEqualTo(ItSupport.COMPONENT);
				assertThat(created.getReportingInstance()).isEqualTo(ItSupport.COMPONENT + "-" + ItSupport.HOST);
				assertThat(created.getAction()).isEqualTo("Pulling");
				assertThat(created.getNote()).isEqualTo("Successfully pulled image nginx:1.27");
				assertThat(created.getRelated()).isEqualTo(new V1ObjectReference().kind("Node").apiVersion("v1")
					.name("node-1"));
				assertThat(created.getRegarding().getName()).isEqualTo("web-0");
				assertThat(http.exchanges().get(0).path()).isEqualTo("/apis/events.k8s.io/v1/namespaces/" + this.ns
						+ "/events");

				clock.advance(Duration.ofSeconds(1));
				web.normal("Pulled", "Successfully pulled image %s", "nginx:1.28");
				awaiting().until(() -> http.size() == 2);
				Exchange patch = http.exchanges().get(1);
				assertThat(patch.summary()).isEqualTo("PATCH 200");
				assertThat(patch.contentType()).isEqualTo(STRATEGIC_MERGE_PATCH);
				assertThat(patch.requestBody())
					.isEqualTo("{\"series\":{\"count\":2,\"lastObservedTime\":\"2026-11-30T12:00:01.123456Z\"}}");
				assertThat(stored()).singleElement().satisfies((event) -> {
					assertThat(event.getSeries().getCount()).isEqualTo(2);
					// the note of the first occurrence stays (series never change it)
					assertThat(event.getNote()).isEqualTo("Successfully pulled image nginx:1.27");
				});

				clock.advance(Duration.ofSeconds(1));
				web.normal("Pulled", "Successfully pulled image %s", "nginx:1.29");
				// a marker about another object: once it is written, the third occurrence has been handled
				context.getBean(EventRecorder.class).about(pod("marker")).normal("Marker", "marker");
				awaiting().until(() -> http.size() == 3);
				assertThat(http.summary()).containsExactly("POST 201", "PATCH 200", "POST 201");
				assertThat(sinks(context).get(0).series().entries()).filteredOn((e) -> e.object().name().equals("web-0"))
					.singleElement()
					.satisfies((entry) -> {
						assertThat(entry.count()).isEqualTo(3);
						assertThat(entry.countOnServer()).isEqualTo(2);
					});

				// the finish passes run every 6 minutes from the start; the first that sees the series idle for more
				// than 6 minutes (at 12 minutes) writes the final count and forgets it
				clock.advance(Duration.ofMinutes(13));
				awaiting().until(() -> http.size() == 4);
				assertThat(http.exchanges().get(3).requestBody())
					.isEqualTo("{\"series\":{\"count\":3,\"lastObservedTime\":\"2026-11-30T12:00:02.123456Z\"}}");
				awaiting().until(() -> sinks(context).get(0).series().size() == 0);
				assertThat(stored()).filteredOn((e) -> e.getReason().equals("Pulled"))
					.singleElement()
					.satisfies((event) -> assertThat(event.getSeries().getCount()).isEqualTo(3));
				assertThat(snapshot(context).dropped()).isEqualTo(drops());
			});
	}

	/** A series kept alive is written by the heartbeat every 30 minutes, and stays cached. */
	@Test
	void heartbeatWritesTheCountOfALiveSeries() throws Exception {
		ApiClient client = this.cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		TickingClock clock = TickingClock.fixed(T0);
		starter(client, "kubeevents.sink.api=events.k8s.io/v1")
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(clock))
			.run((context) -> {
				ObjectRecorder db = context.getBean(EventRecorder.class).about(pod("db-0"));
				for (int i = 0; i < 3; i++) {
					db.warning("Unhealthy", "Readiness probe failed");
				}
				awaiting().until(() -> http.size() == 2);
				for (int i = 0; i < 6; i++) {
					clock.advance(Duration.ofMinutes(5));
					db.warning("Unhealthy", "Readiness probe failed");
				}
				// the heartbeat due at 30 minutes runs before the occurrence recorded at 30 minutes is counted
				awaiting().until(() -> http.size() == 3);
				assertThat(http.summary()).containsExactly("POST 201", "PATCH 200", "PATCH 200");
				assertThat(http.exchanges().get(2).requestBody())
					.isEqualTo("{\"series\":{\"count\":8,\"lastObservedTime\":\"2026-11-30T12:25:00.123456Z\"}}");
				awaiting().untilAsserted(() -> assertThat(sinks(context).get(0).series().entries()).singleElement()
					.satisfies((entry) -> {
						assertThat(entry.count()).isEqualTo(9);
						assertThat(entry.countOnServer()).isEqualTo(8);
					}));
			});
	}

	/** A singleton is forgotten by the first finish pass that sees it older than 6 minutes, without any request. */
	@Test
	void singletonIsForgottenWithoutARequest() {
		ApiClient client = this.cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		TickingClock clock = TickingClock.fixed(T0);
		starter(client, "kubeevents.sink.api=events.k8s.io/v1")
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(clock))
			.run((context) -> {
				context.getBean(EventRecorder.class).about(pod("job-0")).normal("Completed", "Job completed");
				awaiting().until(() -> sinks(context).get(0).series().size() == 1 && http.size() == 1);
				clock.advance(Duration.ofMinutes(13));
				awaiting().until(() -> sinks(context).get(0).series().size() == 0);
				assertThat(http.summary()).containsExactly("POST 201");
			});
	}

	/** The Event was deleted on the server: the series PATCH gets 404 and the Event is created again, with it. */
	@Test
	void deletedEventIsCreatedAgainWithItsSeries() throws Exception {
		ApiClient client = this.cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		TickingClock clock = TickingClock.fixed(T0);
		starter(client, "kubeevents.sink.api=events.k8s.io/v1")
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(clock))
			.run((context) -> {
				ObjectRecorder api = context.getBean(EventRecorder.class).about(pod("api-0"));
				api.warning("BackOff", "Back-off restarting failed container");
				api.warning("BackOff", "Back-off restarting failed container");
				awaiting().until(() -> http.size() == 2);
				String name = stored().get(0).getMetadata().getName();
				this.events.deleteNamespacedEvent(name, this.ns).execute();
				api.warning("BackOff", "Back-off restarting failed container");
				clock.advance(Duration.ofMinutes(13));
				awaiting().until(() -> http.size() == 4);
				assertThat(http.summary()).containsExactly("POST 201", "PATCH 200", "PATCH 404", "POST 201");
				assertThat(stored()).singleElement().satisfies((event) -> {
					assertThat(event.getMetadata().getName()).isEqualTo(name);
					assertThat(event.getSeries().getCount()).isEqualTo(3);
				});
			});
	}

	/**
	 * RBAC on the events.k8s.io group alone with the API configured: the identity may create core/v1 Events but not
	 * events.k8s.io/v1 ones, so a v1 write is refused with 403 after one attempt, counted and shown as the last
	 * rejection; an explicitly configured API never switches.
	 */
	@Test
	void forbiddenOnTheEventsGroupIsOneAttemptAndCounted() throws Exception {
		grantCoreEventsOnly();
		ApiClient client = this.cluster.restrictedClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		starter(client, "kubeevents.sink.api=events.k8s.io/v1").run((context) -> {
			context.getBean(EventRecorder.class).about(pod("rbac-0")).warning("Failed", "boom");
			awaiting().until(() -> snapshot(context).dropped().get("rejected_by_server") == 1);
			assertThat(http.summary()).containsExactly("POST 403");
			assertThat(snapshot(context).dropped()).isEqualTo(drops("rejected_by_server", 1L));
			assertThat(context.getBean(io.github.kubeevents.EventBroadcaster.class).stats().lastRejection().error())
				.contains("403").contains("events.events.k8s.io is forbidden");
		});
		HttpExchangeLog coreHttp = HttpExchangeLog.attachTo(client);
		starter(client, "kubeevents.sink.api=core/v1").run((context) -> {
			context.getBean(EventRecorder.class).about(pod("rbac-0")).warning("Failed", "boom");
			awaiting().until(() -> coreHttp.size() == 1);
			assertThat(coreHttp.summary()).containsExactly("POST 201");
		});
	}

	/**
	 * Issue 12 item 2: the RBAC most charts grant (create and patch {@code events} in API group {@code ""} only)
	 * under {@code kubeevents.sink.api=auto}, against a server that serves events.k8s.io/v1. Discovery picks v1, the
	 * first write is refused with 403, one SelfSubjectAccessReview says core/v1 Events are allowed, and the sink
	 * writes core/v1 from then on: every event is written, one WARN names the missing rule, the endpoint says why.
	 */
	@Test
	void autoSwitchesToCoreV1ForGoodWhenRbacAllowsOnlyCoreEvents() throws Exception {
		grantCoreEventsOnly();
		ApiClient client = this.cluster.restrictedClient();
		CoreV1Api admin = new CoreV1Api(this.cluster.adminClient());
		try (LogCapture log = LogCapture.of(io.github.kubeevents.EventBroadcaster.class, Level.INFO)) {
			starter(client, "kubeevents.sink.api=auto").run((context) -> {
				EventRecorder recorder = context.getBean(EventRecorder.class);
				recorder.about(pod("a")).warning("FailedCreate", "quota exceeded");
				recorder.about(pod("b")).normal("Created", "created");
				ObjectRecorder db = recorder.about(pod("db")).action("Probing");
				for (int i = 0; i < 3; i++) {
					db.warning("Unhealthy", "probe failed");
				}
				awaiting().untilAsserted(() -> assertThat(ItSupport.events(admin, this.ns))
					.extracting((e) -> e.getInvolvedObject().getName() + " " + e.getReason() + " x" + e.getCount())
					.containsExactlyInAnyOrder("a FailedCreate x1", "b Created x1", "db Unhealthy x3"));
				assertThat(sinks(context)).singleElement().satisfies((sink) -> {
					assertThat(sink.api()).isEqualTo("core/v1");
					assertThat(sink.apiReason()).startsWith("auto: switched from events.k8s.io/v1, which RBAC refuses"
							+ " (HTTP 403 Forbidden: events.events.k8s.io is forbidden")
						.endsWith("); core/v1 allows create and patch");
				});
				assertThat(snapshot(context).dropped().values()).containsOnly(0L);
			});
			// one WARN for the one cause in the test's namespace (the refusal that switched), naming the API written
			// from now on (the startup check looked at 'default', where this identity may write nothing)
			assertThat(log.warnings()).filteredOn((line) -> line.contains("RBAC in namespace '" + this.ns + "'"))
				.singleElement()
				.asString()
				.startsWith("Writing core/v1 Kubernetes events from now on: RBAC in namespace '" + this.ns
						+ "' refuses events.k8s.io/v1 Events (events.k8s.io/v1 refuses create, patch; HTTP 403 Forbidden:"
						+ " events.events.k8s.io is forbidden")
				.contains(" and allows create and patch on core/v1 Events. To write events.k8s.io/v1 Events, grant the"
						+ " rule {apiGroups: [\"events.k8s.io\"], resources: [\"events\"], verbs: [\"create\", \"patch\"]}");
			String warning = log.warnings()
				.stream()
				.filter((line) -> line.contains("RBAC in namespace '" + this.ns + "'"))
				.findFirst()
				.orElseThrow();
			DocOutputs.check("docs/which-api.md", "rbac-switch-warn", warning.replace("'" + this.ns + "'", "'ns'")
				.replaceAll("HTTP 403 Forbidden: [^)]*\\)", "HTTP 403 Forbidden: ...)"));
		}
	}

	private void grantCoreEventsOnly() throws ApiException {
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.cluster.adminClient());
		rbac.createNamespacedRole(this.ns, new V1Role().metadata(new V1ObjectMeta().name("core-events-only"))
			.rules(List.of(new V1PolicyRule().apiGroups(List.of(""))
				.resources(List.of("events"))
				.verbs(List.of("create", "patch"))))).execute();
		rbac.createNamespacedRoleBinding(this.ns, new V1RoleBinding().metadata(new V1ObjectMeta().name("core-events-only"))
			.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name("core-events-only"))
			.subjects(List.of(new RbacV1Subject().kind("User")
				.apiGroup("rbac.authorization.k8s.io")
				.name(this.cluster.restrictedUserName())))).execute();
	}

	/**
	 * With {@code kubeevents.sink.api=auto} in the readers' shape (the default) the starter asks discovery once and
	 * the RBAC of core/v1 at startup, and writes core/v1, which allows create and patch.
	 */
	@Test
	void autoInTheReadersShapePicksCoreV1WhereRbacAllowsIt() {
		ApiClient client = this.cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		starter(client, "kubeevents.sink.api=auto").run((context) -> {
			assertThat(sinks(context)).singleElement().satisfies((sink) -> {
				assertThat(sink.api()).isEqualTo("core/v1");
				assertThat(sink.apiReason()).startsWith("auto, readers' shape: core/v1 with a series on each repeat");
			});
			assertThat(http.summary()).containsExactly("GET 200");
			// core/v1 in every namespace (the readers' choice), then in the startup namespace (the startup line)
			assertThat(http.accessReviews()).extracting(Exchange::requestBody)
				.extracting((body) -> body.replaceAll(".*\"group\":\"([^\"]*)\".*\"verb\":\"([a-z]+)\".*", "$1 $2"))
				.containsExactly(" create", " patch", " create", " patch");
		});
	}

	/** With the client-go shape, {@code auto} asks discovery once and picks events.k8s.io/v1, as client-go. */
	@Test
	void autoPicksEventsV1WhenServed() {
		ApiClient client = this.cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		starter(client, "kubeevents.sink.api=auto", "kubeevents.sink.shape=client-go").run((context) -> {
			assertThat(sinks(context)).singleElement().satisfies((sink) -> {
				assertThat(sink.api()).isEqualTo("events.k8s.io/v1");
				assertThat(sink.apiReason()).isEqualTo("auto: the API server serves events.k8s.io/v1");
			});
			assertThat(http.summary()).containsExactly("GET 200");
			assertThat(http.exchanges().get(0).path()).isEqualTo("/apis/events.k8s.io/v1/");
			// the RBAC probe at startup: create and patch, events.k8s.io/v1 then core/v1, in namespace default
			assertThat(http.accessReviews()).extracting(Exchange::requestBody)
				.allSatisfy((body) -> assertThat(body).contains("\"namespace\":\"default\"").contains("\"resource\":\"events\""))
				.extracting((body) -> body.replaceAll(".*\"group\":\"([^\"]*)\".*\"verb\":\"([a-z]+)\".*", "$1 $2"))
				.containsExactly("events.k8s.io create", "events.k8s.io patch", " create", " patch");
		});
	}

}
