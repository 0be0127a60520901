package io.github.kubeevents.it;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.LogCapture;
import io.github.kubeevents.Subscription;
import io.github.kubeevents.health.KubeEventsHealthIndicator;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import io.github.kubeevents.test.cluster.RequiresCapability;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.CoreV1EventList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ApplicationContext;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.health;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starterWithHealth;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 36 item 2: one stuck API server stalls no one else. kube-apiserver is frozen (SIGSTOP) while 20,000 distinct
 * events (20,000 different Pods) are recorded; the API server sink keeps them in its own backlog (20,000 writes by
 * default), while the logging handler ({@code kubeevents.log-events=true}) and a second sink of the same broadcaster
 * (an in-memory {@link EventSink}) get every one of them while the server is still frozen. Nothing is dropped as
 * {@code queue_full}; after the thaw the stuck sink writes everything, and its accounting is exact: the Events the
 * server holds plus the drops of every reason equal what was accepted. While it is stuck, the health is
 * {@code DEGRADED} (the second sink's written events do not hide it), and {@code UP} once everything is written. The
 * measured numbers are printed with the prefix {@code [sink-isolation-it]}.
 *
 * <p>A control plane of its own: the API server is frozen here.
 */
@WithTestCluster(isolated = true)
@RequiresCapability(Capability.FREEZE_API_SERVER)
class SinkIsolationIT {

	private static final int EVENTS = 20_000;

	/** Events recorded at once, each batch when the incoming queue has room for it. */
	private static final int BATCH = 1000;

	/** The starter's default number of writer threads per sink; each holds one write in flight. */
	private static final int WRITERS = 4;

	/** The "within seconds", with room for a 2-core machine that also runs etcd and kube-apiserver. */
	private static final Duration WITHIN_SECONDS = Duration.ofSeconds(30);

	private static final String EVENT_LOGGER = "io.github.kubeevents.events";

	private static final Pattern OBJECT = Pattern.compile("^Event occurred object=\"([^\"]*)\" ");

	private ItSupport.Fixture it;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws ApiException {
		this.it = ItSupport.Fixture.of(cluster);
	}

	@AfterEach
	void thaw() {
		if (this.it.cluster().isApiServerFrozen()) {
			this.it.cluster().thawApiServer();
		}
	}

	@Test
	void aFrozenApiServerStallsNeitherTheLogNorASecondSinkAndItsAccountingIsExactAfterTheThaw() throws Exception {
		ApiClient client = this.it.cluster().adminClient();
		InMemorySink memory = new InMemorySink();
		try (LogCapture log = LogCapture.of(EVENT_LOGGER, Level.INFO)) {
			// 60 attempts of at least 2 s each: no write is given up while the server is frozen here
			starterWithHealth(client, "kubeevents.log-events=true", "kubeevents.sink.request-timeout=2s",
					"kubeevents.sink.retry.sleep=1s", "kubeevents.sink.retry.max-attempts=60")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
					EventRecorder recorder = context.getBean(EventRecorder.class);
					Subscription second = broadcaster.startRecordingToSink(memory);
					String stuck = sinkNames(context).get(0);
					String inMemory = second.name();
					assertThat(sinkNames(context)).containsExactly(stuck, inMemory);

					recorder.about(pod("warm-up")).normal("Started", "before the freeze");
					awaiting().until(() -> sink(context, stuck).created() == 1 && memory.objects().size() == 1
							&& loggedObjects(log).size() == 1);

					this.it.cluster().freezeApiServer();
					long frozenAt = System.nanoTime();
					for (int batch = 0; batch < EVENTS / BATCH; batch++) {
						// the caller's queue (10,000) is not under test: each batch waits for room there, which comes only
						// as long as the distribution thread goes on
						int recorded = batch * BATCH;
						awaiting().atMost(WITHIN_SECONDS)
							.pollInterval(Duration.ofMillis(1))
							.untilAsserted(() -> assertThat(room(broadcaster))
								.as("room in the incoming queue after %d events recorded; delivered: %d lines logged, %d"
										+ " events in the second sink", recorded, log.lines().size() - 1,
										memory.objects().size() - 1)
								.isGreaterThanOrEqualTo(BATCH));
						for (int i = batch * BATCH; i < (batch + 1) * BATCH; i++) {
							recorder.about(pod("burst-" + i)).normal("Started", "first of burst-%d", i);
						}
					}
					long recordedAt = System.nanoTime();
					assertThat(broadcaster.stats().accepted()).as("the caller met no full queue").isEqualTo(1 + EVENTS);

					// every line and every event of the second sink while the API server is still frozen
					awaiting().atMost(WITHIN_SECONDS)
						.untilAsserted(() -> assertThat(new int[] { loggedObjects(log).size(), memory.objects().size() })
							.as("objects in the Event occurred lines, and in the second sink")
							.containsExactly(1 + EVENTS, 1 + EVENTS));
					long deliveredAt = System.nanoTime();
					assertThat(this.it.cluster().isApiServerFrozen()).isTrue();
					int loggedDuringStall = log.lines().size() - 1;
					int inSecondSinkDuringStall = memory.objects().size() - 1;
					Set<String> expected = expectedObjects();
					assertThat(loggedObjects(log)).isEqualTo(expected);
					assertThat(log.lines()).hasSize(1 + EVENTS);
					assertThat(memory.objects()).isEqualTo(expected);
					assertThat(memory.creates.get()).isEqualTo(1 + EVENTS);
					assertThat(memory.patches.get()).isZero();
					assertThat(sink(context, inMemory)).isEqualTo(new RecorderStats.Writes(1 + EVENTS, 0, 0, 0));
					// the stuck sink wrote nothing since the freeze: every event waits in its backlog, but one in flight
					// per writer
					awaiting().until(() -> subscriber(broadcaster, stuck).depth() == EVENTS - WRITERS);
					RecorderStats frozen = broadcaster.stats();
					RecorderStats.Subscriber backlog = subscriber(broadcaster, stuck);
					assertThat(sink(context, stuck).created()).isEqualTo(1);
					assertThat(backlog.capacity()).isEqualTo(20_000);
					assertThat(frozen.dropped()).isEqualTo(drops());
					assertThat(frozen.subscribers()).allSatisfy((s) -> assertThat(s.dropped()).as(s.name()).isZero());
					// the frozen requests time out and are retried while the backlog stays as it is
					awaiting().until(() -> sink(context, stuck).retried() >= WRITERS);
					assertThat(this.it.cluster().isApiServerFrozen()).isTrue();
					int depthBeforeThaw = subscriber(broadcaster, stuck).depth();
					assertThat(depthBeforeThaw).isEqualTo(EVENTS - WRITERS);
					assertThat(broadcaster.stats().dropped(DropReason.QUEUE_FULL.tag())).isZero();
					// the second sink writing every event does not hide the stuck one from the health
					Health stalled = health(context);
					assertThat(stalled.getStatus().getCode()).isEqualTo(KubeEventsHealthIndicator.DEGRADED_CODE);
					assertThat(stalled.getStatus().getDescription())
						.startsWith("writes to the API server " + hostAndPort(this.it.cluster().baseUrl()) + " fail (");
					assertThat(stalled.getDetails().get("lastFailure")).asString()
						.contains("result=transport_error", "server=" + hostAndPort(this.it.cluster().baseUrl()));

					this.it.cluster().thawApiServer();
					long thawedAt = System.nanoTime();
					awaiting().atMost(Duration.ofMinutes(5))
						.until(() -> accounted(context, stuck) == broadcaster.stats().accepted());
					long writtenAt = System.nanoTime();

					RecorderStats stats = broadcaster.stats();
					RecorderStats.Writes writes = sink(context, stuck);
					List<CoreV1Event> stored = allEvents();
					System.err.println("[sink-isolation-it] " + EVENTS + " distinct events recorded in "
							+ millis(recordedAt - frozenAt) + " ms (in batches of " + BATCH + " as the incoming queue had"
							+ " room) while the API server was frozen; events logged during the stall: " + loggedDuringStall
							+ ", in the second sink: " + inSecondSinkDuringStall + "; time to deliver them: "
							+ millis(deliveredAt - frozenAt)
							+ " ms; stuck sink's backlog " + depthBeforeThaw + " of " + backlog.capacity()
							+ ", queue_full " + stats.dropped(DropReason.QUEUE_FULL.tag()) + "; frozen for "
							+ millis(thawedAt - frozenAt) + " ms; time to write everything after the thaw: "
							+ millis(writtenAt - thawedAt) + " ms; server holds " + stored.size() + " Events; stuck sink "
							+ writes + "; dropped " + stats.dropped() + "; accepted " + stats.accepted());

					long droppedAll = stats.totalDropped();
					assertThat(stats.accepted()).isEqualTo(1 + EVENTS);
					assertThat(stored.size() + droppedAll).as("Events on the server + drops").isEqualTo(stats.accepted());
					assertThat((long) stored.size()).as("every Event on the server counted once as created")
						.isEqualTo(writes.created());
					assertThat(stored).extracting((e) -> e.getInvolvedObject().getName())
						.doesNotHaveDuplicates()
						.allSatisfy((name) -> assertThat(expected).contains(this.it.ns() + "/" + name));
					assertThat(stored).allSatisfy((e) -> assertThat(e.getCount()).isEqualTo(1));
					// with 60 attempts per write nothing had to be given up: everything was written
					assertThat(stats.dropped()).isEqualTo(drops());
					assertThat(writes.created()).isEqualTo(1 + EVENTS);
					assertThat(writes.failed()).isZero();
					assertThat(memory.objects()).hasSize(1 + EVENTS);
					assertThat(health(context).getStatus()).isEqualTo(Status.UP);
				});
		}
	}

	private InvolvedObject pod(String name) {
		return InvolvedObject.of("Pod", "v1", this.it.ns(), name);
	}

	private Set<String> expectedObjects() {
		Set<String> expected = new HashSet<>();
		expected.add(this.it.ns() + "/warm-up");
		IntStream.range(0, EVENTS).forEach((i) -> expected.add(this.it.ns() + "/burst-" + i));
		return expected;
	}

	/** The objects ({@code ns/name}) of the {@code Event occurred} lines captured so far. */
	private static Set<String> loggedObjects(LogCapture log) {
		Set<String> objects = new HashSet<>();
		for (ILoggingEvent line : log.lines()) {
			Matcher matcher = OBJECT.matcher(line.getFormattedMessage());
			if (matcher.find()) {
				objects.add(matcher.group(1));
			}
		}
		return objects;
	}

	/** Free slots in the incoming queue (before the distribution thread). */
	private static int room(EventBroadcaster broadcaster) {
		RecorderStats.Queue queue = broadcaster.stats().queue();
		return queue.capacity() - queue.depth();
	}

	/** The stuck sink's written Events plus every drop: what it has accounted for. */
	private static long accounted(ApplicationContext context, String stuck) {
		RecorderStats stats = context.getBean(EventBroadcaster.class).stats();
		return sink(context, stuck).created() + stats.totalDropped();
	}

	/** Every Event in the test's namespace, read in pages. */
	private List<CoreV1Event> allEvents() throws ApiException {
		List<CoreV1Event> all = new ArrayList<>();
		String next = null;
		do {
			CoreV1EventList page = this.it.admin().listNamespacedEvent(this.it.ns()).limit(5000)._continue(next).execute();
			all.addAll(page.getItems());
			next = (page.getMetadata() != null) ? page.getMetadata().getContinue() : null;
		}
		while (next != null && !next.isEmpty());
		return all;
	}

	private static List<String> sinkNames(ApplicationContext context) {
		return snapshot(context).sinks().stream().map(RecorderSnapshot.SinkSnapshot::name).toList();
	}

	private static RecorderStats.Writes sink(ApplicationContext context, String name) {
		return snapshot(context).sinks()
			.stream()
			.filter((sink) -> sink.name().equals(name))
			.findFirst()
			.orElseThrow()
			.stats();
	}

	private static RecorderStats.Subscriber subscriber(EventBroadcaster broadcaster, String name) {
		return broadcaster.stats()
			.subscribers()
			.stream()
			.filter((subscriber) -> subscriber.name().equals(name))
			.findFirst()
			.orElseThrow();
	}

	private static String hostAndPort(String url) {
		URI uri = URI.create(url);
		return uri.getHost() + ":" + uri.getPort();
	}

	private static long millis(long nanos) {
		return Duration.ofNanos(nanos).toMillis();
	}

	/**
	 * A second sink that writes core/v1 Events into memory: every CREATE stored under its object, every PATCH applied to
	 * the count. Thread-safe.
	 */
	static final class InMemorySink implements EventSink {

		private final Map<String, CoreV1Event> byObject = new ConcurrentHashMap<>();

		final AtomicLong creates = new AtomicLong();

		final AtomicLong patches = new AtomicLong();

		@Override
		public CoreV1Event create(CoreV1Event event) {
			this.creates.incrementAndGet();
			this.byObject.put(key(event), event);
			return event;
		}

		@Override
		public CoreV1Event patch(CoreV1Event event, CountPatch patch) {
			this.patches.incrementAndGet();
			return this.byObject.computeIfPresent(key(event), (key, stored) -> stored.count(patch.count()));
		}

		/** The objects ({@code ns/name}) it holds Events about. */
		Set<String> objects() {
			return Set.copyOf(this.byObject.keySet());
		}

		private static String key(CoreV1Event event) {
			return event.getInvolvedObject().getNamespace() + "/" + event.getInvolvedObject().getName();
		}

	}

}
