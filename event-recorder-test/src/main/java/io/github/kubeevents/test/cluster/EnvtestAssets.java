package io.github.kubeevents.test.cluster;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Finds the binaries of {@link LocalControlPlane} ({@code kube-apiserver} and {@code etcd}), the controller-runtime
 * "envtest" convention.
 *
 * <p>Order:
 * <ol>
 *   <li>{@code $KUBEBUILDER_ASSETS} (or system property {@code kubebuilder.assets}): a directory holding both
 *       binaries, used as is (e.g. from {@code setup-envtest}).</li>
 *   <li>The kube-events repository script {@value #SCRIPT}, found by walking up from {@code user.dir}. It is asked
 *       for its cache only ({@code --cached-only}), unless {@code KUBEEVENTS_BUILD_ASSETS=true} or {@code CI=true},
 *       in which case it builds the binaries from the Go module proxy when missing (a cold build takes many
 *       minutes; its progress is copied to {@code System.err}).</li>
 *   <li>Without the script (a project other than kube-events): the script's cache,
 *       {@code ${XDG_CACHE_HOME:-~/.cache}/kube-events/envtest/<version>/}, if a finished build is there (marked
 *       by its {@code .complete} file); the newest version wins.</li>
 * </ol>
 *
 * <p>The lookup runs once per JVM ({@link #locate()} caches it). Thread-safe.
 */
public final class EnvtestAssets {

	/** The kube-events repository script that builds and caches the binaries. */
	public static final String SCRIPT = "scripts/envtest-assets.sh";

	private static final long COLD_BUILD_TIMEOUT_MINUTES = 90;

	private static volatile Result cached;

	private EnvtestAssets() {
	}

	/**
	 * Outcome of the lookup.
	 * @param directory the directory holding both binaries, or empty
	 * @param reason {@code found}, or why there is no directory (for a skip message)
	 */
	public record Result(Optional<Path> directory, String reason) {
	}

	/**
	 * The assets directory, or why there is none; looked up on the first call, then cached for the JVM.
	 * @return the result, never {@code null}
	 */
	public static Result locate() {
		Result r = cached;
		if (r == null) {
			synchronized (EnvtestAssets.class) {
				r = cached;
				if (r == null) {
					r = doLocate();
					cached = r;
				}
			}
		}
		return r;
	}

	private static Result doLocate() {
		String explicit = env("KUBEBUILDER_ASSETS");
		if (explicit == null) {
			explicit = System.getProperty("kubebuilder.assets");
		}
		if (explicit != null && !explicit.isBlank()) {
			Path dir = Paths.get(explicit.trim());
			String missing = missingBinaries(dir);
			return (missing != null) ? new Result(Optional.empty(), "KUBEBUILDER_ASSETS=" + dir + " lacks " + missing)
					: found(dir);
		}
		Optional<Path> script = findScript();
		if (script.isPresent()) {
			boolean build = Availability.isCi() || "true".equalsIgnoreCase(env("KUBEEVENTS_BUILD_ASSETS"));
			return runScript(script.get(), build);
		}
		Path cache = cacheRoot();
		Optional<Path> complete = completeCacheEntries(cache).findFirst();
		return complete.map(EnvtestAssets::found)
			.orElseGet(() -> new Result(Optional.empty(), "KUBEBUILDER_ASSETS is not set, " + SCRIPT
					+ " was not found above " + System.getProperty("user.dir") + ", and " + cache
					+ " holds no finished build"));
	}

	/** {@code ${XDG_CACHE_HOME:-~/.cache}/kube-events/envtest}, as the script computes it. */
	static Path cacheRoot() {
		String xdg = env("XDG_CACHE_HOME");
		Path base = (xdg != null) ? Paths.get(xdg) : Paths.get(System.getProperty("user.home"), ".cache");
		return base.resolve("kube-events").resolve("envtest");
	}

	/** Finished builds under {@code root}, newest version (by directory name) first. */
	static Stream<Path> completeCacheEntries(Path root) {
		if (!Files.isDirectory(root)) {
			return Stream.empty();
		}
		List<Path> entries = new ArrayList<>();
		try (Stream<Path> list = Files.list(root)) {
			list.filter((p) -> Files.isRegularFile(p.resolve(".complete")) && missingBinaries(p) == null)
				.forEach(entries::add);
		}
		catch (IOException ex) {
			return Stream.empty();
		}
		entries.sort(Comparator.comparing((Path p) -> p.getFileName().toString(), EnvtestAssets::compareVersions)
			.reversed());
		return entries.stream();
	}

	/** Compares dotted version-ish names numerically where both parts are numbers. */
	static int compareVersions(String a, String b) {
		String[] pa = a.split("[.-]");
		String[] pb = b.split("[.-]");
		for (int i = 0; i < Math.min(pa.length, pb.length); i++) {
			int c;
			String x = pa[i].replaceAll("\\D", "");
			String y = pb[i].replaceAll("\\D", "");
			if (!x.isEmpty() && !y.isEmpty() && x.length() < 10 && y.length() < 10) {
				c = Integer.compare(Integer.parseInt(x), Integer.parseInt(y));
			}
			else {
				c = pa[i].compareTo(pb[i]);
			}
			if (c != 0) {
				return c;
			}
		}
		return Integer.compare(pa.length, pb.length);
	}

	private static Result runScript(Path script, boolean build) {
		List<String> command = new ArrayList<>(List.of("bash", script.toString()));
		if (!build) {
			command.add("--cached-only");
		}
		else {
			System.err.println("[kube-events-test-cluster] Looking up / building kube-apiserver and etcd with " + script
					+ " (a cold build compiles both from the Go module proxy and can take 10-30 minutes) ...");
		}
		Path stdout = null;
		Path stderr = null;
		try {
			stdout = Files.createTempFile("envtest-assets", ".out");
			stderr = Files.createTempFile("envtest-assets", ".err");
			ProcessBuilder pb = new ProcessBuilder(command).directory(script.getParent().getParent().toFile())
				.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
				.redirectOutput(stdout.toFile())
				.redirectError(ProcessBuilder.Redirect.to(stderr.toFile()));
			pb.environment().remove("KUBEBUILDER_ASSETS");
			Process p = pb.start();
			Thread echo = build ? echoWhileRunning(stderr, p) : null;
			if (!p.waitFor(build ? COLD_BUILD_TIMEOUT_MINUTES : 1, TimeUnit.MINUTES)) {
				p.descendants().forEach(ProcessHandle::destroyForcibly);
				p.destroyForcibly();
				return new Result(Optional.empty(), script + " timed out");
			}
			int rc = p.exitValue();
			if (echo != null) {
				echo.join(2000);
			}
			if (rc == 3 && !build) {
				return new Result(Optional.empty(), "the assets are not built yet (" + script
						+ " --cached-only exited 3) and neither KUBEEVENTS_BUILD_ASSETS=true nor CI=true is set");
			}
			if (rc != 0) {
				List<String> lines = Files.readAllLines(stderr);
				String err = ": " + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
				return new Result(Optional.empty(), script + " exited with " + rc + err);
			}
			String last = Files.readString(stdout).trim().lines().reduce((a, b) -> b).orElse("");
			Path dir = Paths.get(last);
			String missing = missingBinaries(dir);
			return (missing != null)
					? new Result(Optional.empty(), script + " printed '" + last + "' which lacks " + missing)
					: found(dir);
		}
		catch (IOException ex) {
			return new Result(Optional.empty(), "could not run " + script + ": " + ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return new Result(Optional.empty(), "interrupted while running " + script);
		}
		finally {
			deleteQuietly(stdout);
			deleteQuietly(stderr);
		}
	}

	/** Copies the growing stderr file of a (long) build to System.err, so its progress shows in the test log. */
	private static Thread echoWhileRunning(Path file, Process p) {
		Thread t = new Thread(() -> {
			try (BufferedReader r = Files.newBufferedReader(file)) {
				while (true) {
					String line = r.readLine();
					if (line != null) {
						System.err.println(line);
					}
					else if (p.isAlive()) {
						try {
							p.onExit().get(500, TimeUnit.MILLISECONDS);
						}
						catch (TimeoutException | ExecutionException still) {
							// keep following the file
						}
					}
					else {
						return;
					}
				}
			}
			catch (IOException ex) {
				// only progress output
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}, "envtest-assets-build-log");
		t.setDaemon(true);
		t.start();
		return t;
	}

	private static void deleteQuietly(Path file) {
		if (file != null) {
			try {
				Files.deleteIfExists(file);
			}
			catch (IOException ignored) {
				// a leftover temp file is harmless
			}
		}
	}

	private static Result found(Path dir) {
		return new Result(Optional.of(dir.toAbsolutePath().normalize()), "found");
	}

	/** Walks up from {@code user.dir} to the first directory holding {@value #SCRIPT}. */
	static Optional<Path> findScript() {
		Path dir = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
		while (dir != null) {
			Path candidate = dir.resolve(SCRIPT);
			if (Files.isRegularFile(candidate)) {
				return Optional.of(candidate);
			}
			dir = dir.getParent();
		}
		return Optional.empty();
	}

	/** {@code null} when both binaries are executable in {@code dir}, else what is missing. */
	static String missingBinaries(Path dir) {
		List<String> missing = new ArrayList<>();
		for (String binary : List.of("kube-apiserver", "etcd")) {
			if (!Files.isExecutable(dir.resolve(binary))) {
				missing.add(binary);
			}
		}
		return missing.isEmpty() ? null : "an executable " + String.join(" and ", missing);
	}

	private static String env(String name) {
		String v = System.getenv(name);
		return (v == null || v.isBlank()) ? null : v.trim();
	}

}
