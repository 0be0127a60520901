package io.github.kubeevents.it;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.DropReason;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.LogCapture;
import io.github.kubeevents.ObjectRecorder;
import io.github.kubeevents.TickingClock;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.health.KubeEventsHealthIndicator;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.RbacAuthorizationV1Api;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1RoleRef;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1TokenRequestSpec;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deterministic-names mode ({@code kubeevents.sink.deterministic-names=true}) against a real kube-apiserver, in
 * one JVM: a restart (a new application context) continues the Event, two recorders writing 20 each at once end
 * with one Event of 40 on both APIs, a real precondition conflict (another client patched the Event) is read again
 * and added to, missing {@code get} RBAC falls back to client-go's names with one WARN and is counted, and the
 * default mode still creates a new Event after a restart. The kill -9 of a recording JVM is in the sample app's
 * {@code RestartSurvivalIT}.
 */
@WithTestCluster
class DeterministicNamesIT {

	private static final String MESSAGE = "Back-off restarting failed container";

	private KubernetesTestCluster cluster;

	private String ns;

	private CoreV1Api admin;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws ApiException {
		this.cluster = cluster;
		this.admin = new CoreV1Api(cluster.adminClient());
		this.ns = createNamespace(this.admin);
	}

	private InvolvedObject pod() {
		return new InvolvedObject("Pod", "v1", this.ns, "web-0", "uid-web-0", null, null);
	}

	private List<CoreV1Event> coreV1Events() throws ApiException {
		return ItSupport.events(this.admin, this.ns);
	}

	private List<EventsV1Event> eventsV1Events() throws ApiException {
		return new EventsV1Api(this.cluster.adminClient()).listNamespacedEvent(this.ns).execute().getItems();
	}

	/**
	 * An object in a namespace that does not exist: one CREATE answered 404 per event and one counted
	 * rejected_by_server drop, on both APIs (it cost 21 requests per event before, reported as a Conflict).
	 */
	@ParameterizedTest(name = "kubeevents.sink.api={0}")
	@ValueSource(strings = { "core/v1", "events.k8s.io/v1" })
	void anObjectInAMissingNamespaceIsOneRequestAndOneCountedDrop(String api) {
		ApiClient client = this.cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		starter(client, "kubeevents.sink.deterministic-names=true", "kubeevents.sink.api=" + api).run((context) -> {
			ObjectRecorder recorder = context.getBean(EventRecorder.class)
				.about(new InvolvedObject("Pod", "v1", "no-such-namespace", "web-0", "uid-web-0", null, null));
			recorder.warning("BackOff", MESSAGE);
			recorder.warning("Failed", MESSAGE);
			awaiting().until(() -> ItSupport.dropped(context, DropReason.REJECTED_BY_SERVER) == 2);
			assertThat(http.exchanges()).filteredOn((e) -> e.path().contains("/events"))
				.extracting(HttpExchangeLog.Exchange::summary)
				.containsExactly("POST 404", "POST 404");
			assertThat(ItSupport.snapshot(context).dropped())
				.isEqualTo(ItSupport.drops("rejected_by_server", 2));
		});
	}

	@Test
	void aRestartContinuesTheEventAndCostsAGetAndAPatchOnceThenNothing() throws Exception {
		starter(this.cluster.adminClient(), "kubeevents.sink.deterministic-names=true", "kubeevents.host=web-abc")
			.run((context) -> {
				ObjectRecorder recorder = context.getBean(EventRecorder.class).about(pod());
				for (int i = 0; i < 5; i++) {
					recorder.warning("BackOff", MESSAGE);
				}
				awaiting().until(() -> coreV1Events().size() == 1 && coreV1Events().get(0).getCount() == 5);
			});
		String name = coreV1Events().get(0).getMetadata().getName();
		assertThat(name).matches("web-0\\.[0-9a-f]{32}");
		ApiClient client = this.cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		// the restarted pod has another name: the instance is not part of the Event's name
		starter(client, "kubeevents.sink.deterministic-names=true", "kubeevents.host=web-xyz").run((context) -> {
			ObjectRecorder recorder = context.getBean(EventRecorder.class).about(pod());
			for (int i = 0; i < 3; i++) {
				recorder.warning("BackOff", MESSAGE);
				int patches = i + 1;
				awaiting().until(() -> http.summary().stream().filter("PATCH 200"::equals).count() == patches);
			}
			assertThat(context.getBean(EventBroadcaster.class).stats().naming())
				.isEqualTo(new RecorderStats.Naming("deterministic", true, 0, null));
		});
		assertThat(coreV1Events()).singleElement().satisfies((event) -> {
			assertThat(event.getMetadata().getName()).isEqualTo(name);
			assertThat(event.getCount()).isEqualTo(8);
		});
		// create 409, get, patch; then one patch per occurrence (the RBAC probe's access reviews are kept apart)
		assertThat(http.summary()).containsExactly("POST 409", "GET 200", "PATCH 200", "PATCH 200", "PATCH 200");
		assertThat(http.accessReviews())
			.anySatisfy((review) -> assertThat(review.requestBody()).contains("\"verb\":\"get\""));
		assertThat(http.exchanges().get(2).requestBody()).contains("\"resourceVersion\"").contains("\"count\":6");
	}

	@Test
	void theDefaultModeStillCreatesANewEventAfterARestart() throws Exception {
		for (int run = 0; run < 2; run++) {
			starter(this.cluster.adminClient()).run((context) -> {
				context.getBean(EventRecorder.class).about(pod()).warning("BackOff", MESSAGE);
				awaiting().until(() -> context.getBean(EventBroadcaster.class).stats().writes().created() == 1);
				assertThat(context.getBean(EventBroadcaster.class).stats().naming()).isEqualTo(RecorderStats.Naming.CLIENT_GO_NAMES);
			});
		}
		assertThat(coreV1Events()).hasSize(2).allSatisfy((event) -> {
			assertThat(event.getCount()).isEqualTo(1);
			assertThat(event.getMetadata().getName()).matches("web-0\\.[0-9a-f]{1,16}");
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "core/v1", "events.k8s.io/v1" })
	void twoRecordersWritingTwentyEachAtOnceEndWithOneEventOfForty(String api) throws Exception {
		starter(this.cluster.adminClient(), "kubeevents.sink.api=" + api, "kubeevents.sink.deterministic-names=true",
				"kubeevents.host=replica-1")
			.run((one) -> starter(this.cluster.adminClient(), "kubeevents.sink.api=" + api,
					"kubeevents.sink.deterministic-names=true", "kubeevents.host=replica-2")
				.run((two) -> {
					ObjectRecorder first = one.getBean(EventRecorder.class).about(pod());
					ObjectRecorder second = two.getBean(EventRecorder.class).about(pod());
					Thread other = new Thread(() -> {
						for (int i = 0; i < 20; i++) {
							second.warning("BackOff", MESSAGE);
						}
					}, "second-replica");
					other.start();
					for (int i = 0; i < 20; i++) {
						first.warning("BackOff", MESSAGE);
					}
					other.join();
					if (api.equals("core/v1")) {
						awaiting().until(() -> coreV1Events().size() == 1 && coreV1Events().get(0).getCount() == 40);
					}
					assertThat(ItSupport.snapshot(one).dropped().values()).containsOnly(0L);
					assertThat(ItSupport.snapshot(two).dropped().values()).containsOnly(0L);
				}));
		// events.k8s.io/v1: the final counts are written when the recorders stop
		if (api.equals("core/v1")) {
			assertThat(coreV1Events()).singleElement().satisfies((event) -> assertThat(event.getCount()).isEqualTo(40));
		}
		else {
			assertThat(eventsV1Events()).singleElement()
				.satisfies((event) -> assertThat(event.getSeries().getCount()).isEqualTo(40));
		}
	}

	@Test
	void aPreconditionConflictIsReadAgainAndAddedTo() throws Exception {
		ApiClient client = this.cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		starter(client, "kubeevents.sink.deterministic-names=true").run((context) -> {
			ObjectRecorder recorder = context.getBean(EventRecorder.class).about(pod());
			recorder.warning("BackOff", MESSAGE);
			awaiting().until(() -> http.summary().contains("POST 201") && coreV1Events().size() == 1);
			// another writer changes the Event between this recorder's writes
			String name = coreV1Events().get(0).getMetadata().getName();
			patchCount(name, 11);
			recorder.warning("BackOff", MESSAGE);
			awaiting().until(() -> coreV1Events().get(0).getCount() == 12);
		});
		assertThat(http.summary()).containsExactly("POST 201", "PATCH 409", "GET 200", "PATCH 200");
		assertThat(http.exchanges().get(1).errorBody()).contains("Conflict");
		assertThat(coreV1Events()).singleElement().satisfies((event) -> assertThat(event.getCount()).isEqualTo(12));
	}

	private void patchCount(String name, int count) throws Exception {
		ApiClient client = this.cluster.adminClient();
		Request request = new Request.Builder()
			.url(client.getBasePath() + "/api/v1/namespaces/" + this.ns + "/events/" + name)
			.header("Authorization", "Bearer " + this.cluster.adminToken())
			.patch(RequestBody.create("{\"count\":" + count + "}",
					MediaType.get("application/strategic-merge-patch+json")))
			.build();
		try (Response response = client.getHttpClient().newCall(request).execute()) {
			assertThat(response.code()).as(response.body().string()).isEqualTo(200);
		}
	}

	@Test
	void withoutGetOnEventsTheModeFallsBackToClientGoNamesWithOneWarningAndIsCounted() throws Exception {
		ApiClient client = this.cluster.client(serviceAccountToken("events-writer", List.of("create", "patch")));
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.WARN)) {
			starter(client, "kubeevents.sink.deterministic-names=true", "POD_NAMESPACE=" + this.ns).run((context) -> {
				ObjectRecorder recorder = context.getBean(EventRecorder.class).about(pod());
				recorder.warning("BackOff", MESSAGE);
				recorder.warning("BackOff", MESSAGE);
				awaiting().until(() -> coreV1Events().size() == 1 && coreV1Events().get(0).getCount() == 2);
				EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
				RecorderStats.Naming naming = broadcaster.stats().naming();
				assertThat(naming.mode()).isEqualTo("client-go-fallback");
				assertThat(naming.fallbacks()).isEqualTo(1);
				assertThat(naming.fallbackReason()).isEqualTo("RBAC does not allow the verb 'get' on events (core/v1)"
						+ " in namespace '" + this.ns + "', which the mode needs to continue an Event another process"
						+ " wrote; names are deterministic again there once RBAC allows it");
				assertThat(broadcaster.stats().missingAccess())
					.containsExactly(new RecorderStats.MissingAccess("core/v1", "get", this.ns));
				Health health = new KubeEventsHealthIndicator(broadcaster, context.getBean(KubeEventsStatus.class))
					.health();
				// events are written, with client-go's names: the refused get is listed, not a degradation
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				Map<String, Object> details = health.getDetails();
				assertThat(details).containsEntry("missingAccess", List.of("get on core/v1 events in namespace '" + this.ns + "'"))
					.containsEntry("naming", "client-go-fallback")
					.containsEntry("namingFallbacks", 1L)
					.containsEntry("namingFallbackReason", naming.fallbackReason());
				assertThat(ItSupport.snapshot(context).dropped().values()).containsOnly(0L);
			});
			assertThat(log.messages(Level.WARN)).filteredOn((line) -> line.startsWith("Deterministic event names are off"))
				.singleElement()
				.asString()
				.contains("the verb 'get' on events (core/v1)");
		}
		assertThat(coreV1Events().get(0).getMetadata().getName()).matches("web-0\\.[0-9a-f]{1,16}");
	}

	/**
	 * Issue 28 item 3: a refused {@code get} is an RBAC answer like the others, remembered for
	 * {@code EventsAccess.ANSWER_TTL} (5 minutes of the broadcaster's clock): granted later, deterministic names
	 * resume in the namespace once the answer expired, without a restart; one WARN for the fallback, one INFO at the
	 * return.
	 */
	@Test
	void getGrantedAfterAFallbackBringsDeterministicNamesBackOnceTheAnswerExpired() throws Exception {
		ApiClient client = this.cluster.client(serviceAccountToken("events-writer", List.of("create", "patch")));
		TickingClock clock = TickingClock.fixed(Instant.now().truncatedTo(ChronoUnit.SECONDS));
		try (LogCapture log = LogCapture.of(EventBroadcaster.class, Level.INFO)) {
			starter(client, "kubeevents.sink.deterministic-names=true", "POD_NAMESPACE=" + this.ns)
				.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(clock))
				.run((context) -> {
					EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
					EventRecorder recorder = context.getBean(EventRecorder.class);
					recorder.about(pod()).warning("BackOff", MESSAGE);
					awaiting().until(() -> coreV1Events().size() == 1);
					String first = coreV1Events().get(0).getMetadata().getName();
					assertThat(first).matches("web-0\\.[0-9a-f]{1,16}");
					assertThat(broadcaster.stats().naming().mode()).isEqualTo("client-go-fallback");
					assertThat(broadcaster.stats().missingAccess())
						.containsExactly(new RecorderStats.MissingAccess("core/v1", "get", this.ns));
					grantVerbs("events-writer", List.of("create", "patch", "get"));
					// the authorizer sees the Role's change shortly after the update
					CoreV1Api asWriter = new CoreV1Api(client);
					awaiting().ignoreExceptions()
						.until(() -> asWriter.readNamespacedEvent(first, this.ns).execute() != null);
					// still the remembered answer: client-go's names
					clock.advance(Duration.ofMinutes(5).minusSeconds(1));
					recorder.about(otherPod("web-1")).warning("BackOff", MESSAGE);
					awaiting().until(() -> coreV1Events().size() == 2);
					assertThat(eventNamed("web-1")).matches("web-1\\.[0-9a-f]{1,16}");
					clock.advance(Duration.ofSeconds(1));
					recorder.about(otherPod("web-2")).warning("BackOff", MESSAGE);
					awaiting().until(() -> coreV1Events().size() == 3);
					assertThat(eventNamed("web-2")).matches("web-2\\.[0-9a-f]{32}");
					RecorderStats.Naming naming = broadcaster.stats().naming();
					assertThat(naming.mode()).isEqualTo("deterministic");
					assertThat(naming.fallbacks()).isEqualTo(1);
					assertThat(broadcaster.stats().missingAccess()).isEmpty();
					assertThat(ItSupport.snapshot(context).dropped().values()).containsOnly(0L);
				});
			assertThat(log.messages(Level.WARN)).filteredOn((line) -> line.startsWith("Deterministic event names are off"))
				.singleElement()
				.asString()
				.contains("the verb 'get' on events (core/v1) in namespace '" + this.ns + "'");
			assertThat(log.messages(Level.INFO)).filteredOn((line) -> line.startsWith("Deterministic event names are on"))
				.containsExactly("Deterministic event names are on again for events (core/v1) in namespace '" + this.ns
						+ "': RBAC allows the verb 'get'");
		}
	}

	private InvolvedObject otherPod(String name) {
		return new InvolvedObject("Pod", "v1", this.ns, name, "uid-" + name, null, null);
	}

	private String eventNamed(String pod) throws ApiException {
		return coreV1Events().stream()
			.filter((event) -> pod.equals(event.getInvolvedObject().getName()))
			.findFirst()
			.orElseThrow()
			.getMetadata()
			.getName();
	}

	/** Replaces the verbs of the Role {@link #serviceAccountToken} made. */
	private void grantVerbs(String name, List<String> verbs) throws ApiException {
		new RbacAuthorizationV1Api(this.cluster.adminClient())
			.replaceNamespacedRole(name, this.ns, new V1Role().metadata(new V1ObjectMeta().name(name))
				.rules(List.of(new V1PolicyRule().apiGroups(List.of("", "events.k8s.io"))
					.resources(List.of("events"))
					.verbs(verbs))))
			.execute();
	}

	/** A ServiceAccount in the test namespace allowed only {@code verbs} on Events of both APIs, and its token. */
	private String serviceAccountToken(String name, List<String> verbs) throws ApiException {
		this.admin.createNamespacedServiceAccount(this.ns, new V1ServiceAccount().metadata(new V1ObjectMeta().name(name)))
			.execute();
		RbacAuthorizationV1Api rbac = new RbacAuthorizationV1Api(this.cluster.adminClient());
		rbac.createNamespacedRole(this.ns, new V1Role().metadata(new V1ObjectMeta().name(name))
			.rules(List.of(new V1PolicyRule().apiGroups(List.of("", "events.k8s.io"))
				.resources(List.of("events"))
				.verbs(verbs)))).execute();
		rbac.createNamespacedRoleBinding(this.ns, new V1RoleBinding().metadata(new V1ObjectMeta().name(name))
			.roleRef(new V1RoleRef().apiGroup("rbac.authorization.k8s.io").kind("Role").name(name))
			.subjects(List.of(new RbacV1Subject().kind("ServiceAccount").name(name).namespace(this.ns)))).execute();
		AuthenticationV1TokenRequest token = this.admin
			.createNamespacedServiceAccountToken(name, this.ns,
					new AuthenticationV1TokenRequest().spec(new V1TokenRequestSpec().expirationSeconds(3600L)))
			.execute();
		return token.getStatus().getToken();
	}

}
