package io.github.kubeevents.test.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real case: a test JVM that started a control plane is SIGKILLed (as a CI timeout or {@code kill -9} does), so
 * its etcd and kube-apiserver keep running as orphans; the next start with the same state directory kills them and
 * removes their directory.
 */
class LeftoverCleanupIT {

	private static final Duration STARTUP = Duration.ofSeconds(120);

	@Test
	void nextStartCleansUpAfterASigkilledTestJvm(@TempDir Path tmp) throws Exception {
		Path assets = EnvtestAssets.locate()
			.directory()
			.orElseGet(() -> Availability.unavailable(TestClusterBackend.LOCAL, EnvtestAssets.locate().reason()));
		Path stateDir = tmp.resolve("state");
		Path out = tmp.resolve("child.out");
		Path err = tmp.resolve("child.err");
		Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"),
				"-D" + LeftoverProcesses.STATE_DIR_PROPERTY + "=" + stateDir, LeftoverChild.class.getName(),
				assets.toString())
			.redirectOutput(out.toFile())
			.redirectError(err.toFile())
			.start();
		long etcdPid;
		long apiServerPid;
		Path childDir;
		try {
			String ready = await().atMost(STARTUP).pollInterval(Duration.ofMillis(200)).until(() -> {
				assertThat(child.isAlive()).as("child JVM alive; stderr: %s", Files.readString(err)).isTrue();
				return Files.readAllLines(out).stream().filter((l) -> l.startsWith("READY ")).findFirst();
			}, Optional::isPresent).orElseThrow();
			String[] parts = ready.split(" ");
			etcdPid = Long.parseLong(parts[1]);
			apiServerPid = Long.parseLong(parts[2]);
			childDir = Path.of(parts[3]);
		}
		finally {
			child.destroyForcibly(); // SIGKILL: no shutdown hook runs
		}
		assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
		// the orphans are still there, as are their files
		assertThat(alive(etcdPid)).isTrue();
		assertThat(alive(apiServerPid)).isTrue();
		Path etcdPidFile = stateDir.resolve("etcd-" + etcdPid + ".pid");
		Path apiServerPidFile = stateDir.resolve("kube-apiserver-" + apiServerPid + ".pid");
		assertThat(List.of(etcdPidFile, apiServerPidFile)).allSatisfy((f) -> assertThat(f).isRegularFile());
		assertThat(childDir).isDirectory();

		long t0 = System.nanoTime();
		try (LocalControlPlane next = LocalControlPlane.builder()
			.assetsDirectory(assets)
			.stateDirectory(stateDir)
			.start()) {
			Duration startWithCleanup = Duration.ofNanos(System.nanoTime() - t0);
			LeftoverProcesses.Report report = next.leftoverReport();
			System.out.println("[leftover-it] clean-up took " + report.elapsed().toMillis() + " ms ("
					+ report.killed() + "), start including it " + startWithCleanup.toMillis() + " ms");

			assertThat(report.killed()).containsExactlyInAnyOrder("etcd pid " + etcdPid,
					"kube-apiserver pid " + apiServerPid);
			assertThat(report.removedDirectories()).containsExactly(childDir);
			await().atMost(Duration.ofSeconds(10)).until(() -> !alive(etcdPid) && !alive(apiServerPid));
			assertThat(childDir).doesNotExist();
			assertThat(etcdPidFile).doesNotExist();
			assertThat(apiServerPidFile).doesNotExist();
			assertThat(Files.list(stateDir).filter((f) -> f.toString().endsWith(".pid")).map((f) -> f.getFileName().toString()))
				.containsExactlyInAnyOrder("etcd-" + next.processes().get(0).pid() + ".pid",
						"kube-apiserver-" + next.processes().get(1).pid() + ".pid");
			assertThat(new CoreV1Api(next.adminClient()).readNamespace("default").execute().getMetadata().getName())
				.isEqualTo("default");
		}
		assertThat(Files.list(stateDir).filter((f) -> f.toString().endsWith(".pid"))).isEmpty();
	}

	/** Alive and not a zombie (killed orphans stay zombies until init reaps them). */
	private static boolean alive(long pid) {
		return ProcessHandle.of(pid).map((h) -> !LeftoverProcesses.hasExited(h)).orElse(false);
	}

}
