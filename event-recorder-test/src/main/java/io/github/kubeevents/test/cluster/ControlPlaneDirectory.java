package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The temporary directory of one {@link LocalControlPlane} ({@code kube-events-local-cp-*}) and where everything in
 * it goes: etcd's data, kube-apiserver's certificate directory, the token file, the service-account key pair, and
 * the log files of both processes, whose tails explain a failed start. Deleting it keeps the logs after a failed
 * start. Immutable (the files in it change).
 *
 * @param root the directory
 * @param etcdData etcd's {@code --data-dir}
 * @param certs kube-apiserver's {@code --cert-dir}
 */
record ControlPlaneDirectory(Path root, Path etcdData, Path certs) {

	private static final int LOG_TAIL_LINES = 40;

	/**
	 * Creates a new temporary directory with its {@code etcd-data} and {@code certs} subdirectories.
	 * @return the directory
	 * @throws IOException when it cannot be created
	 */
	static ControlPlaneDirectory create() throws IOException {
		Path root = Files.createTempDirectory(LeftoverProcesses.DIRECTORY_PREFIX);
		return new ControlPlaneDirectory(root, Files.createDirectory(root.resolve("etcd-data")),
				Files.createDirectory(root.resolve("certs")));
	}

	/**
	 * The {@code --token-auth-file}.
	 * @return {@code tokens.csv}
	 */
	Path tokenFile() {
		return this.root.resolve("tokens.csv");
	}

	/**
	 * The service-account public key ({@code --service-account-key-file}).
	 * @return {@code sa.pub}
	 */
	Path saPublicKey() {
		return this.root.resolve("sa.pub");
	}

	/**
	 * The service-account private key ({@code --service-account-signing-key-file}).
	 * @return {@code sa.key}
	 */
	Path saPrivateKey() {
		return this.root.resolve("sa.key");
	}

	/**
	 * Log file of etcd.
	 * @return {@code etcd.log}
	 */
	Path etcdLog() {
		return this.root.resolve("etcd.log");
	}

	/**
	 * Log file of kube-apiserver (restarts append).
	 * @return {@code kube-apiserver.log}
	 */
	Path apiServerLog() {
		return this.root.resolve("kube-apiserver.log");
	}

	/**
	 * The self-signed serving certificate kube-apiserver writes on its first start.
	 * @return {@code certs/apiserver.crt}
	 */
	Path apiServerCertificate() {
		return this.certs.resolve("apiserver.crt");
	}

	/**
	 * Appends a line to kube-apiserver's log, e.g. to mark a restart; best effort.
	 * @param line the line, without a line break
	 */
	void appendToApiServerLog(String line) {
		try {
			Files.writeString(apiServerLog(), line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
					StandardOpenOption.APPEND);
		}
		catch (IOException ignored) {
			// only a marker
		}
	}

	/**
	 * The last lines of both logs, for the message of a failed start.
	 * @return kube-apiserver's tail, etcd's tail, and the directory
	 */
	String logReport() {
		return "---- tail of " + apiServerLog() + " ----\n" + tail(apiServerLog()) + "---- tail of " + etcdLog()
				+ " ----\n" + tail(etcdLog()) + "(temporary directory " + this.root + ")";
	}

	/** Deletes the directory (best effort, see {@link Files2#deleteRecursively}). */
	void delete() {
		Files2.deleteRecursively(this.root, null);
	}

	/** Deletes everything but the log files (after a failed start, so they can be read). */
	void deleteAllButLogs() {
		Files2.deleteRecursively(this.root, (path) -> path.getFileName().toString().endsWith(".log"));
	}

	private static String tail(Path log) {
		try {
			if (!Files.exists(log)) {
				return "(no log)\n";
			}
			List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
			StringBuilder sb = new StringBuilder();
			lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())
				.forEach((l) -> sb.append(l).append('\n'));
			return sb.toString();
		}
		catch (IOException | UncheckedIOException ex) {
			return "(unreadable: " + ex + ")\n";
		}
	}

}
