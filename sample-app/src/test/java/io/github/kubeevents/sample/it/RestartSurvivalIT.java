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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
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

	private static final Duration STARTUP = Duration.ofSeconds(120);

	private static final Duration AWAIT = Duration.ofSeconds(60);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final List<Process> processes = new ArrayList<>();

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
	void stopAll() throws InterruptedException {
		for (Process process : this.processes) {
			process.destroyForcibly();
			process.waitFor(15, TimeUnit.SECONDS);
		}
	}

	@Test
	void coreV1KillNineAfterFiveAndThreeMoreAfterTheRestartIsOneEventOfEight() throws Exception {
		App first = start("core/v1", true, "web-7d9f-aaaaa");
		post(first, 5);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> coreV1Count() == 5);
		first.kill();

		App second = start("core/v1", true, "web-7d9f-bbbbb");
		post(second, 3);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> coreV1Count() == 8);
		List<CoreV1Event> events = this.admin.listNamespacedEvent(this.ns).execute().getItems();
		assertThat(events).singleElement().satisfies((event) -> {
			assertThat(event.getMetadata().getName()).matches("db-0\\.[0-9a-f]{32}");
			assertThat(event.getCount()).isEqualTo(8);
			// the Event shows the instance that created it
			assertThat(event.getSource().getHost()).isEqualTo("web-7d9f-aaaaa");
		});
		JsonObject naming = kubeEvents(second).getAsJsonObject("naming");
		assertThat(naming.get("mode").getAsString()).isEqualTo("deterministic");
		assertThat(naming.get("fallbacks").getAsLong()).isZero();
		second.stop();
		assertThat(coreV1Count()).isEqualTo(8);
	}

	@Test
	void eventsV1KillNineLosesOnlyWhatWasNotWrittenAndTheRestartContinuesTheSeries() throws Exception {
		App first = start("events.k8s.io/v1", true, "web-7d9f-aaaaa");
		post(first, 5);
		// the second occurrence's PATCH wrote series.count 2; the next three are only counted in the cache
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> seriesCount() == 2);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200))
			.until(() -> kubeEvents(first).getAsJsonObject("recorder").get("accepted").getAsLong() == 5);
		first.kill();
		int beforeKill = seriesCount();
		assertThat(beforeKill).isEqualTo(2);

		App second = start("events.k8s.io/v1", true, "web-7d9f-bbbbb");
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
		App first = start("core/v1", false, "web-7d9f-aaaaa");
		post(first, 5);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).until(() -> coreV1Count() == 5);
		first.kill();
		App second = start("core/v1", false, "web-7d9f-bbbbb");
		post(second, 3);
		await().atMost(AWAIT)
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.admin.listNamespacedEvent(this.ns).execute().getItems().size() == 2);
		await().atMost(AWAIT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertThat(
				this.admin.listNamespacedEvent(this.ns).execute().getItems())
			.extracting(CoreV1Event::getCount)
			.containsExactlyInAnyOrder(5, 3));
		assertThat(kubeEvents(second).getAsJsonObject("naming").get("mode").getAsString()).isEqualTo("client-go");
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

	private void post(App app, int times) throws Exception {
		String body = """
				{"kind": "Pod", "apiVersion": "v1", "namespace": "%s", "name": "db-0", "uid": "uid-db-0",
				 "type": "Warning", "reason": "BackOff", "message": "Back-off restarting failed container"}
				""".formatted(this.ns);
		for (int i = 0; i < times; i++) {
			HttpResponse<String> posted = this.http.send(HttpRequest.newBuilder(URI.create(app.base() + "/events"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
				.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
			assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
		}
	}

	private JsonObject kubeEvents(App app) throws IOException, InterruptedException {
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create(app.base() + "/actuator/kubeevents")).timeout(Duration.ofSeconds(5)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return JsonParser.parseString(response.body()).getAsJsonObject();
	}

	/** One sample-app JVM. */
	private final class App {

		private final Process process;

		private final String base;

		private final Path log;

		App(Process process, String base, Path log) {
			this.process = process;
			this.base = base;
			this.log = log;
		}

		String base() {
			return this.base;
		}

		/** SIGKILL: no shutdown hook runs, nothing is flushed. */
		void kill() throws InterruptedException {
			this.process.destroyForcibly();
			assertThat(this.process.waitFor(15, TimeUnit.SECONDS)).isTrue();
			assertThat(this.process.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
		}

		/** SIGTERM: the graceful shutdown writes what is pending. */
		void stop() throws InterruptedException, IOException {
			this.process.destroy();
			assertThat(this.process.waitFor(45, TimeUnit.SECONDS)).as("exits on SIGTERM: %s", Files.readString(this.log))
				.isTrue();
		}

	}

	private App start(String api, boolean deterministicNames, String podName) throws Exception {
		Path jar = Path.of(System.getProperty("sample.jar", "target/sample-app-1.0.0-SNAPSHOT.jar"));
		assertThat(jar).as("the packaged sample app (run 'package' first)").isRegularFile();
		Path dir = Files.createDirectories(this.tmp.resolve(podName));
		Path kubeconfig = this.cp.writeKubeconfig(dir.resolve("kubeconfig.yaml"), Identity.ADMIN);
		Path home = Files.createDirectories(dir.resolve("home"));
		Path log = dir.resolve("sample-app.log");
		int port = freePort();
		ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xmx256m", "-XX:TieredStopAtLevel=1", "-Duser.home=" + home, "-jar", jar.toAbsolutePath().toString(),
				"--server.port=" + port, "--server.address=127.0.0.1", "--kubeevents.kubeconfig.enabled=true",
				"--kubeevents.sink.api=" + api, "--kubeevents.sink.deterministic-names=" + deterministicNames)
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
		Map<String, String> env = builder.environment();
		env.keySet().removeIf((name) -> name.startsWith("KUBERNETES_") || name.startsWith("KUBEEVENTS_"));
		env.put("KUBECONFIG", kubeconfig.toString());
		env.put("HOME", home.toString());
		env.put("POD_NAME", podName);
		Process process = builder.start();
		this.processes.add(process);
		String base = "http://127.0.0.1:" + port;
		await().atMost(STARTUP).pollInterval(Duration.ofMillis(250)).until(() -> {
			assertThat(process.isAlive()).as("sample app exited: %s", Files.readString(log)).isTrue();
			return healthUp(base);
		});
		return new App(process, base, log);
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

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
	}

}
