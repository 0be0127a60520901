package io.github.kubeevents.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.it.HttpExchangeLog.Exchange;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.github.kubeevents.test.cluster.RequiresCapability;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static io.github.kubeevents.it.HttpExchangeLog.TRANSPORT_FAILURE;
import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.dropped;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.events;
import static io.github.kubeevents.it.ItSupport.sinkStats;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 9: the API server goes away while events are being recorded. Uses its own control plane (the
 * shared one must never be stopped under other tests), stopped and restarted with
 * {@link LocalControlPlane#stopApiServer()} / {@link LocalControlPlane#startApiServer()} (etcd keeps running, so
 * data survives and the URL stays the same). Not declared for K3s, which cannot stop its API server alone.
 */
@WithTestCluster(isolated = true)
@RequiresCapability(Capability.STOP_API_SERVER)
class ApiServerOutageIT {

	/** Events recorded while the API server is down. */
	private static final int DURING_OUTAGE = 20;

	/**
	 * Bound for all {@link #DURING_OUTAGE} recorder calls together. A "never blocks" check, not a performance
	 * test: a call that waited for the network (connect or retry) would take at least one retry sleep (500 ms)
	 * or a connection timeout, so 20 of them could not finish in this time; a non-blocking enqueue takes
	 * microseconds.
	 */
	private static final Duration NEVER_BLOCKS_BOUND = Duration.ofSeconds(3);

	private static LocalControlPlane cp;

	@BeforeAll
	static void startControlPlane(LocalControlPlane cluster) {
		cp = cluster;
		System.err.println("[outage-it] separate " + cp + " ready in " + cp.startupTime().toMillis() + " ms");
	}

	@AfterEach
	void apiServerRunsAgain() {
		if (!cp.isApiServerRunning()) {
			cp.startApiServer();
		}
	}

	/**
	 * Within the retry budget (60 attempts, 500 ms apart, about 30 s for the first queued event): every event
	 * recorded during the outage is written after the restart, each exactly once, and no call blocked.
	 */
	@Test
	void eventsRecordedDuringAShortOutageAllReachTheServer() throws ApiException {
		CoreV1Api admin = new CoreV1Api(cp.adminClient());
		String ns = createNamespace(admin);
		ApiClient client = cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		starter(client, "kubeevents.sink.retry.max-attempts=60", "kubeevents.sink.retry.sleep=500ms").run((context) -> {
			assertThat(context).hasNotFailed();
			EventRecorder recorder = context.getBean(EventRecorder.class);
			recorder.event(InvolvedObject.of(pod(ns, "before-outage")), EventType.NORMAL, "Started", "Started before the outage");
			awaiting().until(() -> sinkStats(context).created() == 1);

			cp.stopApiServer();
			long[] callNanos = new long[DURING_OUTAGE];
			long start = System.nanoTime();
			for (int i = 0; i < DURING_OUTAGE; i++) {
				long t = System.nanoTime();
				recorder.event(InvolvedObject.of(pod(ns, "batch-" + i)), EventType.WARNING, "Failed", "Recorded during the outage #" + i);
				callNanos[i] = System.nanoTime() - t;
			}
			Duration allCalls = Duration.ofNanos(System.nanoTime() - start);
			System.err.println("[outage-it] " + DURING_OUTAGE + " recorder calls during the outage took "
					+ allCalls.toNanos() / 1000 + " us in all, longest " + max(callNanos) / 1000 + " us");
			assertThat(allCalls).isLessThan(NEVER_BLOCKS_BOUND);
			// the outage is really seen by the sink (several failed attempts, so several retries) before the server
			// comes back
			awaiting().until(() -> http.exchanges().stream().filter((e) -> e.code() == TRANSPORT_FAILURE).count() >= 3);

			cp.startApiServer();
			System.err.println("[outage-it] kube-apiserver restarted in " + cp.lastApiServerStartupTime().toMillis()
					+ " ms");
			awaiting().atMost(Duration.ofSeconds(120))
				.until(() -> sinkStats(context).created() == 1 + DURING_OUTAGE);

			List<CoreV1Event> stored = events(admin, ns);
			List<String> expectedObjects = new ArrayList<>(List.of("before-outage"));
			IntStream.range(0, DURING_OUTAGE).forEach((i) -> expectedObjects.add("batch-" + i));
			assertThat(stored).extracting((e) -> e.getInvolvedObject().getName())
				.containsExactlyInAnyOrderElementsOf(expectedObjects);
			assertThat(stored).allSatisfy((e) -> assertThat(e.getCount()).isEqualTo(1));
			assertThat(stored).filteredOn((e) -> e.getReason().equals("Failed"))
				.allSatisfy((e) -> assertThat(e.getMessage())
					.isEqualTo("Recorded during the outage #" + e.getInvolvedObject().getName().substring(6)));

			RecorderStats.Writes stats = sinkStats(context);
			List<Exchange> exchanges = http.exchanges();
			long transportFailures = exchanges.stream().filter((e) -> e.code() == TRANSPORT_FAILURE).count();
			Exchange firstAfterOutage = exchanges.stream()
				.skip(1)
				.filter((e) -> e.code() != TRANSPORT_FAILURE)
				.findFirst()
				.orElseThrow();
			System.err.println("[outage-it] attempts: " + http.summary().stream().distinct().toList() + ", "
					+ transportFailures + " transport failures, stats " + stats + "; the first successful attempt"
					+ " after the outage took " + firstAfterOutage.elapsed().toMillis() + " ms");
			assertThat(transportFailures).isGreaterThanOrEqualTo(3);
			// every attempt that failed was followed by exactly one retry, and none was given up
			assertThat(stats).isEqualTo(new RecorderStats.Writes(1 + DURING_OUTAGE, 0, transportFailures, 0));
			assertThat(exchanges).filteredOn((e) -> e.code() != TRANSPORT_FAILURE)
				.extracting(Exchange::summary)
				.containsOnly("POST 201")
				.hasSize(1 + DURING_OUTAGE);
			assertThat(snapshot(context).dropped()).isEqualTo(drops());
		});
	}

	/**
	 * Beyond the retry budget (3 attempts, 200 ms apart): every event recorded during the outage is dropped as
	 * {@code retries_exhausted} after exactly 3 attempts, and none of them reaches the server.
	 */
	@Test
	void eventsRecordedDuringALongOutageAreDroppedAfterTheRetryBudget() throws ApiException {
		int recordedDuringOutage = 4;
		CoreV1Api admin = new CoreV1Api(cp.adminClient());
		String ns = createNamespace(admin);
		ApiClient client = cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		starter(client, "kubeevents.sink.retry.max-attempts=3", "kubeevents.sink.retry.sleep=200ms").run((context) -> {
			assertThat(context).hasNotFailed();
			EventRecorder recorder = context.getBean(EventRecorder.class);
			recorder.event(InvolvedObject.of(pod(ns, "before-outage")), EventType.NORMAL, "Started", "Started before the outage");
			awaiting().until(() -> sinkStats(context).created() == 1);

			cp.stopApiServer();
			for (int i = 0; i < recordedDuringOutage; i++) {
				recorder.event(InvolvedObject.of(pod(ns, "lost-" + i)), EventType.WARNING, "Failed", "Lost during the outage #" + i);
			}
			awaiting().until(() -> dropped(context, DropReason.RETRIES_EXHAUSTED) == recordedDuringOutage);

			assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(1, 0, 2L * recordedDuringOutage, recordedDuringOutage));
			assertThat(snapshot(context).dropped()).isEqualTo(drops("retries_exhausted", recordedDuringOutage));
			List<Exchange> exchanges = http.exchanges();
			assertThat(exchanges).hasSize(1 + 3 * recordedDuringOutage);
			assertThat(exchanges.get(0).summary()).isEqualTo("POST 201");
			assertThat(exchanges.subList(1, exchanges.size())).allSatisfy((e) -> {
				assertThat(e.summary()).isEqualTo("POST transport-failure");
				assertThat(e.failure()).startsWith("java.net.ConnectException: Failed to connect to /127.0.0.1:");
			});
			// three attempts per event; the four writers try different objects in parallel
			assertThat(exchanges.subList(1, exchanges.size()))
				.extracting((e) -> com.google.gson.JsonParser.parseString(e.requestBody())
					.getAsJsonObject()
					.getAsJsonObject("involvedObject")
					.get("name")
					.getAsString())
				.containsExactlyInAnyOrder("lost-0", "lost-0", "lost-0", "lost-1", "lost-1", "lost-1", "lost-2",
						"lost-2", "lost-2", "lost-3", "lost-3", "lost-3");

			cp.startApiServer();
			assertThat(events(admin, ns)).extracting((e) -> e.getInvolvedObject().getName())
				.containsExactly("before-outage");
			assertThat(http.size()).isEqualTo(1 + 3 * recordedDuringOutage);
		});
	}

	private static V1ObjectReference pod(String ns, String name) {
		return new V1ObjectReference().kind("Pod").apiVersion("v1").namespace(ns).name(name);
	}

	private static long max(long[] values) {
		long max = 0;
		for (long value : values) {
			max = Math.max(max, value);
		}
		return max;
	}

}
