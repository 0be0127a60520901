package io.github.kubeevents.sample.it;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged sample application ({@code java -jar}, system property {@code sample.jar} set by failsafe) against
 * a real kube-apiserver, found through {@code $KUBECONFIG} (with {@code HOME} a fresh directory, so no other
 * configuration is picked up), which a developer opts into with {@code kubeevents.kubeconfig.enabled=true}. With
 * either events API ({@code kubeevents.sink.api}), an event posted to {@code /events} must be stored by the server
 * exactly, and {@code /actuator/kubeevents} must account for it.
 */
@WithTestCluster
class SampleAppJarIT {

	private static final Duration AWAIT = Duration.ofSeconds(60);

	private static final String POD_NAME = "sample-it-pod";

	@ParameterizedTest
	@CsvSource({ "core/v1, official", "events.k8s.io/v1, official", "core/v1, fabric8", "events.k8s.io/v1, fabric8" })
	void packagedAppWritesAnEventThroughKubeconfig(String api, String client, KubernetesTestCluster cp,
			@TempDir Path tmp) throws Exception {
		CoreV1Api admin = new CoreV1Api(cp.adminClient());
		String ns = "it-" + UUID.randomUUID().toString().substring(0, 8);
		admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(ns))).execute();
		V1ConfigMap configMap = admin
			.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("app-settings").namespace(ns))
				.data(Map.of("feature", "on")))
			.execute();
		String uid = configMap.getMetadata().getUid();
		SampleAppProcess app = SampleAppProcess.start(cp, tmp, POD_NAME, "--kubeevents.sink.api=" + api,
				"--kubeevents.sink.client=" + client);
		boolean passed = false;
		try {
			String message = "Reloaded \"app-settings\": feature=on \u2713";
			String body = """
					{"kind": "ConfigMap", "apiVersion": "v1", "namespace": "%s", "name": "app-settings", "uid": "%s",
					 "type": "Normal", "reason": "ConfigReloaded", "message": "Reloaded \\"app-settings\\": feature=on \u2713"}
					""".formatted(ns, uid);
			HttpResponse<String> posted = app.post(body);
			// the message is not echoed, only its size
			assertThat(JsonParser.parseString(posted.body())).isEqualTo(JsonParser.parseString("""
					{"object": "%s/app-settings", "kind": "ConfigMap", "type": "Normal", "reason": "ConfigReloaded",
					 "eventNamespace": "%s", "messageBytes": %d}
					""".formatted(ns, ns, message.getBytes(StandardCharsets.UTF_8).length)));

			V1ObjectReference configMapRef = new V1ObjectReference().kind("ConfigMap")
				.apiVersion("v1")
				.namespace(ns)
				.name("app-settings")
				.uid(uid);
			if (api.equals("core/v1")) {
				List<CoreV1Event> stored = await().atMost(AWAIT)
					.pollInterval(Duration.ofMillis(200))
					.until(() -> admin.listNamespacedEvent(ns).execute().getItems(), (items) -> !items.isEmpty());
				assertThat(stored).hasSize(1);
				CoreV1Event event = stored.get(0);
				assertThat(event.getMetadata().getName()).matches("app-settings\\.[0-9a-f]+");
				assertThat(event.getMetadata().getNamespace()).isEqualTo(ns);
				assertThat(event.getInvolvedObject()).isEqualTo(configMapRef);
				assertThat(event.getType()).isEqualTo("Normal");
				assertThat(event.getReason()).isEqualTo("ConfigReloaded");
				assertThat(event.getMessage()).isEqualTo(message);
				assertThat(event.getCount()).isEqualTo(1);
				assertThat(event.getSource())
					.isEqualTo(new V1EventSource().component("kube-events-sample").host(POD_NAME));
				assertThat(event.getReportingComponent()).isEqualTo("kube-events-sample");
				assertThat(event.getReportingInstance()).isEqualTo(POD_NAME);
				assertThat(event.getFirstTimestamp()).isEqualTo(event.getLastTimestamp());
			}
			else {
				EventsV1Api events = new EventsV1Api(cp.adminClient());
				List<EventsV1Event> stored = await().atMost(AWAIT)
					.pollInterval(Duration.ofMillis(200))
					.until(() -> events.listNamespacedEvent(ns).execute().getItems(), (items) -> !items.isEmpty());
				assertThat(stored).hasSize(1);
				EventsV1Event event = stored.get(0);
				assertThat(event.getMetadata().getName()).matches("app-settings\\.[0-9a-f]+");
				assertThat(event.getRegarding()).isEqualTo(configMapRef);
				assertThat(event.getType()).isEqualTo("Normal");
				assertThat(event.getReason()).isEqualTo("ConfigReloaded");
				assertThat(event.getAction()).isEqualTo("ConfigReloaded");
				assertThat(event.getNote()).isEqualTo(message);
				assertThat(event.getSeries()).isNull();
				assertThat(event.getDeprecatedCount()).isNull();
				assertThat(event.getReportingController()).isEqualTo("kube-events-sample");
				assertThat(event.getReportingInstance()).isEqualTo("kube-events-sample-" + POD_NAME);
				assertThat(event.getEventTime()).isNotNull();
			}

			// the stats are updated just after the write returns: wait for them, then compare exactly
			JsonObject descriptor = await().atMost(AWAIT)
				.pollInterval(Duration.ofMillis(200))
				.until(app::kubeEvents, (d) -> stats(d).get("created").getAsLong() == 1);
			assertThat(descriptor.get("component").getAsString()).isEqualTo("kube-events-sample");
			assertThat(descriptor.get("host").getAsString()).isEqualTo(POD_NAME);
			JsonObject sink = descriptor.getAsJsonObject("sink");
			assertThat(sink.get("configured").getAsString()).isEqualTo("auto");
			JsonObject sinkView = descriptor.getAsJsonObject("recorder").getAsJsonArray("sinks").get(0).getAsJsonObject();
			assertThat(sinkView.get("api").getAsString()).isEqualTo(api);
			assertThat(sinkView.get("apiReason").getAsString()).isEqualTo("configured");
			assertThat(sink.get("effective").getAsString()).isEqualTo("kubernetes");
			assertThat(sink.get("client").getAsString()).isEqualTo(client);
			if (client.equals("fabric8")) {
				// the bean is a client, not a cluster: written through where the official client would write
				assertThat(sink.get("reason").getAsString())
					.isEqualTo("KubernetesClient bean; cluster: kubeconfig " + app.kubeconfig() + " (from $KUBECONFIG)");
				// fabric8 normalises the master URL with a trailing slash
				assertThat(sink.get("apiServer").getAsString()).isEqualTo(cp.baseUrl() + "/");
				assertThat(app.logText()).contains("with the fabric8 client (kubeevents.sink.client=fabric8)");
			}
			else {
				assertThat(sink.get("reason").getAsString()).isEqualTo("kubeconfig " + app.kubeconfig() + " (from $KUBECONFIG)");
				assertThat(sink.get("apiServer").getAsString()).isEqualTo(cp.baseUrl());
			}
			assertThat(stats(descriptor)).isEqualTo(
					JsonParser.parseString("{\"created\": 1, \"patched\": 0, \"retried\": 0, \"failed\": 0}"));
			assertThat(descriptor.getAsJsonObject("recorder").getAsJsonObject("dropped")).isEqualTo(JsonParser.parseString(
					"{\"queue_full\": 0, \"spam_filtered\": 0, \"rejected_by_server\": 0, \"retries_exhausted\": 0,"
							+ " \"shutdown\": 0, \"invalid_input\": 0}"));
			passed = true;
		}
		finally {
			app.close();
			if (!passed) {
				System.err.println("---- sample app log ----\n" + app.logText() + "\n---- end of sample app log ----");
			}
		}
	}

	/**
	 * Issue 38: started as from a shell, with neither {@code POD_NAME} nor {@code HOSTNAME}, and the defaults
	 * ({@code auto}, the readers' shape), a single occurrence is stored with {@code eventTime} and {@code action},
	 * the machine's host name as its instance, and its events.k8s.io/v1 view has both too.
	 */
	@org.junit.jupiter.api.Test
	void aProcessWithoutHostnameWritesTheFirstOccurrenceForEveryReader(KubernetesTestCluster cp, @TempDir Path tmp)
			throws Exception {
		Path kernel = Path.of("/proc/sys/kernel/hostname");
		org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(kernel), "Linux");
		String machine = java.nio.file.Files.readString(kernel).trim();
		CoreV1Api admin = new CoreV1Api(cp.adminClient());
		String ns = "it-" + UUID.randomUUID().toString().substring(0, 8);
		admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(ns))).execute();
		SampleAppProcess app = SampleAppProcess.start(cp, tmp, null);
		boolean passed = false;
		try {
			app.post("""
					{"kind": "Pod", "apiVersion": "v1", "namespace": "%s", "name": "web-1", "uid": "u-1",
					 "type": "Warning", "reason": "BackOff", "message": "Back-off restarting failed container"}
					""".formatted(ns));
			CoreV1Event event = await().atMost(AWAIT)
				.pollInterval(Duration.ofMillis(200))
				.until(() -> admin.listNamespacedEvent(ns).execute().getItems(), (items) -> items.size() == 1)
				.get(0);
			assertThat(event.getSource()).isEqualTo(new V1EventSource().component("kube-events-sample").host(machine));
			assertThat(event.getReportingInstance()).isEqualTo(machine);
			assertThat(event.getAction()).isEqualTo("BackOff");
			assertThat(event.getEventTime()).isNotNull();
			EventsV1Event view = new EventsV1Api(cp.adminClient()).readNamespacedEvent(event.getMetadata().getName(), ns)
				.execute();
			assertThat(view.getAction()).isEqualTo("BackOff");
			assertThat(view.getEventTime()).isEqualTo(event.getEventTime());
			assertThat(view.getReportingInstance()).isEqualTo(machine);
			assertThat(app.logText()).contains("Recording Kubernetes events as component 'kube-events-sample' (host '"
					+ machine + "')");
			passed = true;
		}
		finally {
			app.close();
			if (!passed) {
				System.err.println("---- sample app log ----\n" + app.logText() + "\n---- end of sample app log ----");
			}
		}
	}

	/**
	 * Issue 12 item 4: SIGTERM after six occurrences of one events.k8s.io/v1 event. The server has the series at 2
	 * (the second occurrence's PATCH); the later occurrences only count in the series cache until a heartbeat or the
	 * finish would write them, so the graceful shutdown writes the final count before the process exits.
	 */
	@org.junit.jupiter.api.Test
	void sigtermWritesTheFinalCountOfASeries(KubernetesTestCluster cp, @TempDir Path tmp) throws Exception {
		CoreV1Api admin = new CoreV1Api(cp.adminClient());
		String ns = "it-" + UUID.randomUUID().toString().substring(0, 8);
		admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(ns))).execute();
		SampleAppProcess app = SampleAppProcess.start(cp, tmp, POD_NAME, "--kubeevents.sink.api=events.k8s.io/v1");
		boolean passed = false;
		try {
			String body = """
					{"kind": "Pod", "apiVersion": "v1", "namespace": "%s", "name": "db-0", "type": "Warning",
					 "reason": "Unhealthy", "message": "Readiness probe failed"}
					""".formatted(ns);
			for (int i = 0; i < 6; i++) {
				app.post(body);
			}
			EventsV1Api events = new EventsV1Api(cp.adminClient());
			await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> seriesCount(events, ns) == 2);
			app.stop();
			assertThat(events.listNamespacedEvent(ns).execute().getItems()).singleElement()
				.satisfies((event) -> assertThat(event.getSeries().getCount()).isEqualTo(6));
			assertThat(app.logText()).contains("Kubernetes event recorder stopped: accepted 6, created 1, patched 2");
			passed = true;
		}
		finally {
			app.close();
			if (!passed) {
				System.err.println("---- sample app log ----\n" + app.logText() + "\n---- end of sample app log ----");
			}
		}
	}

	private static int seriesCount(EventsV1Api events, String ns) throws Exception {
		List<EventsV1Event> stored = events.listNamespacedEvent(ns).execute().getItems();
		return (stored.size() == 1 && stored.get(0).getSeries() != null) ? stored.get(0).getSeries().getCount() : 0;
	}

	private static JsonObject stats(JsonObject descriptor) {
		JsonElement sinks = descriptor.getAsJsonObject("recorder").get("sinks");
		assertThat(sinks.getAsJsonArray()).as("sinks in %s", descriptor).hasSize(1);
		return sinks.getAsJsonArray().get(0).getAsJsonObject().getAsJsonObject("stats");
	}

}
