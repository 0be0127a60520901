package io.github.kubeevents.it;

import java.time.Duration;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import io.github.kubeevents.test.cluster.RequiresCapability;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 26 item 5, kept by issue 36: no first-burst loss. 10,000 distinct objects' first events are recorded at once
 * while kube-apiserver is frozen (SIGSTOP): the distribution thread never waits for the sink (issue 36), so with the
 * default capacities (an incoming queue of 10,000, a sink backlog of 20,000) it hands every event to the sink's
 * backlog at once; each of the four writer threads holds one request the frozen server does not answer, the rest
 * waits in the backlog, none is dropped as {@code queue_full}, and once the server answers again every event is
 * written.
 */
@WithTestCluster(isolated = true)
@RequiresCapability(Capability.FREEZE_API_SERVER)
class FirstBurstIT {

	private static final int BURST = 10_000;

	private static final int WRITERS = 4;

	private KubernetesTestCluster cluster;

	private String ns;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws Exception {
		this.cluster = cluster;
		this.ns = createNamespace(new CoreV1Api(cluster.adminClient()));
	}

	@AfterEach
	void thaw() {
		if (this.cluster.isApiServerFrozen()) {
			this.cluster.thawApiServer();
		}
	}

	@Test
	void tenThousandDistinctFirstWritesWhileTheServerIsFrozenAreAllWritten() throws Exception {
		ApiClient client = this.cluster.adminClient();
		starter(client, "kubeevents.sink.request-timeout=2s", "kubeevents.sink.retry.sleep=1s").run((context) -> {
			EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
			EventRecorder recorder = context.getBean(EventRecorder.class);
			recorder.about(pod("warm-up")).normal("Started", "before the freeze");
			awaiting().until(() -> broadcaster.stats().writes().created() == 1);

			this.cluster.freezeApiServer();
			long frozenAt = System.nanoTime();
			for (int i = 0; i < BURST; i++) {
				recorder.about(pod("burst-" + i)).normal("Started", "first of burst-%d", i);
			}
			assertThat(broadcaster.stats().accepted()).as("the caller never met a full queue").isEqualTo(1 + BURST);
			// every writer holds one request the frozen server does not answer; the distribution thread hands the
			// rest to the sink's backlog without waiting (unless it was dropped: a backlog too small)
			awaiting().until(() -> sinkDepth(broadcaster) == BURST - WRITERS || queueFull(broadcaster) > 0);
			assertThat(queueFull(broadcaster)).as("while the writers are saturated").isZero();
			// the frozen requests time out and are retried, the backlog still full
			awaiting().until(() -> broadcaster.stats().writes().retried() >= WRITERS);
			RecorderStats frozen = broadcaster.stats();
			int saturatedDepth = sink(frozen).depth();
			assertThat(saturatedDepth).as("in the sink's backlog").isEqualTo(BURST - WRITERS);
			assertThat(frozen.queue().depth()).as("in the incoming queue").isZero();
			assertThat(inFlight(frozen)).as("in flight at the frozen server").isEqualTo(WRITERS);
			assertThat(frozen.totalDropped()).as("dropped").isZero();

			this.cluster.thawApiServer();
			long thawedAt = System.nanoTime();
			awaiting().atMost(Duration.ofMinutes(3))
				.until(() -> broadcaster.stats().writes().created() == 1 + BURST);
			long writtenAt = System.nanoTime();
			RecorderStats stats = broadcaster.stats();
			System.err.println("[first-burst-it] frozen " + millis(thawedAt - frozenAt) + " ms; accepted "
					+ (frozen.accepted() - 1) + " of " + BURST + "; while frozen: " + inFlight(frozen)
					+ " in flight, sink backlog " + saturatedDepth + " of " + sinkCapacity(broadcaster)
					+ ", incoming queue " + frozen.queue().depth() + ", dropped " + frozen.totalDropped() + "; all "
					+ BURST + " written " + millis(writtenAt - thawedAt) + " ms after the thaw; writes "
					+ stats.writes() + "; dropped " + stats.totalDropped());
			assertThat(snapshot(context).dropped()).isEqualTo(drops());
			assertThat(stats.accepted()).as("accepted = written + dropped")
				.isEqualTo(stats.writes().created() + stats.writes().patched());
			assertThat(new CoreV1Api(client).listNamespacedEvent(this.ns).execute().getItems())
				.hasSize(1 + BURST);
		});
	}

	/**
	 * The measure: the server answers every request, 50 ms late (an interceptor of the client). About two
	 * minutes (10,000 requests at 4 × 20 a second), so it runs only with {@code -Dkubeevents.it.slow=true}.
	 */
	@Test
	@EnabledIfSystemProperty(named = "kubeevents.it.slow", matches = "true")
	void tenThousandDistinctFirstWritesToAServerDelayedBy50msPerRequestAreAllWritten() throws Exception {
		ApiClient client = this.cluster.adminClient();
		client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor((chain) -> {
			try {
				// the server's answer delayed, not a timed assertion: the test waits on conditions
				new java.util.concurrent.CountDownLatch(1).await(50, java.util.concurrent.TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new java.io.InterruptedIOException("interrupted while delayed");
			}
			return chain.proceed(chain.request());
		}).build());
		starter(client).run((context) -> {
			EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
			EventRecorder recorder = context.getBean(EventRecorder.class);
			long start = System.nanoTime();
			for (int i = 0; i < BURST; i++) {
				recorder.about(pod("burst-" + i)).normal("Started", "first of burst-%d", i);
			}
			assertThat(broadcaster.stats().accepted()).as("the caller never met a full queue").isEqualTo(BURST);
			int[] maxDepth = new int[1];
			awaiting().atMost(Duration.ofMinutes(6)).until(() -> {
				maxDepth[0] = Math.max(maxDepth[0], sinkDepth(broadcaster));
				return broadcaster.stats().writes().created() == BURST || queueFull(broadcaster) > 0;
			});
			RecorderStats stats = broadcaster.stats();
			System.err.println("[first-burst-it] 50 ms per request: " + stats.writes().created() + " written in "
					+ millis(System.nanoTime() - start) + " ms; sink depth up to " + maxDepth[0] + " of "
					+ sinkCapacity(broadcaster) + "; dropped " + stats.dropped());
			assertThat(snapshot(context).dropped()).isEqualTo(drops());
			assertThat(stats.writes().created()).isEqualTo(BURST);
		});
	}

	private InvolvedObject pod(String name) {
		return InvolvedObject.of("Pod", "v1", this.ns, name);
	}

	private static int sinkDepth(EventBroadcaster broadcaster) {
		return sink(broadcaster).depth();
	}

	/**
	 * Events the writers hold (a request under way, or a retry's sleep): accepted, and neither written, dropped nor
	 * waiting in the sink's backlog or the incoming queue.
	 */
	private static long inFlight(RecorderStats stats) {
		return stats.accepted() - stats.writes().created() - stats.writes().patched() - stats.totalDropped()
				- sink(stats).depth() - stats.queue().depth();
	}

	private static int sinkCapacity(EventBroadcaster broadcaster) {
		return sink(broadcaster).capacity();
	}

	private static RecorderStats.Subscriber sink(EventBroadcaster broadcaster) {
		return sink(broadcaster.stats());
	}

	/** The sink's backlog (every subscriber but the logging handler). */
	private static RecorderStats.Subscriber sink(RecorderStats stats) {
		return stats.subscribers().stream()
			.filter((subscriber) -> !subscriber.name().equals("logging"))
			.findFirst()
			.orElseThrow();
	}

	private static long queueFull(EventBroadcaster broadcaster) {
		return broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag());
	}

	private static long millis(long nanos) {
		return Duration.ofNanos(nanos).toMillis();
	}

}
