package io.github.kubeevents.sample.it;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.google.gson.JsonObject;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 19: the packaged sample app with {@code --kubeevents.sink.deterministic-names=true}, killed with SIGKILL
 * ({@code kill -9}: no shutdown hook, nothing flushed) while recording, then started again as a new JVM. core/v1:
 * 5 occurrences, kill, 3 more → one Event with count 8. events.k8s.io/v1: the kill loses only what the series cache
 * had not written; after the restart the one Event's series count is the server's count before the kill plus the
 * occurrences after. Without the property, the restarted JVM creates a second Event, as client-go does.
 */
@WithTestCluster
class RestartSurvivalIT {

	private static final Duration AWAIT = Duration.ofSeconds(60);

	private final List<SampleAppProcess> apps = new ArrayList<>();

	private KubernetesTestCluster cp;

	private CoreV1Api admin;

	private String ns;

	@TempDir
	Path tmp;

	@BeforeEach
	void setUp(KubernetesTestCluster cp) throws Exception {
		this.cp = cp;
		this.admin = new CoreV1Api(cp.adminClient());
		this.ns = "it-" + UUID.randomUUID().toString().substring(0, 8);
		this.admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(this.ns))).execute();
	}

	@AfterEach
	void stopAll() {
		this.apps.forEach(SampleAppProcess::close);
	}

	@Test
	void coreV1KillNineAfterFiveAndThreeMoreAfterTheRestartIsOneEventOfEight() throws Exception {
		SampleAppProcess first = start("core/v1", true, "web-7d9f-aaaaa");
		post(first, 5);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> coreV1Count() == 5);
		first.kill();

		SampleAppProcess second = start("core/v1", true, "web-7d9f-bbbbb");
		post(second, 3);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> coreV1Count() == 8);
		List<CoreV1Event> events = this.admin.listNamespacedEvent(this.ns).execute().getItems();
		assertThat(events).singleElement().satisfies((event) -> {
			assertThat(event.getMetadata().getName()).matches("db-0\\.[0-9a-f]{32}");
			assertThat(event.getCount()).isEqualTo(8);
			// the Event shows the instance that created it
			assertThat(event.getSource().getHost()).isEqualTo("web-7d9f-aaaaa");
		});
		JsonObject naming = second.kubeEvents().getAsJsonObject("naming");
		assertThat(naming.get("mode").getAsString()).isEqualTo("deterministic");
		assertThat(naming.get("fallbacks").getAsLong()).isZero();
		second.stop();
		assertThat(coreV1Count()).isEqualTo(8);
	}

	@Test
	void eventsV1KillNineLosesOnlyWhatWasNotWrittenAndTheRestartContinuesTheSeries() throws Exception {
		SampleAppProcess first = start("events.k8s.io/v1", true, "web-7d9f-aaaaa");
		post(first, 5);
		// the second occurrence's PATCH wrote series.count 2; the next three are only counted in the cache
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> seriesCount() == 2);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200))
			.until(() -> first.kubeEvents().getAsJsonObject("recorder").get("accepted").getAsLong() == 5);
		first.kill();
		int beforeKill = seriesCount();
		assertThat(beforeKill).isEqualTo(2);

		SampleAppProcess second = start("events.k8s.io/v1", true, "web-7d9f-bbbbb");
		post(second, 3);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> seriesCount() == beforeKill + 2);
		// a graceful stop writes the third occurrence's count, which only the cache had
		second.stop();
		List<EventsV1Event> events = new EventsV1Api(this.cp.adminClient()).listNamespacedEvent(this.ns)
			.execute()
			.getItems();
		assertThat(events).singleElement().satisfies((event) -> {
			assertThat(event.getMetadata().getName()).matches("db-0\\.[0-9a-f]{32}");
			assertThat(event.getSeries().getCount()).isEqualTo(beforeKill + 3);
		});
	}

	@Test
	void withoutThePropertyTheRestartedJvmCreatesASecondEventAsClientGoDoes() throws Exception {
		SampleAppProcess first = start("core/v1", false, "web-7d9f-aaaaa");
		post(first, 5);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> coreV1Count() == 5);
		first.kill();
		SampleAppProcess second = start("core/v1", false, "web-7d9f-bbbbb");
		post(second, 3);
		await().atMost(AWAIT)
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.admin.listNamespacedEvent(this.ns).execute().getItems().size() == 2);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertThat(
				this.admin.listNamespacedEvent(this.ns).execute().getItems())
			.extracting(CoreV1Event::getCount)
			.containsExactlyInAnyOrder(5, 3));
		assertThat(second.kubeEvents().getAsJsonObject("naming").get("mode").getAsString()).isEqualTo("client-go");
		second.stop();
	}

	private int coreV1Count() throws Exception {
		List<CoreV1Event> events = this.admin.listNamespacedEvent(this.ns).execute().getItems();
		return (events.size() == 1) ? events.get(0).getCount() : -events.size();
	}

	private int seriesCount() throws Exception {
		List<EventsV1Event> stored = new EventsV1Api(this.cp.adminClient()).listNamespacedEvent(this.ns)
			.execute()
			.getItems();
		if (stored.size() != 1) {
			return -stored.size();
		}
		return (stored.get(0).getSeries() != null) ? stored.get(0).getSeries().getCount() : 1;
	}

	private void post(SampleAppProcess app, int times) throws Exception {
		String body = """
				{"kind": "Pod", "apiVersion": "v1", "namespace": "%s", "name": "db-0", "uid": "uid-db-0",
				 "type": "Warning", "reason": "BackOff", "message": "Back-off restarting failed container"}
				""".formatted(this.ns);
		for (int i = 0; i < times; i++) {
			app.post(body);
		}
	}

	private SampleAppProcess start(String api, boolean deterministicNames, String podName) throws Exception {
		SampleAppProcess app = SampleAppProcess.start(this.cp, this.tmp.resolve(podName), podName,
				"--kubeevents.sink.api=" + api, "--kubeevents.sink.deterministic-names=" + deterministicNames);
		this.apps.add(app);
		return app;
	}

}
