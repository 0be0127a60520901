package io.github.kubeevents.test.connection;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.github.kubeevents.test.cluster.EnvtestAssets;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 26 item 3: the dev-time control plane outlives the application that writes to it. A {@code spring-boot:test-run}
 * style JVM ({@link DevRunShutdownChild}, {@link TestClusterDevConfiguration} on local binaries) records three
 * occurrences of one events.k8s.io/v1 Event, so that the server has the series at 2 and the final count waits for
 * the recorder's stop, and exits (JVM shutdown, as on Ctrl-C). The API server must still answer when the context
 * has stopped the recorder: the Event read just before the cluster stops has the series at 3, the stop counted no
 * {@code shutdown} drop (nor does the final log line), and etcd and kube-apiserver are gone afterwards with their
 * directory. Before, the control plane's own shutdown hook killed both processes while Spring Boot's hook was still
 * closing the context: the final PATCH found no API server, and the series stayed at 2 ("Dropped ... (shutdown)").
 *
 * <p>Twice: with Spring Boot's shutdown hook closing the context (the control plane's hook closes it too, which
 * returns at once when the other is closing, and waits), and with {@code spring.main.register-shutdown-hook=false},
 * where nothing else closes the context: the control plane's hook, the last resort, closes it before stopping the
 * processes (before, the context was never closed).
 */
class DevRunShutdownIT {

	private static final Duration RUN = Duration.ofSeconds(180);

	@ParameterizedTest
	@ValueSource(booleans = { true, false })
	void theFinalCountReachesTheServerBeforeTheControlPlaneStops(boolean springShutdownHook, @TempDir Path tmp)
			throws Exception {
		assumeTrue(isCi() || EnvtestAssets.locate().directory().isPresent(),
				"no local kube-apiserver/etcd: " + EnvtestAssets.locate().reason());
		String pod = "db-" + UUID.randomUUID().toString().substring(0, 8);
		Path out = tmp.resolve("child.out");
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
				"-Dkubeevents.test.cluster=local", DevRunShutdownChild.class.getName(),
				"--spring.main.web-application-type=none", "--spring.main.register-shutdown-hook=" + springShutdownHook,
				"--kubeevents.sink.api=events.k8s.io/v1", "--logging.level.io.github.kubeevents=INFO",
				"--" + DevRunShutdownChild.POD_PROPERTY + "=" + pod));
		long started = System.nanoTime();
		Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
		try {
			assertThat(child.waitFor(RUN.toSeconds(), TimeUnit.SECONDS)).as("the child exits").isTrue();
		}
		finally {
			child.destroyForcibly();
		}
		String log = Files.readString(out);
		System.err.println("[dev-run-shutdown-it] spring shutdown hook " + springShutdownHook + ": child ran "
				+ Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
		assertThat(child.exitValue()).as(log).isZero();
		assertThat(log).as(log)
			.contains("RECORDED")
			.contains("DROPPED-AT-STOP 0")
			.contains("SERIES-BEFORE-THE-CLUSTER-STOPPED 3")
			.doesNotContain("(shutdown)");
		if (springShutdownHook) {
			// without it, Spring Boot's logging shutdown (a handler of its JVM hook, which it registers all the same)
			// runs at once, so the broadcaster's last line may not be logged
			assertThat(log).as(log)
				.contains("Kubernetes event recorder stopped: accepted 3, created 1, patched 2, dropped 0 ");
		}
		String[] controlPlane = log.lines()
			.filter((line) -> line.startsWith("CONTROL-PLANE "))
			.findFirst()
			.orElseThrow()
			.split(" ");
		// stopping waits for both processes to exit
		for (int i = 1; i <= 2; i++) {
			assertThat(ProcessHandle.of(Long.parseLong(controlPlane[i])).filter(ProcessHandle::isAlive))
				.as("process %s", controlPlane[i])
				.isEmpty();
		}
		assertThat(Path.of(controlPlane[3])).doesNotExist();
		assertThat(log.indexOf("SERIES-BEFORE-THE-CLUSTER-STOPPED")).isGreaterThan(log.indexOf("RECORDED"));
	}

	private static boolean isCi() {
		return "true".equalsIgnoreCase(System.getenv("CI"));
	}

}
