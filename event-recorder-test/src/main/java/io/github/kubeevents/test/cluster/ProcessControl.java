package io.github.kubeevents.test.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Launching, signalling and terminating the plain processes of a {@link LocalControlPlane}: a process is started with
 * stdout and stderr appended to its log file and stdin from {@code /dev/null}; SIGSTOP / SIGCONT go through
 * {@code kill}, since the JDK has no API for them; termination is SIGTERM to the process and its descendants, SIGKILL
 * after a grace period, and a wait until all of them have exited. Stateless.
 */
final class ProcessControl {

	private ProcessControl() {
	}

	/**
	 * Starts a process.
	 * @param name short name, for the exception message
	 * @param log file that gets stdout and stderr (appended)
	 * @param command the command line
	 * @return the started process
	 * @throws UncheckedIOException when it cannot be started
	 */
	static Process launch(String name, Path log, List<String> command) {
		try {
			return new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not start " + name + " (" + command.get(0) + ")", ex);
		}
	}

	/**
	 * Fails a readiness wait whose process has exited.
	 * @param p the process, or {@code null}
	 * @param name its short name
	 * @throws IllegalStateException when it is {@code null} or no longer alive
	 */
	static void requireAlive(Process p, String name) {
		if (p == null || !p.isAlive()) {
			throw new IllegalStateException(
					name + " exited" + ((p == null) ? "" : " with code " + p.exitValue()) + " before it was ready");
		}
	}

	/**
	 * Sends SIGSTOP/SIGCONT through {@code kill} (the JDK has no API for them).
	 * @param p the process
	 * @param signal the signal's name without {@code SIG}, e.g. {@code STOP}
	 * @throws IllegalStateException when {@code kill} fails
	 */
	static void signal(Process p, String signal) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).redirectErrorStream(true)
				.start();
			String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
			if (!waitFor(kill, Duration.ofSeconds(10).toNanos()) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + p.pid() + " failed: " + output.strip());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not run kill -" + signal, ex);
		}
	}

	/**
	 * SIGTERM to the process and its descendants, SIGKILL after {@code grace}, and wait for all to exit. On return,
	 * {@code p.isAlive()} is {@code false}: the process itself is awaited with {@link Process#waitFor(long, TimeUnit)},
	 * not through its {@link ProcessHandle}, whose {@code onExit()} can complete a moment before the JDK's reaper
	 * thread has recorded the exit, so that {@link Process#isAlive()} still answers {@code true} for a process that is
	 * gone. An interrupt does not cut the waits short (a process left running is worse than a late return): it stays
	 * set for the caller.
	 * @param p the process
	 * @param grace how long SIGTERM may take
	 * @throws IllegalStateException when the process is still alive 10 s after SIGKILL
	 */
	static void terminate(Process p, Duration grace) {
		List<ProcessHandle> descendants = p.descendants().toList();
		descendants.forEach(ProcessHandle::destroy);
		p.toHandle().destroy();
		long deadline = System.nanoTime() + grace.toNanos();
		for (ProcessHandle h : descendants) {
			waitForExit(h, Math.max(0, deadline - System.nanoTime()));
		}
		boolean exited = waitFor(p, Math.max(0, deadline - System.nanoTime()));
		for (ProcessHandle h : descendants) {
			if (h.isAlive()) {
				h.destroyForcibly();
				waitForExit(h, Duration.ofSeconds(10).toNanos());
			}
		}
		if (!exited) {
			p.toHandle().destroyForcibly();
			exited = waitFor(p, Duration.ofSeconds(10).toNanos());
		}
		if (!exited) {
			throw new IllegalStateException("process " + p.pid() + " did not exit");
		}
	}

	/**
	 * SIGKILL to the process and its descendants, and a short wait for the process (for a JVM shutdown hook).
	 * @param p the process
	 */
	static void kill(Process p) {
		p.descendants().forEach(ProcessHandle::destroyForcibly);
		p.destroyForcibly();
		waitForExit(p.toHandle(), Duration.ofSeconds(5).toNanos());
	}

	/**
	 * {@link Process#waitFor(long, TimeUnit)} for the whole time even if the thread is interrupted (the interrupt is
	 * set again before returning).
	 */
	private static boolean waitFor(Process p, long nanos) {
		long deadline = System.nanoTime() + nanos;
		boolean interrupted = false;
		try {
			while (true) {
				try {
					return p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				}
				catch (InterruptedException ex) {
					interrupted = true; // the exception cleared the flag: the next wait blocks
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** Waits for a process handle's exit, for the whole time even if the thread is interrupted (as above). */
	private static void waitForExit(ProcessHandle h, long nanos) {
		long deadline = System.nanoTime() + nanos;
		boolean interrupted = false;
		try {
			while (true) {
				try {
					h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
					return;
				}
				catch (TimeoutException | ExecutionException ex) {
					return; // caller escalates
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
