package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pid files of the processes a {@link LocalControlPlane} starts, and the clean-up after test JVMs that were killed
 * (SIGKILL, a CI timeout) and so could not stop their etcd and kube-apiserver.
 *
 * <p>Each started process gets a {@link PidFile} {@code <state dir>/<command>-<pid>.pid} (pid, start time, command,
 * executable, the owning JVM's pid and start time, and the control plane's temporary directory); it is deleted when
 * the process is stopped. {@link #cleanUp(Path)}, run before every start, looks at the files whose owning JVM is
 * gone: a process that is still alive, started when recorded and still runs the recorded executable is killed; its
 * temporary directory and the pid file are removed. A pid that now belongs to another program is left alone. One log
 * line (WARN) says what was done.
 *
 * <p>Thread-safe; clean-ups are serialised within a JVM and, through a file lock, across JVMs.
 */
final class LeftoverProcesses {

	/** System property overriding the state directory. */
	static final String STATE_DIR_PROPERTY = "kubeevents.test.cluster.state-dir";

	/** Prefix of every control plane's temporary directory; only such directories are ever removed. */
	static final String DIRECTORY_PREFIX = "kube-events-local-cp-";

	private static final Logger logger = LoggerFactory.getLogger(LeftoverProcesses.class);

	/** Start times read in two JVMs can differ by the clock-tick rounding of {@code /proc}. */
	private static final Duration START_TOLERANCE = Duration.ofSeconds(1);

	private static final ReentrantLock LOCK = new ReentrantLock();

	private LeftoverProcesses() {
	}

	/**
	 * What a clean-up did.
	 * @param killed {@code <command> pid <pid>} of every killed process
	 * @param removedDirectories temporary directories removed
	 * @param staleFiles pid files removed whose process was gone or was another program
	 * @param elapsed how long the clean-up took
	 */
	record Report(List<String> killed, List<Path> removedDirectories, int staleFiles, Duration elapsed) {

		boolean isEmpty() {
			return this.killed.isEmpty() && this.removedDirectories.isEmpty() && this.staleFiles == 0;
		}

	}

	/**
	 * {@code -Dkubeevents.test.cluster.state-dir}, else {@code ${java.io.tmpdir}/kube-events-test-cluster}.
	 * @return the directory (not created)
	 */
	static Path defaultStateDirectory() {
		String explicit = System.getProperty(STATE_DIR_PROPERTY);
		if (explicit != null && !explicit.isBlank()) {
			return Paths.get(explicit.strip());
		}
		return Paths.get(System.getProperty("java.io.tmpdir"), "kube-events-test-cluster");
	}

	/**
	 * Writes the pid file of a process this JVM started.
	 * @param stateDir the state directory (created if missing)
	 * @param process the process
	 * @param command its short name ({@code etcd}, {@code kube-apiserver})
	 * @param directory the control plane's temporary directory
	 * @return the pid file, for {@link #unregister(Path)}
	 */
	static Path register(Path stateDir, ProcessHandle process, String command, Path directory) {
		ProcessHandle self = ProcessHandle.current();
		return PidFile.write(stateDir, new PidFile(null, process.pid(), process.info().startInstant(), command,
				process.info().command().orElse(null), self.pid(), self.info().startInstant(),
				directory.toAbsolutePath()));
	}

	/**
	 * Deletes a pid file (its process was stopped).
	 * @param file from {@link #register}, or {@code null}
	 */
	static void unregister(Path file) {
		if (file != null) {
			try {
				Files.deleteIfExists(file);
			}
			catch (IOException ignored) {
				// a stale file is cleaned up by the next start
			}
		}
	}

	/**
	 * Kills leftovers of dead test JVMs recorded in {@code stateDir} and removes their files; logs one WARN line if
	 * there were any.
	 * @param stateDir the state directory (may not exist)
	 * @return what was done
	 */
	static Report cleanUp(Path stateDir) {
		long t0 = System.nanoTime();
		List<String> killed = new ArrayList<>();
		List<Path> removed = new ArrayList<>();
		List<String> owners = new ArrayList<>();
		int stale = 0;
		if (!Files.isDirectory(stateDir)) {
			return new Report(killed, removed, 0, Duration.ofNanos(System.nanoTime() - t0));
		}
		LOCK.lock();
		try (FileChannel channel = FileChannel.open(stateDir.resolve("lock"), StandardOpenOption.CREATE,
				StandardOpenOption.WRITE); FileLock ignored = channel.lock()) {
			List<PidFile> orphans = new ArrayList<>();
			try (DirectoryStream<Path> files = Files.newDirectoryStream(stateDir, "*" + PidFile.SUFFIX)) {
				for (Path file : files) {
					Optional<PidFile> parsed = PidFile.read(file);
					if (parsed.isEmpty()) {
						unregister(file);
						stale++;
					}
					else if (!isAlive(parsed.get().owner(), parsed.get().ownerStarted())) {
						orphans.add(parsed.get());
					}
				}
			}
			for (PidFile orphan : orphans) {
				String owner = Long.toString(orphan.owner());
				if (!owners.contains(owner)) {
					owners.add(owner);
				}
				Optional<ProcessHandle> process = ProcessHandle.of(orphan.pid())
					.filter((h) -> isAlive(orphan.pid(), orphan.started()) && runs(h, orphan));
				if (process.isPresent()) {
					kill(process.get());
					killed.add(orphan.command() + " pid " + orphan.pid());
				}
				else {
					stale++;
				}
				unregister(orphan.file());
			}
			for (PidFile orphan : orphans) {
				Path dir = orphan.directory();
				if (!removed.contains(dir) && Files.isDirectory(dir)
						&& dir.getFileName().toString().startsWith(DIRECTORY_PREFIX)) {
					Files2.deleteRecursively(dir, null);
					removed.add(dir);
				}
			}
		}
		catch (IOException ex) {
			logger.warn("Could not clean up leftover control-plane processes in {}: {}", stateDir, ex.toString());
		}
		finally {
			LOCK.unlock();
		}
		Report report = new Report(List.copyOf(killed), List.copyOf(removed), stale,
				Duration.ofNanos(System.nanoTime() - t0));
		if (!killed.isEmpty() || !removed.isEmpty()) {
			logger.warn("Cleaned up after dead test JVM(s) (pid {}): killed {}; removed {}; {} stale pid file(s) ({} ms)",
					String.join(", ", owners), killed.isEmpty() ? "nothing" : String.join(", ", killed),
					removed.isEmpty() ? "nothing" : removed.stream().map(Path::toString).collect(Collectors.joining(", ")),
					stale, report.elapsed().toMillis());
		}
		return report;
	}

	/** Whether {@code pid} is alive and, if a start time was recorded, is the process that started then. */
	static boolean isAlive(long pid, Optional<Instant> started) {
		Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
		if (h.isEmpty()) {
			return false;
		}
		if (started.isEmpty()) {
			return true;
		}
		Optional<Instant> actual = h.get().info().startInstant();
		return actual.isEmpty()
				|| Duration.between(started.get(), actual.get()).abs().compareTo(START_TOLERANCE) <= 0;
	}

	/** Whether the live process still runs the recorded program (so a reused pid is never killed). */
	private static boolean runs(ProcessHandle h, PidFile recorded) {
		Optional<String> command = h.info().command();
		if (command.isEmpty()) {
			return false;
		}
		String actual = command.get();
		String name = Paths.get(actual).getFileName().toString();
		if (!name.equals(recorded.command())) {
			return false;
		}
		return recorded.executable() == null || recorded.executable().equals(actual);
	}

	private static void kill(ProcessHandle h) {
		// leftovers need no grace: their data is thrown away; SIGKILL also works on a SIGSTOPped (frozen) process
		h.descendants().forEach(ProcessHandle::destroyForcibly);
		h.destroyForcibly();
		// onExit() of a process that is not our child polls every 300+ ms; poll faster
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!hasExited(h)) {
			if (System.nanoTime() - deadline > 0) {
				logger.warn("Leftover process {} did not exit within 10 s of SIGKILL", h.pid());
				return;
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
			if (Thread.currentThread().isInterrupted()) {
				return;
			}
		}
	}

	/**
	 * Whether a process has exited. A zombie counts as exited: a killed orphan stays one until the machine's init
	 * reaps it (about a second in some containers), but it holds no ports, files or memory any more.
	 * @param h the process
	 * @return {@code true} if gone or a zombie
	 */
	static boolean hasExited(ProcessHandle h) {
		return !h.isAlive() || isZombie(h.pid());
	}

	/** Linux: state {@code Z} in {@code /proc/<pid>/stat}; elsewhere always {@code false}. */
	private static boolean isZombie(long pid) {
		try {
			String stat = Files.readString(Paths.get("/proc", Long.toString(pid), "stat"));
			int end = stat.lastIndexOf(')');
			return end > 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'Z';
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

}
