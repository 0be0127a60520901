package io.github.kubeevents.it;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.RequiresCapability;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import org.springframework.context.ConfigurableApplicationContext;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 8: the shutdown deadline holds whatever the API server does. The API server process is frozen with
 * SIGSTOP, after a connection exists (a request blocks reading) or before (the TLS handshake blocks); closing the
 * application must end within {@code kubeevents.shutdown-timeout} plus about a second, every event lost must be
 * counted as {@code shutdown}, and the last log line must give the exact numbers.
 */
@WithTestCluster(isolated = true)
@RequiresCapability(Capability.FREEZE_API_SERVER)
class ShutdownDeadlineIT {

	private static final Duration TIMEOUT = Duration.ofSeconds(3);

	/** The deadline plus the second the broadcaster gives cancelled threads, plus slack for a busy 2-core machine. */
	private static final Duration BOUND = TIMEOUT.plusSeconds(3);

	private static final Pattern FINAL_LINE = Pattern
		.compile("Kubernetes event recorder stopped: accepted (\\d+), created (\\d+), patched (\\d+), dropped (\\d+) "
				+ "\\{queue_full=(\\d+), spam_filtered=(\\d+), rejected_by_server=(\\d+), retries_exhausted=(\\d+), "
				+ "shutdown=(\\d+), invalid_input=(\\d+)\\}");

	private KubernetesTestCluster cluster;

	private String ns;

	private final ListAppender<ILoggingEvent> log = new ListAppender<>();

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws Exception {
		this.cluster = cluster;
		this.ns = createNamespace(new CoreV1Api(cluster.adminClient()));
		this.log.start();
		((Logger) LoggerFactory.getLogger("io.github.kubeevents.EventCounters")).addAppender(this.log);
	}

	@AfterEach
	void tearDown() {
		((Logger) LoggerFactory.getLogger("io.github.kubeevents.EventCounters")).detachAppender(this.log);
		if (this.cluster.isApiServerFrozen()) {
			this.cluster.thawApiServer();
		}
	}

	@Test
	void deadlineHoldsWhenTheServerFreezesAfterTheHandshake() throws Exception {
		ApiClient client = this.cluster.adminClient();
		starter(client, "kubeevents.sink.api=core/v1", "kubeevents.shutdown-timeout=" + TIMEOUT.toSeconds() + "s")
			.run((context) -> {
				EventRecorder recorder = context.getBean(EventRecorder.class);
				recorder.about(pod("warm-up")).normal("Started", "before the freeze");
				awaiting().until(() -> stats(context).created() == 1);
				this.cluster.freezeApiServer();
				for (int i = 0; i < 20; i++) {
					recorder.about(pod("frozen-" + i)).warning("Failed", "during the freeze #%d", i);
				}
				awaiting().until(() -> context.getBean(EventBroadcaster.class).stats().accepted() == 21);
				Duration took = close(context);
				assertThat(took).isLessThan(BOUND);
			});
		assertFinalLine(21, 1, 20);
	}

	@Test
	void deadlineHoldsWhenTheServerFreezesBeforeTheHandshake() throws Exception {
		ApiClient client = this.cluster.adminClient();
		this.cluster.freezeApiServer();
		starter(client, "kubeevents.sink.api=core/v1", "kubeevents.shutdown-timeout=" + TIMEOUT.toSeconds() + "s")
			.run((context) -> {
				EventRecorder recorder = context.getBean(EventRecorder.class);
				for (int i = 0; i < 20; i++) {
					recorder.about(pod("frozen-" + i)).warning("Failed", "during the freeze #%d", i);
				}
				awaiting().until(() -> context.getBean(EventBroadcaster.class).stats().accepted() == 20);
				Duration took = close(context);
				assertThat(took).isLessThan(BOUND);
			});
		assertFinalLine(20, 0, 20);
	}

	private InvolvedObject pod(String name) {
		return InvolvedObject.of("Pod", "v1", this.ns, name);
	}

	private static RecorderStats.Writes stats(org.springframework.context.ApplicationContext context) {
		return context.getBean(EventBroadcaster.class).stats().writes();
	}

	private static Duration close(ConfigurableApplicationContext context) {
		long start = System.nanoTime();
		context.close();
		return Duration.ofNanos(System.nanoTime() - start);
	}

	/** The last line of the recorder gives every count, and they add up: accepted = created + shutdown drops. */
	private void assertFinalLine(long accepted, long created, long shutdown) {
		List<String> lines = this.log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
		assertThat(lines).filteredOn((line) -> line.startsWith("Kubernetes event recorder stopped")).singleElement()
			.satisfies((line) -> {
				Matcher matcher = FINAL_LINE.matcher(line);
				assertThat(matcher.matches()).as(line).isTrue();
				assertThat(Long.parseLong(matcher.group(1))).isEqualTo(accepted);
				assertThat(Long.parseLong(matcher.group(2))).isEqualTo(created);
				assertThat(Long.parseLong(matcher.group(9))).isEqualTo(shutdown);
				assertThat(Long.parseLong(matcher.group(4))).isEqualTo(shutdown);
			});
		assertThat(EventThreads.alive()).isEmpty();
	}

}
