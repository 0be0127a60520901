package io.github.kubeevents.sample.it;

import java.io.File;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One packaged sample-app JVM ({@code java -jar}, system property {@code sample.jar} set by failsafe) against a test
 * cluster, found through {@code $KUBECONFIG} with the admin identity and {@code HOME} a fresh directory (so no other
 * configuration is picked up), on a free loopback port: started and waited for until its health is UP, posted to,
 * read through {@code /actuator/kubeevents}, stopped with SIGTERM or killed with SIGKILL. {@link #close()} always
 * ends the process.
 */
final class SampleAppProcess implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofSeconds(120);

	private static final Duration EXIT = Duration.ofSeconds(45);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final Process process;

	private final String base;

	private final Path log;

	private final Path kubeconfig;

	private SampleAppProcess(Process process, String base, Path log, Path kubeconfig) {
		this.process = process;
		this.base = base;
		this.log = log;
		this.kubeconfig = kubeconfig;
	}

	/**
	 * Starts the app in {@code dir} (its kubeconfig, home and log) and waits until its health is UP.
	 * @param cp the cluster written to
	 * @param dir a directory of this process's own
	 * @param podName the {@code POD_NAME} the app reads as its host; {@code null} for a process with neither
	 * {@code POD_NAME} nor {@code HOSTNAME}, as from a shell
	 * @param arguments more command-line arguments, e.g. {@code --kubeevents.sink.api=core/v1}
	 * @return the running app
	 */
	static SampleAppProcess start(KubernetesTestCluster cp, Path dir, @Nullable String podName, String... arguments)
			throws IOException {
		Path jar = Path.of(System.getProperty("sample.jar", "target/sample-app-1.0.0-SNAPSHOT.jar"));
		assertThat(jar).as("the packaged sample app (run 'package' first)").isRegularFile();
		Files.createDirectories(dir);
		Path kubeconfig = cp.writeKubeconfig(dir.resolve("kubeconfig.yaml"), Identity.ADMIN);
		Path home = Files.createDirectories(dir.resolve("home"));
		Path log = dir.resolve("sample-app.log");
		int port = freePort();
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xmx256m", "-XX:TieredStopAtLevel=1", "-Duser.home=" + home, "-jar", jar.toAbsolutePath().toString(),
				"--server.port=" + port, "--server.address=127.0.0.1", "--kubeevents.kubeconfig.enabled=true"));
		command.addAll(List.of(arguments));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
		Map<String, String> env = builder.environment();
		env.keySet().removeIf((name) -> name.startsWith("KUBERNETES_") || name.startsWith("KUBEEVENTS_"));
		env.put("KUBECONFIG", kubeconfig.toString());
		env.put("HOME", home.toString());
		if (podName != null) {
			env.put("POD_NAME", podName);
		}
		else {
			env.remove("POD_NAME");
			env.remove("HOSTNAME");
		}
		Instant startedAt = Instant.now();
		SampleAppProcess app = new SampleAppProcess(builder.start(), "http://127.0.0.1:" + port, log, kubeconfig);
		try {
			await().atMost(STARTUP).pollInterval(Duration.ofMillis(250)).until(() -> {
				assertThat(app.process.isAlive()).as("sample app exited: %s", app.logText()).isTrue();
				return app.healthUp();
			});
		}
		catch (RuntimeException | Error ex) {
			app.close();
			System.err.println("---- sample app log (did not start) ----\n" + app.logText() + "\n---- end of sample app log ----");
			throw ex;
		}
		System.err.println("[sample-it] sample app up in " + Duration.between(startedAt, Instant.now()).toMillis()
				+ " ms on port " + port);
		return app;
	}

	/** The app's base URL, {@code http://127.0.0.1:<port>}. */
	String base() {
		return this.base;
	}

	/** The kubeconfig the app reads ({@code $KUBECONFIG}). */
	Path kubeconfig() {
		return this.kubeconfig;
	}

	/** Everything the app printed so far, or {@code (no log)}. */
	String logText() throws IOException {
		return Files.exists(this.log) ? Files.readString(this.log) : "(no log)";
	}

	/** POSTs one event's JSON to {@code /events} and asserts it was accepted (202). */
	HttpResponse<String> post(String body) throws IOException, InterruptedException {
		HttpResponse<String> posted = this.http.send(HttpRequest.newBuilder(URI.create(this.base + "/events"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
			.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		assertThat(posted.statusCode()).as(posted.body()).isEqualTo(202);
		return posted;
	}

	/** {@code GET /actuator/kubeevents}, asserted 200. */
	JsonObject kubeEvents() throws IOException, InterruptedException {
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(URI.create(this.base + "/actuator/kubeevents")).timeout(Duration.ofSeconds(5)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return JsonParser.parseString(response.body()).getAsJsonObject();
	}

	/** SIGKILL: no shutdown hook runs, nothing is flushed. */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		assertThat(this.process.waitFor(15, TimeUnit.SECONDS)).isTrue();
		assertThat(this.process.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
	}

	/** SIGTERM, asserting the app exits in time: the graceful shutdown writes what is pending. */
	void stop() throws InterruptedException, IOException {
		this.process.destroy();
		assertThat(this.process.waitFor(EXIT.toSeconds(), TimeUnit.SECONDS)).as("exits on SIGTERM: %s", logText())
			.isTrue();
	}

	/** SIGTERM, then SIGKILL if the app has not exited in time; always waits for the exit. */
	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(EXIT.toSeconds(), TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
				this.process.waitFor(15, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

	private boolean healthUp() {
		try {
			HttpResponse<String> response = this.http.send(
					HttpRequest.newBuilder(URI.create(this.base + "/actuator/health")).timeout(Duration.ofSeconds(5)).build(),
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
