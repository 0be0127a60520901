package io.github.kubeevents.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import io.github.kubeevents.CorrelatorOptions;
import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventKeys;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.Subscription;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;

/**
 * The end-to-end write benchmark: records a burst of events through the public API ({@link EventBroadcaster},
 * {@code startRecordingTo(ApiClient)}) against a real kube-apiserver and prints the drain time and the requests
 * sent, for core/v1 Events. The workload is the one of the client-go twin in {@code benchmarks/client-go} (same flags),
 * so the two can
 * be run alternately against the same server:
 * <ul>
 * <li>{@code --objects} Pods, each gets {@code --events / --objects} events; event {@code j} of a Pod has reason
 * {@code j % --reasons} and a message fixed per Pod and reason, so nothing is aggregated and the spam filter
 * (burst 25 per object) passes 25 events per Pod: with the defaults 400 POST + 2,100 PATCH;</li>
 * <li>{@code --threads} producers; producer {@code t} owns Pods {@code t, t+T, ...};</li>
 * <li>a producer waits while {@code --max-in-flight} (900) events are recorded and not yet taken by the sink's
 * correlator, so no queue drops and both implementations see the same events;</li>
 * <li>drain time: from the first {@code eventf} to the end of the last write; round 1 is cold (new JVM code, new
 * connection), later rounds warm;</li>
 * <li>{@code --deterministic-names true} turns on the opt-in names of issue 19; {@code --same-objects true} records
 * about the same Pods in every round, each round with a new broadcaster, so with deterministic names every round
 * after the first is a restart (its first write per stream is CREATE 409, GET, PATCH). GETs are printed apart;
 * {@code writes} counts written events (created + patched), {@code requests} every request.</li>
 * </ul>
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.github.kubeevents.benchmarks.EndToEndWrite \
 *     [--server URL --token T --ca-file F] [--writers 4] [--rounds 3] [--events 10000] [--objects 100] [--threads 4]
 *     [--client official|fabric8|both]
 *     [--deterministic-names true] [--same-objects true]
 * </pre>
 * {@code --client} chooses the client written through: the official one (default), a fabric8
 * {@code KubernetesClient} ({@code event-recorder-fabric8}, JDK HTTP client) for the same server and token, or
 * {@code both}, each round once per client in alternating order (one sitting, one server).
 * Without {@code --server} a local control plane is started from {@code KUBEBUILDER_ASSETS} (or the default
 * cache of {@code scripts/envtest-assets.sh}).
 */
public final class EndToEndWrite {

	private static final String[] REASONS = { "Scheduled", "Pulled", "Created", "Started", "Killing", "BackOff",
			"Unhealthy", "Failed" };

	private EndToEndWrite() {
	}

	public static void main(String[] args) throws Exception {
		HarnessOptions options = new HarnessOptions(args);
		int events = options.getInt("events", 10_000);
		int objects = options.getInt("objects", 100);
		int threads = options.getInt("threads", 4);
		int reasons = options.getInt("reasons", 4);
		int maxInFlight = options.getInt("max-in-flight", 900);
		int rounds = options.getInt("rounds", 1);
		int writers = options.getInt("writers", 4);
		String namespace = options.get("namespace", "default");
		String clientOption = options.get("client", "official");
		boolean deterministicNames = Boolean.parseBoolean(options.get("deterministic-names", "false"));
		// the same Pods every round: with deterministic names each round after the first is a restart
		String sameObjects = Boolean.parseBoolean(options.get("same-objects", "false"))
				? UUID.randomUUID().toString().substring(0, 8) : null;
		LocalControlPlane controlPlane = null;
		ApiClient client;
		KubernetesClient fabric8;
		if (options.has("server")) {
			byte[] ca = Files.readAllBytes(Path.of(options.get("ca-file", null)));
			client = ClientBuilder.standard(false)
				.setBasePath(options.get("server", null))
				.setCertificateAuthority(ca)
				.setAuthentication(new AccessTokenAuthentication(options.get("token", null)))
				.build();
			fabric8 = BenchmarkClients.fabric8(options.get("server", null), ca, options.get("token", null));
		}
		else {
			controlPlane = LocalControlPlane.builder().start();
			client = controlPlane.adminClient();
			fabric8 = BenchmarkClients.fabric8(controlPlane.baseUrl(), controlPlane.caCertificate(),
					controlPlane.adminToken());
		}
		try {
			System.out.printf(Locale.ROOT, "# kube-events %s, core/v1, client=%s writers=%d events=%d objects=%d "
					+ "threads=%d reasons=%d max-in-flight=%d deterministic-names=%s same-objects=%s%n",
					client.getBasePath(), clientOption, writers, events, objects, threads, reasons, maxInFlight,
					deterministicNames, sameObjects != null);
			for (int round = 1; round <= rounds; round++) {
				for (String clientName : clientsOfRound(clientOption, round)) {
					runRound(round, clientName, client, fabric8, writers, namespace, events, objects, threads, reasons,
							maxInFlight, deterministicNames, sameObjects);
				}
			}
		}
		finally {
			fabric8.close();
			if (controlPlane != null) {
				controlPlane.close();
			}
		}
	}

	/** {@code both}: each round runs both clients, the order alternating (official first in odd rounds). */
	private static String[] clientsOfRound(String clientOption, int round) {
		if (!clientOption.equals("both")) {
			return new String[] { clientOption };
		}
		return (round % 2 == 1) ? new String[] { "official", "fabric8" } : new String[] { "fabric8", "official" };
	}

	private static void runRound(int round, String clientName, ApiClient client, KubernetesClient fabric8,
			int writers, String namespace, int events, int objects, int threads, int reasons, int maxInFlight,
			boolean deterministicNames, String sameObjects) throws InterruptedException {
		String run = (sameObjects != null) ? sameObjects : UUID.randomUUID().toString().substring(0, 8);
		Semaphore inFlight = new Semaphore(maxInFlight);
		LongAdder posts = new LongAdder();
		LongAdder patches = new LongAdder();
		LongAdder gets = new LongAdder();
		LongAdder failures = new LongAdder();
		AtomicLong lastWriteEnd = new AtomicLong();
		CorrelatorOptions correlator = CorrelatorOptions.builder().spamKeyFunction((event) -> {
			inFlight.release();
			return EventKeys.spamKey(event);
		}).build();
		// the correlator releases a producer's permit, but unlike client-go's the writes queue behind it: room for
		// the whole burst, so no queue drops whatever the number of writers (the server sets the pace either way)
		EventBroadcaster.Builder builder = EventBroadcaster.builder()
			.subscriberOptions(new Subscription.Options(events, Subscription.FullQueuePolicy.DROP))
			.sinkBacklogCapacity(events)
			.sinkWriters(writers)
			.eventsApi(EventsApi.CORE_V1)
			.correlatorOptions(correlator)
			.deterministicNames(deterministicNames)
			.requestListener((requestApi, verb, result, duration) -> {
				(verb.equals("create") ? posts : verb.equals("get") ? gets : patches).increment();
				if (!result.equals("success")) {
					failures.increment();
				}
				lastWriteEnd.accumulateAndGet(System.nanoTime(), Math::max);
			});
		EventBroadcaster broadcaster = builder.build();
		BenchmarkClients.startRecording(broadcaster, clientName, client, fabric8);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(new EventSource("perf-harness", "perf-host"));
		V1Pod[] pods = new V1Pod[objects];
		for (int i = 0; i < objects; i++) {
			pods[i] = new V1Pod().apiVersion("v1")
				.kind("Pod")
				.metadata(new V1ObjectMeta().name("perf-" + run + "-" + i).namespace(namespace).uid(run + "-uid-" + i));
		}
		int perObject = events / objects;
		long start = System.nanoTime();
		Thread[] producers = new Thread[threads];
		for (int t = 0; t < threads; t++) {
			int first = t;
			producers[t] = new Thread(() -> {
				for (int j = 0; j < perObject; j++) {
					String reason = REASONS[j % reasons];
					for (int i = first; i < objects; i += threads) {
						inFlight.acquireUninterruptibly();
						recorder.eventf(pods[i], EventType.NORMAL, reason, "%s happened to %s", reason,
								pods[i].getMetadata().getName());
					}
				}
			}, "producer-" + t);
			producers[t].start();
		}
		for (Thread producer : producers) {
			producer.join();
		}
		double recorded = (System.nanoTime() - start) / 1e6;
		boolean drained = broadcaster.shutdown(Duration.ofMinutes(10));
		double drain = (lastWriteEnd.get() - start) / 1e6;
		long writes = broadcaster.stats().writes().created() + broadcaster.stats().writes().patched();
		System.out.printf(Locale.ROOT,
				"round=%d client=%s %s drain=%.0fms recorded=%.0fms writes=%d requests=%d POST=%d GET=%d PATCH=%d "
						+ "failed=%d per-write=%.2fms spam_filtered=%d other_drops=%d drained=%s load=%s%n",
				round, clientName, (round == 1) ? "cold" : "warm", drain, recorded, writes,
				posts.sum() + gets.sum() + patches.sum(), posts.sum(), gets.sum(), patches.sum(), failures.sum(),
				drain / Math.max(1, writes), broadcaster.stats().dropped(DropReason.SPAM_FILTERED.tag()),
				broadcaster.stats().dropped().values().stream().mapToLong(Long::longValue).sum()
						- broadcaster.stats().dropped(DropReason.SPAM_FILTERED.tag()),
				drained, HarnessOptions.load());
	}

}
