package io.github.kubeevents.it;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.ObjectRecorder;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29 items 1 and 2 against a real kube-apiserver, through the starter's properties: the spam filter's Warning
 * lane (a flood of routine Warnings and Normal events about one Pod cannot drop the Warning that matters), and the
 * minimum interval between count updates (a 1,000-repeat burst is one CREATE and one PATCH, the server's count
 * exact, whether the interval ends while the application runs or the application shuts down first).
 */
@WithTestCluster
class ActionableEventsIT {

	private static final int BURST = 1000;

	private KubernetesTestCluster cluster;

	private CoreV1Api admin;

	private String ns;

	private Path kubeconfig;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster, @TempDir Path temp) throws ApiException {
		this.cluster = cluster;
		this.admin = new CoreV1Api(cluster.adminClient());
		this.ns = createNamespace(this.admin);
		this.kubeconfig = cluster.writeKubeconfig(temp.resolve("kubeconfig"), KubernetesTestCluster.Identity.ADMIN);
	}

	private ObjectRecorder pod(EventRecorder recorder) {
		return recorder.about(new InvolvedObject("Pod", "v1", this.ns, "web-0", "uid-web-0", null, null));
	}

	/** 100 Normal events, 40 routine Warnings, then the one that matters, about one Pod. */
	private static void floodThenFailure(ObjectRecorder pod) {
		for (int i = 0; i < 100; i++) {
			pod.normal("Reconciled", "Reconciled successfully");
		}
		for (int i = 0; i < 40; i++) {
			pod.warning("BackOff", "Back-off restarting failed container");
		}
		pod.warning("FailedCreate", "Error creating: quota exceeded");
	}

	private List<String> reasonsAndCounts() throws ApiException {
		return ItSupport.events(this.admin, this.ns).stream()
			.map((event) -> event.getType() + " " + event.getReason() + " x" + event.getCount())
			.sorted()
			.toList();
	}

	@Test
	void withTheWarningLaneTheFailureIsWrittenAfterAFloodOfRoutineEvents() {
		starter(this.cluster.adminClient(), "kubeevents.correlator.spam-filter.warning-lane=true")
			.run((context) -> {
				floodThenFailure(pod(context.getBean(EventRecorder.class)));
				EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
				awaiting().until(() -> reasonsAndCounts().contains("Warning FailedCreate x1")
						&& reasonsAndCounts().contains("Warning BackOff x25")
						&& reasonsAndCounts().contains("Normal Reconciled x25"));
				assertThat(reasonsAndCounts()).containsExactly("Normal Reconciled x25", "Warning BackOff x25",
						"Warning FailedCreate x1");
				assertThat(broadcaster.stats().dropped()).isEqualTo(drops("spam_filtered", 75 + 15));
			});
	}

	@Test
	void withoutTheLaneTheRoutineWarningsUseUpTheBudgetAndTheFailureIsDroppedAsInClientGo() {
		starter(this.cluster.adminClient()).run((context) -> {
			floodThenFailure(pod(context.getBean(EventRecorder.class)));
			EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
			awaiting().until(() -> broadcaster.stats().dropped().get("spam_filtered") == 75 + 15 + 1
					&& broadcaster.stats().writes().equals(new RecorderStats.Writes(2, 48, 0, 0)));
			assertThat(reasonsAndCounts()).containsExactly("Normal Reconciled x25", "Warning BackOff x25");
			assertThat(broadcaster.stats().dropped()).isEqualTo(drops("spam_filtered", 75 + 15 + 1));
		});
	}

	@Test
	void aBurstOfRepeatsIsOneCreateAndOnePatchWhenTheIntervalEndsWithTheExactCount() {
		starter(this.cluster.adminClient(), "kubeevents.correlator.min-update-interval=3s",
				"kubeevents.correlator.spam-filter.enabled=false")
			.run((context) -> {
				ObjectRecorder pod = pod(context.getBean(EventRecorder.class));
				for (int i = 0; i < BURST; i++) {
					pod.warning("BackOff", "Back-off restarting failed container");
				}
				EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
				awaiting().until(() -> broadcaster.stats().writes().patched() == 1);
				assertThat(storedCount()).isEqualTo(BURST);
				assertThat(broadcaster.stats().writes()).isEqualTo(new RecorderStats.Writes(1, 1, 0, 0));
				assertThat(broadcaster.stats().dropped()).isEqualTo(drops());
			});
	}

	@Test
	void aShutdownWithinTheIntervalWritesWhatIsHeld() throws ApiException {
		AtomicReference<EventBroadcaster> broadcaster = new AtomicReference<>();
		starter(this.cluster.adminClient(), "kubeevents.correlator.min-update-interval=10m",
				"kubeevents.correlator.spam-filter.enabled=false")
			.run((context) -> {
				ObjectRecorder pod = pod(context.getBean(EventRecorder.class));
				for (int i = 0; i < BURST; i++) {
					pod.warning("BackOff", "Back-off restarting failed container");
				}
				broadcaster.set(context.getBean(EventBroadcaster.class));
				awaiting().until(() -> broadcaster.get().stats().writes().created() == 1);
				assertThat(storedCount()).isEqualTo(1);
			});
		assertThat(storedCount()).isEqualTo(BURST);
		assertThat(broadcaster.get().stats().writes()).isEqualTo(new RecorderStats.Writes(1, 1, 0, 0));
		assertThat(broadcaster.get().stats().dropped()).isEqualTo(drops());
	}

	@Test
	void withoutTheIntervalEveryRepeatIsAPatchAsInClientGo() {
		starter(this.cluster.adminClient(), "kubeevents.correlator.spam-filter.enabled=false").run((context) -> {
			ObjectRecorder pod = pod(context.getBean(EventRecorder.class));
			for (int i = 0; i < BURST; i++) {
				pod.warning("BackOff", "Back-off restarting failed container");
			}
			EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
			awaiting().until(() -> broadcaster.stats().writes().patched() == BURST - 1);
			assertThat(storedCount()).isEqualTo(BURST);
			assertThat(broadcaster.stats().writes()).isEqualTo(new RecorderStats.Writes(1, BURST - 1, 0, 0));
		});
	}

	/**
	 * What a log pipeline that watches Events receives, with the real OpenTelemetry collector receiver: one log
	 * record per CREATE and per PATCH it sees. The burst of 1,000 repeats, with and without the interval.
	 */
	@Test
	void aLogPipelineReceivesTwoRecordsOfTheBurstWithTheIntervalInsteadOfOneAPatch() throws Exception {
		int withInterval = otelRecordsOfABurst("kubeevents.correlator.min-update-interval=3s", "web-0");
		int without = otelRecordsOfABurst("kubeevents.correlator.min-update-interval=0s", "web-1");
		System.out.printf("ActionableEventsIT: OTel k8seventsreceiver log records for %d repeats: %d with"
				+ " min-update-interval=3s, %d without%n", BURST, withInterval, without);
		assertThat(withInterval).isEqualTo(2);
		// the watch may fold MODIFIED events the receiver has not read yet; far more than 2 reach it either way
		assertThat(without).isGreaterThan(100);
	}

	/** Records a burst about {@code name} and returns the log records the OTel receiver emitted about it. */
	private int otelRecordsOfABurst(String interval, String name) throws Exception {
		try (Readers.OtelReceiver otel = Readers.OtelReceiver.start(this.kubeconfig, this.ns, Duration.ofMinutes(5))) {
			// the receiver drops Events whose (whole-second) time is before its start: the recorder's clock runs 2 s
			// ahead, so that even the first one is after it
			starter(this.cluster.adminClient(), interval, "kubeevents.correlator.spam-filter.enabled=false")
				.withBean(EventBroadcasterCustomizer.class,
						() -> (builder) -> builder.clock(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(2))))
				.run((context) -> {
					ObjectRecorder pod = context.getBean(EventRecorder.class)
						.about(new InvolvedObject("Pod", "v1", this.ns, name, "uid-" + name, null, null));
					for (int i = 0; i < BURST; i++) {
						pod.warning("BackOff", "Back-off restarting failed container");
					}
					awaiting().until(() -> context.getBean(EventBroadcaster.class).stats().writes().created()
							+ context.getBean(EventBroadcaster.class).stats().writes().patched() >= 2
							&& ItSupport.events(this.admin, this.ns).stream()
								.anyMatch((event) -> name.equals(event.getInvolvedObject().getName())
										&& event.getCount() == BURST));
				});
			awaiting().until(() -> Integer.valueOf(BURST).equals(otel.latest(name, "BackOff").count()));
			return (int) otel.records().stream()
				.filter((record) -> name.equals(record.getAsJsonObject("resource").get("k8s.object.name").getAsString()))
				.count();
		}
	}

	private int storedCount() throws ApiException {
		List<CoreV1Event> events = ItSupport.events(this.admin, this.ns);
		assertThat(events).hasSize(1);
		return events.get(0).getCount();
	}

}
