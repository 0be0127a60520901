package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Termination of plain processes, with {@code sleep} standing in for etcd and kube-apiserver.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class ProcessControlTests {

	@TempDir
	Path tmp;

	/**
	 * {@code ProcessHandle.onExit()} may complete a moment before the JDK has recorded the exit for
	 * {@link Process#isAlive()} (about 1 in 2,000 terminations on an idle machine, more under load); terminate once
	 * checked {@code isAlive()} right after it and so threw "did not exit" for a process that was gone, which left a
	 * closed control plane's etcd running and its directory behind. Many rounds make such a race show.
	 */
	@Test
	void aTerminatedProcessIsNotAliveWhenTerminateReturns() throws IOException {
		for (int i = 0; i < 500; i++) {
			Process p = ProcessControl.launch("sleep", this.tmp.resolve("sleep.log"), List.of("sleep", "1000"));

			ProcessControl.terminate(p, Duration.ofSeconds(5));

			assertThat(p.isAlive()).as("round %d", i).isFalse();
		}
	}

	/**
	 * An interrupted thread (JUnit's {@code @Timeout}, a cancelled task) still waits for the process to exit: before,
	 * the waits returned at once and terminate threw "did not exit" for a process that was being killed, so that
	 * LocalControlPlane.close() never reached etcd.
	 */
	@Test
	void terminateOnAnInterruptedThreadWaitsForTheExitAndKeepsTheInterrupt() throws IOException {
		Path log = this.tmp.resolve("sh.log");
		Process p = ProcessControl.launch("sh", log,
				List.of("sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done"));
		long deadline = Waits.deadline(Duration.ofSeconds(10));
		while (!Files.readString(log).contains("ready")) {
			Waits.pause(deadline, "sh to ignore SIGTERM");
		}
		Thread.currentThread().interrupt();
		try {
			ProcessControl.terminate(p, Duration.ofMillis(500));

			assertThat(Thread.currentThread().isInterrupted()).as("interrupt kept").isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(p.isAlive()).isFalse();
		assertThat(p.exitValue()).as("killed by SIGKILL after the grace period").isEqualTo(128 + 9);
	}

	@Test
	void aProcessIgnoringSigtermIsKilledAfterTheGracePeriod() throws IOException {
		Path log = this.tmp.resolve("sh.log");
		Process p = ProcessControl.launch("sh", log,
				List.of("sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done"));
		long deadline = Waits.deadline(Duration.ofSeconds(10));
		while (!Files.readString(log).contains("ready")) {
			Waits.pause(deadline, "sh to ignore SIGTERM");
		}

		ProcessControl.terminate(p, Duration.ofMillis(500));

		assertThat(p.isAlive()).isFalse();
		assertThat(p.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
	}

}
