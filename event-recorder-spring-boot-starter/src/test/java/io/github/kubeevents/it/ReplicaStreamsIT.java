package io.github.kubeevents.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.ObjectRecorder;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.github.kubeevents.it.ItSupport.createNamespace;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 26 item 6: N replicas in deterministic-names mode write one stream at once against a real kube-apiserver,
 * then all shut down at once. Occurrences that lose the resourceVersion race ten times are carried into the stream's
 * next write (the shutdown's, for the last), so the server ends with exactly {@code N × 20}, nothing dropped; the
 * requests per occurrence are printed for the closing note.
 */
@WithTestCluster
class ReplicaStreamsIT {

	private static final int OCCURRENCES = 20;

	private KubernetesTestCluster cluster;

	private String ns;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws ApiException {
		this.cluster = cluster;
		this.ns = createNamespace(new CoreV1Api(cluster.adminClient()));
	}

	@ParameterizedTest(name = "{0} replicas, {1}")
	@CsvSource({ "10, core/v1", "20, core/v1", "10, events.k8s.io/v1", "20, events.k8s.io/v1" })
	void replicasWritingOneStreamAtOnceEndExact(int replicas, String api) throws Exception {
		List<EventBroadcaster> broadcasters = new ArrayList<>();
		List<HttpExchangeLog> logs = new ArrayList<>();
		List<ObjectRecorder> recorders = new ArrayList<>();
		InvolvedObject pod = new InvolvedObject("Pod", "v1", this.ns, "web-0", "uid-web-0", null, null);
		for (int i = 0; i < replicas; i++) {
			ApiClient client = this.cluster.adminClient();
			logs.add(HttpExchangeLog.attachTo(client));
			EventBroadcaster broadcaster = EventBroadcaster.builder()
				.deterministicNames(true)
				.eventsApi(api.equals("core/v1") ? EventsApi.CORE_V1 : EventsApi.EVENTS_V1)
				.accessCheckNamespace(this.ns)
				.build();
			broadcaster.startRecordingTo(client);
			broadcaster.start();
			broadcasters.add(broadcaster);
			recorders.add(broadcaster.newRecorder(new EventSource("example.com/web", "replica-" + i)).about(pod));
		}
		ExecutorService pool = Executors.newFixedThreadPool(replicas);
		try {
			CountDownLatch go = new CountDownLatch(1);
			List<Future<?>> done = new ArrayList<>();
			for (ObjectRecorder recorder : recorders) {
				done.add(pool.submit(() -> {
					go.await();
					for (int n = 0; n < OCCURRENCES; n++) {
						recorder.warning("BackOff", "Back-off restarting failed container");
					}
					return null;
				}));
			}
			go.countDown();
			for (Future<?> future : done) {
				future.get();
			}
			// every replica stops at once, as a rollout's SIGTERM does
			List<Future<Boolean>> stopped = new ArrayList<>();
			for (EventBroadcaster broadcaster : broadcasters) {
				stopped.add(pool.submit(() -> broadcaster.shutdown(Duration.ofSeconds(30))));
			}
			for (Future<Boolean> future : stopped) {
				assertThat(future.get()).as("shut down within the deadline").isTrue();
			}
		}
		finally {
			pool.shutdownNow();
		}
		long requests = logs.stream()
			.mapToLong((log) -> log.exchanges().stream().filter((e) -> e.path().contains("/events")).count())
			.sum();
		long dropped = broadcasters.stream().mapToLong((b) -> b.stats().totalDropped()).sum();
		int total = replicas * OCCURRENCES;
		int stored = storedCount(api);
		System.out.printf("ReplicaStreamsIT: %d replicas, %s: %d of %d on the server, %d dropped, %d requests"
				+ " (%.2f per occurrence)%n", replicas, api, stored, total, dropped, requests, (double) requests / total);
		assertThat(dropped).isZero();
		assertThat(stored).isEqualTo(total);
	}

	private int storedCount(String api) throws ApiException {
		if (api.equals("core/v1")) {
			List<CoreV1Event> events = ItSupport.events(new CoreV1Api(this.cluster.adminClient()), this.ns);
			assertThat(events).hasSize(1);
			return events.get(0).getCount();
		}
		List<EventsV1Event> events = new EventsV1Api(this.cluster.adminClient()).listNamespacedEvent(this.ns)
			.execute()
			.getItems();
		assertThat(events).hasSize(1);
		return (events.get(0).getSeries() != null) ? events.get(0).getSeries().getCount() : 1;
	}

}
