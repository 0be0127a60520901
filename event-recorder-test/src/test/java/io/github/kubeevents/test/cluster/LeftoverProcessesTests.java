package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.github.kubeevents.test.cluster.LeftoverProcesses.Report;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leftover clean-up with stand-in processes: copies of {@code sleep} named {@code etcd} / {@code kube-apiserver},
 * so that no control-plane binaries are needed. The real thing (a SIGKILLed JVM that ran a control plane) is in
 * {@code LeftoverCleanupIT}.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class LeftoverProcessesTests {

	@TempDir
	Path tmp;

	private Path stateDir;

	private final List<Process> started = new ArrayList<>();

	@BeforeEach
	void setUp() {
		this.stateDir = this.tmp.resolve("state");
	}

	@AfterEach
	void killStandIns() {
		this.started.forEach(Process::destroyForcibly);
	}

	@Test
	void killsTheProcessesOfADeadJvmAndRemovesTheirDirectory() throws Exception {
		Process etcd = standIn("etcd");
		Process apiServer = standIn("kube-apiserver");
		Path dir = controlPlaneDirectory("kube-events-local-cp-111");
		ProcessHandle deadOwner = deadProcess();
		Path etcdFile = record(etcd.toHandle(), "etcd", deadOwner, dir);
		Path apiFile = record(apiServer.toHandle(), "kube-apiserver", deadOwner, dir);

		Report report = LeftoverProcesses.cleanUp(this.stateDir);

		assertThat(report.killed()).containsExactlyInAnyOrder("etcd pid " + etcd.pid(),
				"kube-apiserver pid " + apiServer.pid());
		assertThat(report.removedDirectories()).containsExactly(dir);
		assertThat(report.staleFiles()).isZero();
		assertThat(etcd.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(apiServer.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(dir).doesNotExist();
		assertThat(etcdFile).doesNotExist();
		assertThat(apiFile).doesNotExist();
	}

	@Test
	void leavesTheProcessesOfALiveJvmAlone() throws Exception {
		Process etcd = standIn("etcd");
		Path dir = controlPlaneDirectory("kube-events-local-cp-222");
		Path file = record(etcd.toHandle(), "etcd", ProcessHandle.current(), dir);

		Report report = LeftoverProcesses.cleanUp(this.stateDir);

		assertThat(report.isEmpty()).isTrue();
		assertThat(etcd.isAlive()).isTrue();
		assertThat(file).exists();
		assertThat(dir).exists();
	}

	@Test
	void neverKillsAPidThatNowRunsAnotherProgram() throws Exception {
		Process sleep = start(List.of("sleep", "300"));
		Path dir = controlPlaneDirectory("kube-events-local-cp-333");
		Path file = PidFile.write(this.stateDir, new PidFile(null, sleep.pid(),
				sleep.info().startInstant(), "etcd", null, deadProcess().pid(), Optional.empty(), dir));

		Report report = LeftoverProcesses.cleanUp(this.stateDir);

		assertThat(report.killed()).isEmpty();
		assertThat(report.staleFiles()).isEqualTo(1);
		assertThat(sleep.isAlive()).isTrue();
		assertThat(file).doesNotExist();
		assertThat(dir).doesNotExist();
	}

	@Test
	void neverKillsAProcessThatStartedAtAnotherTime() throws Exception {
		Process etcd = standIn("etcd");
		Instant otherStart = etcd.info().startInstant().orElseThrow().minus(Duration.ofHours(1));
		Path dir = controlPlaneDirectory("kube-events-local-cp-444");
		PidFile.write(this.stateDir, new PidFile(null, etcd.pid(), Optional.of(otherStart), "etcd",
				etcd.info().command().orElseThrow(), deadProcess().pid(), Optional.empty(), dir));

		Report report = LeftoverProcesses.cleanUp(this.stateDir);

		assertThat(report.killed()).isEmpty();
		assertThat(etcd.isAlive()).isTrue();
	}

	@Test
	void removesFilesOfProcessesThatAreGoneButOnlyOurOwnDirectories() throws Exception {
		ProcessHandle gone = deadProcess();
		Path ours = controlPlaneDirectory("kube-events-local-cp-555");
		Path notOurs = Files.createDirectories(this.tmp.resolve("precious"));
		Path a = PidFile.write(this.stateDir,
				new PidFile(null, gone.pid(), Optional.empty(), "etcd", null, gone.pid(), Optional.empty(), ours));
		Path b = PidFile.write(this.stateDir, new PidFile(null, gone.pid() + 1_000_000, Optional.empty(),
				"kube-apiserver", null, gone.pid(), Optional.empty(), notOurs));
		Path garbage = Files.writeString(this.stateDir.resolve("etcd-1.pid"), "not a pid file");

		Report report = LeftoverProcesses.cleanUp(this.stateDir);

		assertThat(report.killed()).isEmpty();
		assertThat(report.staleFiles()).isEqualTo(3);
		assertThat(report.removedDirectories()).containsExactly(ours);
		assertThat(List.of(a, b, garbage)).allSatisfy((f) -> assertThat(f).doesNotExist());
		assertThat(ours).doesNotExist();
		assertThat(notOurs).exists();
	}

	@Test
	void missingStateDirectoryIsNothingToDo() {
		Report report = LeftoverProcesses.cleanUp(this.tmp.resolve("never-created"));

		assertThat(report.isEmpty()).isTrue();
	}

	@Test
	void registerRecordsThisJvmAsOwner() throws Exception {
		Process etcd = standIn("etcd");
		Path dir = controlPlaneDirectory("kube-events-local-cp-666");

		Path file = LeftoverProcesses.register(this.stateDir, etcd.toHandle(), "etcd", dir);

		PidFile read = PidFile.read(file).orElseThrow();
		assertThat(file.getFileName()).hasToString("etcd-" + etcd.pid() + ".pid");
		assertThat(read.pid()).isEqualTo(etcd.pid());
		assertThat(read.owner()).isEqualTo(ProcessHandle.current().pid());
		assertThat(read.ownerStarted()).isEqualTo(ProcessHandle.current().info().startInstant());
		assertThat(read.started()).isEqualTo(etcd.info().startInstant());
		assertThat(read.executable()).isEqualTo(etcd.info().command().orElseThrow());
		assertThat(read.directory()).isEqualTo(dir.toAbsolutePath());
		LeftoverProcesses.unregister(file);
		assertThat(file).doesNotExist();
	}

	// ------------------------------------------------------------------------------------------------ helpers

	/** A copy of {@code sleep} named like the real binary, sleeping 300 s. */
	private Process standIn(String name) throws IOException {
		Path bin = Files.createDirectories(this.tmp.resolve("bin"));
		Path exe = bin.resolve(name);
		if (!Files.exists(exe)) {
			Files.copy(Path.of(sleepBinary()), exe);
			Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
		}
		return start(List.of(exe.toString(), "300"));
	}

	private Process start(List<String> command) throws IOException {
		Process p = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		this.started.add(p);
		return p;
	}

	/** A process that has exited (its pid and start time stand for a killed test JVM). */
	private ProcessHandle deadProcess() throws Exception {
		Process p = start(List.of("sleep", "300"));
		ProcessHandle h = p.toHandle();
		p.destroyForcibly();
		assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
		return h;
	}

	private Path record(ProcessHandle process, String command, ProcessHandle owner, Path dir) {
		return PidFile.write(this.stateDir, new PidFile(null, process.pid(), process.info().startInstant(),
				command, process.info().command().orElseThrow(), owner.pid(), owner.info().startInstant(), dir));
	}

	private Path controlPlaneDirectory(String name) throws IOException {
		Path dir = Files.createDirectories(this.tmp.resolve(name).resolve("etcd-data"));
		Files.writeString(dir.resolve("member"), "data");
		return dir.getParent();
	}

	private static String sleepBinary() {
		for (String candidate : List.of("/usr/bin/sleep", "/bin/sleep")) {
			if (Files.isExecutable(Path.of(candidate))) {
				return candidate;
			}
		}
		throw new IllegalStateException("no sleep binary");
	}

}
