package io.github.kubeevents.test.cluster;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
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
 * "envtest" convention, and builds them when asked: the recipe, kube-events' {@value #SCRIPT}, is packaged in this
 * module's jar, so it runs without a clone of the kube-events repository.
 *
 * <p>Order:
 * <ol>
 *   <li>{@code $KUBEBUILDER_ASSETS} (or system property {@code kubebuilder.assets}): a directory holding both
 *       binaries, used as is (e.g. from {@code setup-envtest}).</li>
 *   <li>The recipe: the repository's {@value #SCRIPT} when found by walking up from {@code user.dir} (inside the
 *       kube-events repository), else the copy packaged in this jar. It is asked for its cache only
 *       ({@code --cached-only}), unless {@code KUBEEVENTS_BUILD_ASSETS=true} or {@code CI=true}, in which case it
 *       builds the binaries from the Go module proxy when missing (a cold build takes many minutes; its progress is
 *       copied to {@code System.err}).</li>
 *   <li>Outside the repository, when the packaged recipe has no build of its pinned versions: any finished build in
 *       its cache, {@code ${XDG_CACHE_HOME:-~/.cache}/kube-events/envtest/<version>/} (marked by its
 *       {@code .complete} file); the newest version wins.</li>
 * </ol>
 *
 * <p>To build or locate the binaries from a shell, with nothing but this module's jar ({@code bash} and, for a
 * build, Go or {@code curl} to fetch it):
 * <pre>
 * java -cp event-recorder-test-&lt;version&gt;.jar io.github.kubeevents.test.cluster.EnvtestAssets [--cached-only]
 * </pre>
 * prints the directory for {@code KUBEBUILDER_ASSETS} (see {@link #main(String[])}).
 *
 * <p>The lookup runs once per JVM ({@link #locate()} caches it). Thread-safe.
 */
public final class EnvtestAssets {

	/** The kube-events repository script that builds and caches the binaries. */
	public static final String SCRIPT = "scripts/envtest-assets.sh";

	/** The copy of {@value #SCRIPT} in this jar, next to this class. */
	static final String PACKAGED_SCRIPT = "envtest-assets.sh";

	private static final long COLD_BUILD_TIMEOUT_MINUTES = 90;

	private static volatile Result cached;

	private EnvtestAssets() {
	}

	/**
	 * Runs the recipe packaged in this jar, as {@value #SCRIPT} would run: builds kube-apiserver and etcd once per
	 * machine (Go from the {@code PATH}, else fetched from the Go module proxy) and prints the directory holding
	 * them on stdout; progress goes to stderr. Without a clone of the repository:
	 * <pre>
	 * export KUBEBUILDER_ASSETS="$(java -cp event-recorder-test-&lt;version&gt;.jar io.github.kubeevents.test.cluster.EnvtestAssets)"
	 * </pre>
	 * Exits with the recipe's status: 0 (printed), 1 (failed), 2 (bad argument), 3 ({@code --cached-only} and not
	 * built yet).
	 * @param args nothing (build if missing), {@code --cached-only} (only print a finished build), or
	 * {@code --help}
	 * @throws IOException when the recipe cannot be extracted or {@code bash} cannot be started
	 * @throws InterruptedException when interrupted while the recipe runs
	 */
	public static void main(String[] args) throws IOException, InterruptedException {
		Path script = extractPackagedScript();
		int status;
		try {
			List<String> command = new ArrayList<>(List.of("bash", script.toString()));
			command.addAll(List.of(args));
			ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
			pb.environment().put("KUBE_EVENTS_RECIPE_COMMAND", recipeCommand());
			status = pb.start().waitFor();
		}
		finally {
			deleteQuietly(script);
		}
		System.exit(status);
	}

	/**
	 * The command that runs the recipe on this machine, for instructions: the repository's script when inside the
	 * kube-events repository, else {@link #main(String[])} with this jar.
	 * @return e.g. {@code java -cp '/home/u/.m2/.../event-recorder-test-1.0.0.jar'
	 * io.github.kubeevents.test.cluster.EnvtestAssets}
	 */
	static String recipeCommand() {
		Optional<Path> script = findScript();
		if (script.isPresent()) {
			return script.get().toString();
		}
		String location;
		try {
			location = Paths.get(EnvtestAssets.class.getProtectionDomain().getCodeSource().getLocation().toURI())
				.toString();
		}
		catch (URISyntaxException | RuntimeException ex) {
			location = "event-recorder-test-<version>.jar";
		}
		return "java -cp '" + location.replace("'", "'\\''") + "' " + EnvtestAssets.class.getName();
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
		boolean build = Availability.isCi() || "true".equalsIgnoreCase(env("KUBEEVENTS_BUILD_ASSETS"));
		Optional<Path> script = findScript();
		if (script.isPresent()) {
			return runScript(script.get(), script.get().toString(), script.get().getParent().getParent(), build);
		}
		Result packaged = runPackagedScript(build);
		if (packaged.directory().isPresent() || build) {
			return packaged;
		}
		Path cache = cacheRoot();
		Optional<Path> complete = completeCacheEntries(cache).findFirst();
		return complete.map(EnvtestAssets::found)
			.orElseGet(() -> new Result(Optional.empty(), "KUBEBUILDER_ASSETS is not set, and " + packaged.reason()));
	}

	/** Runs the copy of the recipe in this jar (outside the kube-events repository). */
	private static Result runPackagedScript(boolean build) {
		Path script;
		try {
			script = extractPackagedScript();
		}
		catch (IOException | RuntimeException ex) {
			return new Result(Optional.empty(), "the recipe packaged in event-recorder-test could not be read: " + ex);
		}
		try {
			return runScript(script, "the recipe packaged in event-recorder-test",
					Paths.get(System.getProperty("user.dir")), build);
		}
		finally {
			deleteQuietly(script);
		}
	}

	/** Copies the packaged recipe to a new temporary file, which the caller deletes. */
	static Path extractPackagedScript() throws IOException {
		try (InputStream in = EnvtestAssets.class.getResourceAsStream(PACKAGED_SCRIPT)) {
			if (in == null) {
				throw new FileNotFoundException(PACKAGED_SCRIPT + " is not next to " + EnvtestAssets.class.getName()
						+ " (a build of event-recorder-test without its resources?)");
			}
			Path file = Files.createTempFile("kube-events-envtest-assets-", ".sh");
			Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
			return file;
		}
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

	/**
	 * Runs a copy of the recipe.
	 * @param script the file to run
	 * @param name how messages call it
	 * @param workingDirectory where it runs
	 * @param build whether it may build (else {@code --cached-only})
	 */
	private static Result runScript(Path script, String name, Path workingDirectory, boolean build) {
		List<String> command = new ArrayList<>(List.of("bash", script.toString()));
		if (!build) {
			command.add("--cached-only");
		}
		else {
			System.err.println("[kube-events-test-cluster] Looking up / building kube-apiserver and etcd with " + name
					+ " (a cold build compiles both from the Go module proxy and can take 10-30 minutes) ...");
		}
		Path stdout = null;
		Path stderr = null;
		try {
			stdout = Files.createTempFile("envtest-assets", ".out");
			stderr = Files.createTempFile("envtest-assets", ".err");
			ProcessBuilder pb = new ProcessBuilder(command).directory(workingDirectory.toFile())
				.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
				.redirectOutput(stdout.toFile())
				.redirectError(ProcessBuilder.Redirect.to(stderr.toFile()));
			pb.environment().remove("KUBEBUILDER_ASSETS");
			pb.environment().put("KUBE_EVENTS_RECIPE_COMMAND", recipeCommand());
			Process p = pb.start();
			Thread echo = build ? echoWhileRunning(stderr, p) : null;
			if (!p.waitFor(build ? COLD_BUILD_TIMEOUT_MINUTES : 1, TimeUnit.MINUTES)) {
				p.descendants().forEach(ProcessHandle::destroyForcibly);
				p.destroyForcibly();
				return new Result(Optional.empty(), name + " timed out");
			}
			int rc = p.exitValue();
			if (echo != null) {
				echo.join(2000);
			}
			if (rc == 3 && !build) {
				return new Result(Optional.empty(), "kube-apiserver and etcd are not built yet (" + name
						+ " --cached-only found no finished build), and neither KUBEEVENTS_BUILD_ASSETS=true nor CI=true is"
						+ " set");
			}
			if (rc != 0) {
				List<String> lines = Files.readAllLines(stderr);
				String err = ": " + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
				return new Result(Optional.empty(), name + " exited with " + rc + err);
			}
			String last = Files.readString(stdout).trim().lines().reduce((a, b) -> b).orElse("");
			Path dir = Paths.get(last);
			String missing = missingBinaries(dir);
			return (missing != null)
					? new Result(Optional.empty(), name + " printed '" + last + "' which lacks " + missing)
					: found(dir);
		}
		catch (IOException ex) {
			return new Result(Optional.empty(), "could not run " + name + ": " + ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return new Result(Optional.empty(), "interrupted while running " + name);
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
