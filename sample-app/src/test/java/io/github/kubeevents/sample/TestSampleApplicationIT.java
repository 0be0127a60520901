package io.github.kubeevents.sample;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.DocOutputs;
import io.github.kubeevents.status.EffectiveSink;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.test.cluster.EnvtestAssets;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.connection.TestClusterInstructions;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.DockerClientFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link TestSampleApplication}, the newcomer's dev-time run, in process: it starts its own control plane, the
 * sample accepts an event over HTTP, and the {@code curl} it logged shows the Event the API server stored. Closing
 * the application stops the control plane and deletes the files it wrote. Skipped without local binaries and
 * without Docker (fails under {@code CI=true}, where the binaries are built); needs {@code curl} on the PATH.
 */
@ExtendWith(OutputCaptureExtension.class)
class TestSampleApplicationIT {

	private static final Duration AWAIT = Duration.ofSeconds(60);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@Test
	void devTimeRunWritesARealEventThatTheLoggedCurlShows(CapturedOutput output) throws Exception {
		assumeTrue(isCi() || EnvtestAssets.locate().directory().isPresent() || dockerAvailable(),
				"no local kube-apiserver/etcd and no Docker: " + EnvtestAssets.locate().reason());
		assumeTrue(onPath("curl"), "curl is not on the PATH");
		long started = System.nanoTime();
		SpringApplication.Running running = TestSampleApplication.run("--server.port=0", "--server.address=127.0.0.1");
		ConfigurableApplicationContext context = running.getApplicationContext();
		KubernetesTestCluster cluster;
		TestClusterInstructions instructions;
		try {
			System.err.println("[dev-time-it] control plane + sample ready in "
					+ Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
			cluster = context.getBean(KubernetesTestCluster.class);
			instructions = context.getBean(TestClusterInstructions.class);
			KubeEventsStatus status = context.getBean(KubeEventsStatus.class);
			assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
			assertThat(status.apiServer()).isEqualTo(cluster.baseUrl());
			String eventsCurl = instructions.curl(TestClusterInstructions.EVENTS_V1_PATH);
			assertThat(output.getOut()).contains(eventsCurl)
				.contains(instructions.curl(TestClusterInstructions.CORE_V1_PATH))
				.contains(instructions.kubectl());
			String port = context.getEnvironment().getProperty("local.server.port");
			assertThat(output.getOut()).contains(TestSampleApplication.TryIt.postCommand(port));

			// the control plane is this run's own: the name of docs/testing.md's example is free
			String name = "web-1";
			HttpResponse<String> posted = this.http.send(HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + port + "/events"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("""
						{"kind": "Pod", "apiVersion": "v1", "namespace": "default", "name": "%s",
						 "type": "Warning", "reason": "BackOff", "message": "Back-off restarting failed container"}
						""".formatted(name), StandardCharsets.UTF_8))
				.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);

			JsonObject event = await().atMost(AWAIT)
				.pollInterval(Duration.ofMillis(200))
				.until(() -> find(curl(eventsCurl), name), (found) -> found != null);
			System.err.println("[dev-time-it] first real Event visible "
					+ Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms after the start");
			assertThat(event.get("reason").getAsString()).isEqualTo("BackOff");
			assertThat(event.get("type").getAsString()).isEqualTo("Warning");
			assertThat(event.get("note").getAsString()).isEqualTo("Back-off restarting failed container");
			assertThat(event.get("reportingController").getAsString()).isEqualTo("kube-events-sample");
			assertThat(event.getAsJsonObject("regarding").get("kind").getAsString()).isEqualTo("Pod");

			// docs/testing.md: the same event posted again makes a series (the first repeat is patched at once)
			assertThat(this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/events"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("""
						{"kind": "Pod", "apiVersion": "v1", "namespace": "default", "name": "web-1",
						 "type": "Warning", "reason": "BackOff", "message": "Back-off restarting failed container"}
						""", StandardCharsets.UTF_8))
				.build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(202);
			JsonObject repeated = await().atMost(AWAIT)
				.pollInterval(Duration.ofMillis(200))
				.until(() -> find(curl(eventsCurl), name), (found) -> found.has("series"));
			DocOutputs.check("docs/testing.md", "dev-run-events", """
					curl -sS --cacert "$CA" -H "Authorization: Bearer $TOKEN" "$SERVER/apis/events.k8s.io/v1/namespaces/default/events" \\
					  | jq -c '.items[] | {reason, action, note, regarding: .regarding.name, reportingController, series}'
					# %s
					""".formatted(jqDocsFilter(repeated)));
			CoreV1Api admin = new CoreV1Api(cluster.adminClient());
			assertThat(admin.listNamespacedEvent("default").fieldSelector("involvedObject.name=" + name).execute()
				.getItems()).singleElement().satisfies((coreV1) -> assertThat(coreV1.getReason()).isEqualTo("BackOff"));
		}
		finally {
			context.close();
		}
		assertThat(cluster.isApiServerRunning()).as("control plane stopped with the application").isFalse();
		assertThat(instructions.caFile()).doesNotExist();
		assertThat(instructions.kubeconfigFile()).doesNotExist();
	}

	/**
	 * What docs/testing.md's {@code jq -c '{reason, action, note, regarding: .regarding.name, reportingController,
	 * series}'} prints of one Event (a missing field is {@code null}), with the series' {@code lastObservedTime}
	 * replaced by {@code <time>}.
	 */
	private static String jqDocsFilter(JsonObject event) {
		JsonObject shown = new JsonObject();
		for (String field : List.of("reason", "action", "note")) {
			shown.add(field, event.has(field) ? event.get(field) : JsonNull.INSTANCE);
		}
		shown.add("regarding", event.getAsJsonObject("regarding").get("name"));
		shown.add("reportingController",
				event.has("reportingController") ? event.get("reportingController") : JsonNull.INSTANCE);
		JsonObject series = event.getAsJsonObject("series").deepCopy();
		series.addProperty("lastObservedTime", "<time>");
		shown.add("series", series);
		return new GsonBuilder().serializeNulls().disableHtmlEscaping().create().toJson(shown);
	}

	/** Runs a logged curl command through the shell, as a user would paste it. */
	private static String curl(String command) throws Exception {
		Process process = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
		String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(out).isZero();
		return out;
	}

	private static JsonObject find(String eventList, String name) {
		JsonArray items = JsonParser.parseString(eventList).getAsJsonObject().getAsJsonArray("items");
		for (JsonElement item : items) {
			JsonObject event = item.getAsJsonObject();
			if (name.equals(event.getAsJsonObject("regarding").get("name").getAsString())) {
				return event;
			}
		}
		return null;
	}

	private static boolean onPath(String program) {
		String path = System.getenv("PATH");
		if (path == null) {
			return false;
		}
		for (String dir : path.split(File.pathSeparator)) {
			if (Files.isExecutable(Path.of(dir, program))) {
				return true;
			}
		}
		return false;
	}

	private static boolean isCi() {
		return "true".equalsIgnoreCase(System.getenv("CI"));
	}

	private static boolean dockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (Throwable ex) {
			return false;
		}
	}

}
