package io.github.kubeevents.it;

import java.util.Map;
import java.util.stream.IntStream;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 18 item 2 against a real kube-apiserver with the EventRateLimit admission plugin: a control plane of this
 * class's own ({@link LocalControlPlane.Builder#admissionPlugin}) limits Events per namespace to a burst of
 * {@value #BURST} and {@value #QPS} per second. The plugin answers 429 without Retry-After; the recorder counts it as
 * {@code throttled_by_server{event_rate_limit}}, retries on its policy (one writer, sleep 2 s, jitter 0.5: each
 * first retry comes 1 s later, when the bucket has a token again) and so keeps the server's limit, one request per
 * token, without losing an event. client-go drops every event over the limit.
 *
 * <p>What the real server does for events.k8s.io/v1: the plugin only looks at the core group's {@code Event} kind
 * ({@code attr.GetKind().GroupKind() != api.Kind("Event")} in {@code plugin/pkg/admission/eventratelimit}), so
 * events.k8s.io/v1 Events pass unlimited; {@link #eventsV1EventsAreNotLimitedByThePlugin()} shows it.
 */
class EventRateLimitIT {

	private static final int BURST = 3;

	private static final int QPS = 1;

	private static final int EVENTS = 6;

	private static LocalControlPlane cluster;

	private String ns;

	@BeforeAll
	static void startControlPlane() {
		cluster = LocalControlPlane.builder().admissionPlugin("EventRateLimit", """
				apiVersion: eventratelimit.admission.k8s.io/v1alpha1
				kind: Configuration
				limits:
				- type: Namespace
				  qps: %d
				  burst: %d
				""".formatted(QPS, BURST)).start();
	}

	@AfterAll
	static void stopControlPlane() {
		if (cluster != null) {
			cluster.close();
		}
	}

	@BeforeEach
	void namespace() throws ApiException {
		this.ns = createNamespace(new CoreV1Api(cluster.adminClient()));
	}

	private void recordDistinctEvents(EventRecorder recorder) {
		IntStream.range(0, EVENTS)
			.forEach((i) -> recorder.about(new InvolvedObject("Pod", "v1", this.ns, "web-" + i, "uid-" + i, null, null))
				.warning("BackOff", "Back-off restarting failed container"));
	}

	private static EventBroadcasterCustomizer halfJitter() {
		return (builder) -> io.github.kubeevents.TestJitter.fixed(builder, 0.5);
	}

	@Test
	void coreV1EventsOverTheLimitAreRetriedUntilTheServerHasATokenAndNoneIsLost() {
		starter(cluster.adminClient(), "kubeevents.sink.api=core/v1", "kubeevents.sink.writers=1",
				"kubeevents.sink.retry.sleep=2s")
			.withBean(EventBroadcasterCustomizer.class, EventRateLimitIT::halfJitter)
			.run((context) -> {
				recordDistinctEvents(context.getBean(EventRecorder.class));
				CoreV1Api admin = new CoreV1Api(cluster.adminClient());
				// the counters follow the server's answers: wait for them, then look at the server
				awaiting().until(() -> context.getBean(EventBroadcaster.class).stats().writes().created() == EVENTS);
				assertThat(ItSupport.events(admin, this.ns)).hasSize(EVENTS);
				RecorderStats stats = context.getBean(EventBroadcaster.class).stats();
				assertThat(stats.throttledByServer())
					.isEqualTo(Map.of("api_priority_and_fairness", 0L, "event_rate_limit", (long) (EVENTS - BURST)));
				assertThat(stats.writes()).isEqualTo(new RecorderStats.Writes(EVENTS, 0, EVENTS - BURST, 0));
				assertThat(stats.dropped()).isEqualTo(drops());
			});
	}

	@Test
	void eventsV1EventsAreNotLimitedByThePlugin() {
		starter(cluster.adminClient(), "kubeevents.sink.api=events.k8s.io/v1", "kubeevents.sink.writers=1",
				"kubeevents.sink.retry.sleep=2s")
			.withBean(EventBroadcasterCustomizer.class, EventRateLimitIT::halfJitter)
			.run((context) -> {
				recordDistinctEvents(context.getBean(EventRecorder.class));
				EventsV1Api admin = new EventsV1Api(cluster.adminClient());
				awaiting().until(() -> context.getBean(EventBroadcaster.class).stats().writes().created() == EVENTS);
				assertThat(admin.listNamespacedEvent(this.ns).execute().getItems()).hasSize(EVENTS);
				RecorderStats stats = context.getBean(EventBroadcaster.class).stats();
				assertThat(stats.throttledByServer()).containsExactlyInAnyOrderEntriesOf(
						Map.of("api_priority_and_fairness", 0L, "event_rate_limit", 0L));
				assertThat(stats.writes()).isEqualTo(new RecorderStats.Writes(EVENTS, 0, 0, 0));
				assertThat(stats.dropped()).isEqualTo(drops());
			});
	}

	/** The plugin's own answer, without the recorder: 429, reason TooManyRequests, no Retry-After. */
	@Test
	void thePluginsAnswerIs429WithoutRetryAfter() throws ApiException {
		CoreV1Api admin = new CoreV1Api(cluster.adminClient());
		ApiException refused = null;
		for (int i = 0; i <= BURST && refused == null; i++) {
			try {
				admin.createNamespacedEvent(this.ns, new io.kubernetes.client.openapi.models.CoreV1Event()
					.metadata(new io.kubernetes.client.openapi.models.V1ObjectMeta().name("probe-" + i))
					.involvedObject(new io.kubernetes.client.openapi.models.V1ObjectReference().kind("Pod")
						.namespace(this.ns)
						.name("probe"))
					.reason("Probe")
					.message("m")
					.type("Normal")).execute();
			}
			catch (ApiException ex) {
				refused = ex;
			}
		}
		assertThat(refused).isNotNull();
		assertThat(refused.getCode()).isEqualTo(429);
		assertThat(refused.getResponseBody()).contains("\"reason\":\"TooManyRequests\"")
			.contains("limit reached on type Namespace");
		assertThat(refused.getResponseHeaders().keySet()).noneMatch((name) -> name.equalsIgnoreCase("Retry-After"));
	}

}
