package io.github.kubeevents.sample.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
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

	private static final Duration STARTUP = Duration.ofSeconds(120);

	private static final Duration AWAIT = Duration.ofSeconds(60);

	private static final String POD_NAME = "sample-it-pod";

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

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
		Path kubeconfig = tmp.resolve("kubeconfig.yaml");
		Path log = tmp.resolve("sample-app.log");
		int port = freePort();
		String base = "http://127.0.0.1:" + port;
		Process app = start(cp, tmp, port, api, log, "--kubeevents.sink.client=" + client);
		boolean passed = false;
		try {
			Instant startedAt = Instant.now();
			await().atMost(STARTUP).pollInterval(Duration.ofMillis(250)).until(() -> {
				assertThat(app.isAlive()).as("sample app exited with %s", app.isAlive() ? "-" : app.exitValue())
					.isTrue();
				return healthUp(base);
			});
			System.err.println("[sample-it] sample app up in " + Duration.between(startedAt, Instant.now()).toMillis()
					+ " ms on port " + port);

			String message = "Reloaded \"app-settings\": feature=on \u2713";
			String body = """
					{"kind": "ConfigMap", "apiVersion": "v1", "namespace": "%s", "name": "app-settings", "uid": "%s",
					 "type": "Normal", "reason": "ConfigReloaded", "message": "Reloaded \\"app-settings\\": feature=on \u2713"}
					""".formatted(ns, uid);
			HttpResponse<String> posted = this.http.send(
					HttpRequest.newBuilder(URI.create(base + "/events"))
						.header("Content-Type", "application/json")
						.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
						.build(),
					HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
			assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
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
				.until(() -> kubeEvents(base), (d) -> stats(d).get("created").getAsLong() == 1);
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
					.isEqualTo("KubernetesClient bean; cluster: kubeconfig " + kubeconfig + " (from $KUBECONFIG)");
				// fabric8 normalises the master URL with a trailing slash
				assertThat(sink.get("apiServer").getAsString()).isEqualTo(cp.baseUrl() + "/");
				assertThat(Files.readString(log)).contains("with the fabric8 client (kubeevents.sink.client=fabric8)");
			}
			else {
				assertThat(sink.get("reason").getAsString()).isEqualTo("kubeconfig " + kubeconfig + " (from $KUBECONFIG)");
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
			stop(app);
			if (!passed) {
				System.err.println("---- sample app log (" + log + ") ----");
				System.err.println(Files.exists(log) ? Files.readString(log) : "(no log)");
				System.err.println("---- end of sample app log ----");
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
		int port = freePort();
		String base = "http://127.0.0.1:" + port;
		Path log = tmp.resolve("sample-app.log");
		Process app = start(cp, tmp, port, "events.k8s.io/v1", log);
		boolean passed = false;
		try {
			await().atMost(STARTUP).pollInterval(Duration.ofMillis(250)).until(() -> {
				assertThat(app.isAlive()).as("sample app exited").isTrue();
				return healthUp(base);
			});
			String body = """
					{"kind": "Pod", "apiVersion": "v1", "namespace": "%s", "name": "db-0", "type": "Warning",
					 "reason": "Unhealthy", "message": "Readiness probe failed"}
					""".formatted(ns);
			for (int i = 0; i < 6; i++) {
				HttpResponse<String> posted = this.http.send(HttpRequest.newBuilder(URI.create(base + "/events"))
					.header("Content-Type", "application/json")
					.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
					.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
				assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
			}
			EventsV1Api events = new EventsV1Api(cp.adminClient());
			await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> seriesCount(events, ns) == 2);
			app.destroy();
			assertThat(app.waitFor(45, TimeUnit.SECONDS)).as("the app exits on SIGTERM").isTrue();
			assertThat(events.listNamespacedEvent(ns).execute().getItems()).singleElement()
				.satisfies((event) -> assertThat(event.getSeries().getCount()).isEqualTo(6));
			assertThat(Files.readString(log)).contains("Kubernetes event recorder stopped: accepted 6, created 1, patched 2");
			passed = true;
		}
		finally {
			stop(app);
			if (!passed) {
				System.err.println("---- sample app log (" + log + ") ----");
				System.err.println(Files.exists(log) ? Files.readString(log) : "(no log)");
				System.err.println("---- end of sample app log ----");
			}
		}
	}

	private static int seriesCount(EventsV1Api events, String ns) throws Exception {
		List<EventsV1Event> stored = events.listNamespacedEvent(ns).execute().getItems();
		return (stored.size() == 1 && stored.get(0).getSeries() != null) ? stored.get(0).getSeries().getCount() : 0;
	}

	/** Starts the packaged sample app against {@code cp} through a kubeconfig, with the given events API. */
	private static Process start(KubernetesTestCluster cp, Path tmp, int port, String api, Path log,
			String... arguments) throws IOException {
		Path jar = Path.of(System.getProperty("sample.jar", "target/sample-app-1.0.0-SNAPSHOT.jar"));
		assertThat(jar).as("the packaged sample app (run 'package' first)").isRegularFile();
		Path kubeconfig = cp.writeKubeconfig(tmp.resolve("kubeconfig.yaml"), Identity.ADMIN);
		Path home = Files.createDirectories(tmp.resolve("home"));
		List<String> command = new java.util.ArrayList<>(List.of(javaExecutable(), "-Xmx256m", "-XX:TieredStopAtLevel=1",
				"-Duser.home=" + home, "-jar", jar.toAbsolutePath().toString(), "--server.port=" + port,
				"--server.address=127.0.0.1", "--kubeevents.kubeconfig.enabled=true", "--kubeevents.sink.api=" + api));
		command.addAll(List.of(arguments));
		ProcessBuilder builder = new ProcessBuilder(command)
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
		Map<String, String> env = builder.environment();
		env.keySet().removeIf((name) -> name.startsWith("KUBERNETES_") || name.startsWith("KUBEEVENTS_"));
		env.put("KUBECONFIG", kubeconfig.toString());
		env.put("HOME", home.toString());
		env.put("POD_NAME", POD_NAME);
		return builder.start();
	}

	private boolean healthUp(String base) {
		try {
			HttpResponse<String> response = this.http.send(
					HttpRequest.newBuilder(URI.create(base + "/actuator/health")).timeout(Duration.ofSeconds(5)).build(),
					HttpResponse.BodyHandlers.ofString());
			return response.statusCode() == 200
					&& "UP".equals(JsonParser.parseString(response.body()).getAsJsonObject().get("status").getAsString());
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private JsonObject kubeEvents(String base) throws IOException, InterruptedException {
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create(base + "/actuator/kubeevents")).timeout(Duration.ofSeconds(5)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return JsonParser.parseString(response.body()).getAsJsonObject();
	}

	private static JsonObject stats(JsonObject descriptor) {
		JsonElement sinks = descriptor.getAsJsonObject("recorder").get("sinks");
		assertThat(sinks.getAsJsonArray()).as("sinks in %s", descriptor).hasSize(1);
		return sinks.getAsJsonArray().get(0).getAsJsonObject().getAsJsonObject("stats");
	}

	/** SIGTERM (graceful shutdown), then SIGKILL if it has not exited in time; always waits for the exit. */
	private static void stop(Process app) throws InterruptedException {
		app.destroy();
		if (!app.waitFor(45, TimeUnit.SECONDS)) {
			app.destroyForcibly();
			app.waitFor(15, TimeUnit.SECONDS);
		}
	}

	private static String javaExecutable() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
	}

}
