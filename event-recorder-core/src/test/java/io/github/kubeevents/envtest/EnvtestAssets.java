package io.github.kubeevents.envtest;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Assumptions;

/**
 * Finds the envtest control-plane binaries ({@code kube-apiserver} and {@code etcd}).
 *
 * <p>Order:
 * <ol>
 *   <li>{@code $KUBEBUILDER_ASSETS} (or system property {@code kubebuilder.assets}): a directory holding both
 *       binaries, used as is.</li>
 *   <li>The repository script {@code scripts/envtest-assets.sh}, found by walking up from {@code user.dir}.
 *       It is asked for its cache only ({@code --cached-only}), unless {@code KUBEEVENTS_BUILD_ASSETS=true} or
 *       {@code CI=true}, in which case it builds the binaries from the Go module proxy when missing (a cold build
 *       takes many minutes; a message is printed).</li>
 * </ol>
 *
 * <p>When nothing is found, {@link #requireOrSkip()} fails under {@code CI=true} and otherwise aborts (skips)
 * the calling test with a message saying how to enable it. The lookup runs once per JVM.
 */
public final class EnvtestAssets {

    /** Name of the repository script that builds/caches the binaries. */
    public static final String SCRIPT = "scripts/envtest-assets.sh";

    private static final long COLD_BUILD_TIMEOUT_MINUTES = 90;

    private static volatile Result cached;
    private static volatile boolean skipAnnounced;

    private EnvtestAssets() {
    }

    /** Outcome of the lookup: a directory, or the reason why there is none. */
    public record Result(Optional<Path> directory, String reason) {
    }

    /** The assets directory, or a reason why there is none (looked up once per JVM). */
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

    /**
     * The assets directory; if there is none, throws {@link IllegalStateException} when {@code CI=true}, else
     * aborts the current test through {@link Assumptions#abort(String)}.
     */
    public static Path requireOrSkip() {
        Result r = locate();
        if (r.directory().isPresent()) {
            return r.directory().get();
        }
        return unavailable(r.reason());
    }

    /** Fails (CI) or skips (elsewhere) with the given reason plus instructions. */
    static <T> T unavailable(String reason) {
        String why = reason.strip();
        why = why.endsWith(".") ? why.substring(0, why.length() - 1) : why;
        String message = "No envtest control plane: " + why + ". To run these tests, set KUBEBUILDER_ASSETS to a "
                + "directory holding kube-apiserver and etcd, or build them once with '" + SCRIPT
                + "' (needs Go; or set KUBEEVENTS_BUILD_ASSETS=true to build from the tests).";
        if (isCi()) {
            throw new IllegalStateException(message + " [CI=true, so this is a failure, not a skip]");
        }
        if (!skipAnnounced) {
            // Surefire/Failsafe count a class aborted in beforeAll as "Tests run: 0": say it once on the console
            skipAnnounced = true;
            System.err.println("[envtest] SKIPPING tests that need a control plane. " + message);
        }
        return Assumptions.abort(message);
    }

    static boolean isCi() {
        return "true".equalsIgnoreCase(env("CI"));
    }

    private static Result doLocate() {
        String explicit = env("KUBEBUILDER_ASSETS");
        if (explicit == null) {
            explicit = System.getProperty("kubebuilder.assets");
        }
        if (explicit != null && !explicit.isBlank()) {
            Path dir = Paths.get(explicit.trim());
            String missing = missingBinaries(dir);
            return missing == null ? found(dir)
                    : new Result(Optional.empty(), "KUBEBUILDER_ASSETS=" + dir + " lacks " + missing);
        }
        Optional<Path> script = findScript();
        if (script.isEmpty()) {
            return new Result(Optional.empty(), "KUBEBUILDER_ASSETS is not set and " + SCRIPT
                    + " was not found above " + System.getProperty("user.dir"));
        }
        boolean build = isCi() || "true".equalsIgnoreCase(env("KUBEEVENTS_BUILD_ASSETS"));
        return runScript(script.get(), build);
    }

    private static Result runScript(Path script, boolean build) {
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        if (!build) {
            command.add("--cached-only");
        } else {
            System.err.println("[envtest] Looking up / building kube-apiserver and etcd with " + script
                    + " (a cold build compiles both from the Go module proxy and can take 10-30 minutes) ...");
        }
        Path stdout = null;
        Path stderr = null;
        try {
            stdout = Files.createTempFile("envtest-assets", ".out");
            stderr = Files.createTempFile("envtest-assets", ".err");
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(script.getParent().getParent().toFile())
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
            return missing == null ? found(dir)
                    : new Result(Optional.empty(), script + " printed '" + last + "' which lacks " + missing);
        } catch (IOException e) {
            return new Result(Optional.empty(), "could not run " + script + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(Optional.empty(), "interrupted while running " + script);
        } finally {
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
                    } else if (p.isAlive()) {
                        try {
                            p.onExit().get(500, TimeUnit.MILLISECONDS);
                        } catch (TimeoutException | ExecutionException still) {
                            // keep following the file
                        }
                    } else {
                        return;
                    }
                }
            } catch (IOException e) {
                // only progress output
            } catch (InterruptedException e) {
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
            } catch (IOException ignored) {
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

    private static String missingBinaries(Path dir) {
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
        return v == null || v.isBlank() ? null : v.trim();
    }
}
