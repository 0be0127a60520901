package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

/**
 * One pid file of {@link LeftoverProcesses}: {@code <state dir>/<command>-<pid>.pid}, a properties file holding the
 * process's pid, start time, command and executable, the owning JVM's pid and start time, and the control plane's
 * temporary directory. Written atomically, so a reader never sees half a file; a file that cannot be parsed reads as
 * empty.
 *
 * <p>Immutable; {@link #write} and {@link #read} may be called from any thread (cross-JVM exclusion is
 * {@link LeftoverProcesses#cleanUp}'s file lock).
 *
 * @param file where it is ({@code null} before it is written)
 * @param pid the process
 * @param started the process's start time, if known
 * @param command short name, also the executable's file name ({@code etcd}, {@code kube-apiserver})
 * @param executable full path of the executable, if known
 * @param owner pid of the JVM that started it
 * @param ownerStarted that JVM's start time, if known
 * @param directory the control plane's temporary directory
 */
record PidFile(Path file, long pid, Optional<Instant> started, String command, String executable, long owner,
		Optional<Instant> ownerStarted, Path directory) {

	/** File name suffix of every pid file. */
	static final String SUFFIX = ".pid";

	/**
	 * Writes a pid file atomically (a reader never sees half a file).
	 * @param stateDir the state directory (created if missing)
	 * @param record what to write ({@link PidFile#file()} is ignored)
	 * @return the file, {@code <command>-<pid>.pid}
	 */
	static Path write(Path stateDir, PidFile record) {
		Properties p = new Properties();
		p.setProperty("pid", Long.toString(record.pid()));
		record.started().ifPresent((i) -> p.setProperty("started", i.toString()));
		p.setProperty("command", record.command());
		if (record.executable() != null) {
			p.setProperty("executable", record.executable());
		}
		p.setProperty("owner", Long.toString(record.owner()));
		record.ownerStarted().ifPresent((i) -> p.setProperty("ownerStarted", i.toString()));
		p.setProperty("directory", record.directory().toString());
		Path file = stateDir.resolve(record.command() + "-" + record.pid() + SUFFIX);
		try {
			Files.createDirectories(stateDir);
			Path tmp = Files.createTempFile(stateDir, record.command() + "-", ".tmp");
			try (Writer w = Files.newBufferedWriter(tmp)) {
				p.store(w, "kube-events LocalControlPlane process; removed when it is stopped");
			}
			try {
				Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			}
			catch (AtomicMoveNotSupportedException ex) {
				Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
			}
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not write pid file " + file, ex);
		}
	}

	/**
	 * Reads a pid file.
	 * @param file the file
	 * @return its content, empty if it cannot be read or parsed
	 */
	static Optional<PidFile> read(Path file) {
		Properties p = new Properties();
		try (Reader r = Files.newBufferedReader(file)) {
			p.load(r);
			return Optional.of(new PidFile(file, Long.parseLong(p.getProperty("pid")), instant(p, "started"),
					p.getProperty("command"), p.getProperty("executable"), Long.parseLong(p.getProperty("owner")),
					instant(p, "ownerStarted"), Paths.get(p.getProperty("directory"))));
		}
		catch (IOException | RuntimeException ex) {
			return Optional.empty();
		}
	}

	private static Optional<Instant> instant(Properties p, String key) {
		String v = p.getProperty(key);
		return (v == null) ? Optional.empty() : Optional.of(Instant.parse(v));
	}

}
