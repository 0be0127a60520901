package io.github.kubeevents.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.it.HttpExchangeLog.Exchange;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.github.kubeevents.it.HttpExchangeLog.ACCESS_REVIEW_PATH;
import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 36 item 2: the distribution thread ({@code kubeevents-broadcaster}) never makes a request. With deterministic
 * names, each namespace's first Event needs an RBAC answer ({@code get} on Events, asked with
 * SelfSubjectAccessReviews); written into several namespaces the recorder has never seen, every one of those reviews,
 * like every Event request, runs on a writer thread ({@code kubeevents-writer-*}) or, for the startup check of the
 * recorder's own namespace, on the thread that starts the application. An interceptor of the client records the
 * thread of every request, whatever its outcome; the test fails if any ran on the distribution thread.
 */
@WithTestCluster
class DistributionThreadIT {

	private static final String DISTRIBUTION_THREAD = "kubeevents-broadcaster";

	private static final String WRITER_THREADS = "kubeevents-writer-";

	private static final int NAMESPACES = 5;

	private static final int PODS_PER_NAMESPACE = 3;

	@ParameterizedTest
	@ValueSource(strings = { "core/v1", "events.k8s.io/v1", "auto" })
	void noRequestRunsOnTheDistributionThread(String api, KubernetesTestCluster cluster) throws Exception {
		CoreV1Api admin = new CoreV1Api(cluster.adminClient());
		ApiClient client = cluster.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);
		String startingThread = Thread.currentThread().getName();
		starter(client, "kubeevents.sink.api=" + api, "kubeevents.sink.deterministic-names=true").run((context) -> {
			assertThat(context).hasNotFailed();
			EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
			EventRecorder recorder = context.getBean(EventRecorder.class);
			int atStartup = http.all().size();
			List<String> namespaces = new ArrayList<>();
			for (int n = 0; n < NAMESPACES; n++) {
				namespaces.add(createNamespace(admin));
			}
			for (String ns : namespaces) {
				for (int p = 0; p < PODS_PER_NAMESPACE; p++) {
					InvolvedObject pod = InvolvedObject.of("Pod", "v1", ns, "web-" + p);
					recorder.about(pod).warning("BackOff", "Back-off restarting failed container");
					// a repeat: a PATCH of the same Event
					recorder.about(pod).warning("BackOff", "Back-off restarting failed container");
				}
			}
			int events = NAMESPACES * PODS_PER_NAMESPACE;
			awaiting().until(() -> broadcaster.stats().writes().created() == events
					&& broadcaster.stats().writes().patched() == events);
			for (String ns : namespaces) {
				assertThat(occurrences(cluster, ns)).as(ns).hasSize(PODS_PER_NAMESPACE)
					.allSatisfy((name, count) -> assertThat(count).as(name).isEqualTo(2));
			}

			List<Exchange> requests = http.all();
			Map<String, Long> byThread = requests.stream()
				.collect(Collectors.groupingBy(Exchange::thread, TreeMap::new, Collectors.counting()));
			List<Exchange> reviews = requests.stream().filter((e) -> ACCESS_REVIEW_PATH.equals(e.path())).toList();
			Map<String, Set<String>> reviewThreadsByNamespace = reviews.stream()
				.collect(Collectors.groupingBy(DistributionThreadIT::reviewedNamespace, TreeMap::new,
						Collectors.mapping(Exchange::thread, Collectors.toCollection(TreeSet::new))));
			Map<String, Long> reviewsByNamespace = reviews.stream()
				.collect(Collectors.groupingBy(DistributionThreadIT::reviewedNamespace, TreeMap::new,
						Collectors.counting()));
			System.err.println("[distribution-thread-it] " + api + ": " + requests.size() + " requests (" + atStartup
					+ " at startup) by thread " + byThread + "; access reviews by namespace " + reviewsByNamespace
					+ ", their threads " + reviewThreadsByNamespace);

			assertThat(requests).as("requests made on the distribution thread")
				.filteredOn((e) -> e.thread().startsWith(DISTRIBUTION_THREAD))
				.isEmpty();
			// every new namespace's RBAC answer was asked, on a writer thread
			assertThat(reviewThreadsByNamespace).containsKeys(namespaces.toArray(String[]::new));
			for (String ns : namespaces) {
				assertThat(reviewThreadsByNamespace.get(ns)).as("threads of the access reviews in %s", ns)
					.allSatisfy((thread) -> assertThat(thread).startsWith(WRITER_THREADS));
			}
			// the rest: the startup checks (the recorder's own namespace; with auto also the cluster-wide one), on the
			// starting thread
			assertThat(reviews).filteredOn((e) -> !namespaces.contains(reviewedNamespace(e)))
				.isNotEmpty()
				.allSatisfy((e) -> assertThat(e.thread()).isEqualTo(startingThread))
				.extracting(DistributionThreadIT::reviewedNamespace)
				.containsOnly(api.equals("auto") ? new String[] { "default", "" } : new String[] { "default" });
			// the Event requests, on writer threads
			assertThat(requests).filteredOn((e) -> e.path().matches(".*/namespaces/[^/]+/events(/[^/]+)?"))
				.hasSizeGreaterThanOrEqualTo(2 * events)
				.allSatisfy((e) -> assertThat(e.thread()).as(e.summary() + " " + e.path()).startsWith(WRITER_THREADS));
			assertThat(snapshot(context).dropped()).isEqualTo(drops());
			assertThat(broadcaster.stats().naming().mode()).isEqualTo("deterministic");
		});
	}

	/** The namespace a SelfSubjectAccessReview asked about. */
	private static String reviewedNamespace(Exchange review) {
		JsonObject attributes = JsonParser.parseString(review.requestBody())
			.getAsJsonObject()
			.getAsJsonObject("spec")
			.getAsJsonObject("resourceAttributes");
		return attributes.get("namespace").getAsString();
	}

	/** The occurrences of each Pod's Events in a namespace, over both APIs (series count, else core/v1 count). */
	private static Map<String, Integer> occurrences(KubernetesTestCluster cluster, String ns) throws ApiException {
		Map<String, Integer> counts = new TreeMap<>();
		new EventsV1Api(cluster.adminClient()).listNamespacedEvent(ns)
			.execute()
			.getItems()
			.forEach((e) -> counts.merge(e.getRegarding().getName(), (e.getSeries() != null) ? e.getSeries().getCount()
					: (e.getDeprecatedCount() != null && e.getDeprecatedCount() > 0) ? e.getDeprecatedCount() : 1,
					Integer::sum));
		return counts;
	}

}
