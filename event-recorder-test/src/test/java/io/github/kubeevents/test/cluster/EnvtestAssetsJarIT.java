package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The recipe that builds kube-apiserver and etcd, run from the event-recorder-test jar alone, as a user who got the
 * library from Maven runs it: in a directory outside this repository, with a cache directory of its own, and a fake
 * {@code go} on the {@code PATH} that writes stub binaries (the recipe's own steps all run; nothing is compiled).
 * Needs the packaged jar, so it runs in the integration-test phase.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class EnvtestAssetsJarIT {

	private static final String MAIN = EnvtestAssets.class.getName();

	@TempDir
	Path tmp;

	private Path jar;

	private Path workingDirectory;

	private Path cacheHome;

	private Path goLog;

	private Path expectedAssets;

	private final Map<String, String> environment = new HashMap<>(System.getenv());

	@BeforeEach
	void userMachineWithoutTheRepository() throws IOException {
		this.jar = Path.of(System.getProperty("event-recorder-test.jar"));
		assertThat(this.jar).as("the packaged jar (run with failsafe after package)").isRegularFile();
		this.workingDirectory = Files.createDirectories(this.tmp.resolve("my-project"));
		this.cacheHome = Files.createDirectories(this.tmp.resolve("cache"));
		this.goLog = this.tmp.resolve("go.log");
		Path fakeGo = Files.createDirectories(this.tmp.resolve("fake-go-bin"));
		writeFakeGo(fakeGo.resolve("go"));
		this.expectedAssets = this.cacheHome.resolve("kube-events/envtest/1.35.4-etcd3.6.16");
		this.environment.keySet()
			.removeAll(List.of("KUBEBUILDER_ASSETS", "CI", "KUBEEVENTS_BUILD_ASSETS", "KUBE_EVENTS_K8S_VERSION",
					"KUBE_EVENTS_ETCD_VERSION", "GOFLAGS"));
		this.environment.put("XDG_CACHE_HOME", this.cacheHome.toString());
		this.environment.put("PATH", fakeGo + ":" + System.getenv("PATH"));
		this.environment.put("FAKE_GO_LOG", this.goLog.toString());
		this.environment.put("FAKE_GO_DIR", fakeGo.toString());
	}

	@Test
	void theJarCarriesTheRepositorysRecipeUnchanged() throws IOException {
		try (JarFile file = new JarFile(this.jar.toFile());
				InputStream packaged = file.getInputStream(
						file.getEntry("io/github/kubeevents/test/cluster/" + EnvtestAssets.PACKAGED_SCRIPT))) {
			Path repositoryScript = EnvtestAssets.findScript().orElseThrow();
			assertThat(new String(packaged.readAllBytes(), StandardCharsets.UTF_8))
				.isEqualTo(Files.readString(repositoryScript));
		}
	}

	@Test
	void theJarAloneBuildsThenLocatesTheBinaries() throws Exception {
		String command = "java -cp '" + this.jar + "' " + MAIN;

		Run notYet = run(List.of("java", "-cp", this.jar.toString(), MAIN, "--cached-only"));
		assertThat(notYet.status()).as(notYet.toString()).isEqualTo(3);
		assertThat(notYet.stderr()).contains("envtest-assets: no cached assets in " + this.expectedAssets + " (run "
				+ command + " to build them)");

		Run build = run(List.of("java", "-cp", this.jar.toString(), MAIN));
		assertThat(build.status()).as(build.toString()).isZero();
		assertThat(build.stdout().strip()).isEqualTo(this.expectedAssets.toString());
		assertThat(this.expectedAssets.resolve("kube-apiserver")).isExecutable();
		assertThat(this.expectedAssets.resolve("etcd")).isExecutable();
		assertThat(this.expectedAssets.resolve(".complete")).isRegularFile();
		assertThat(Files.readAllLines(this.goLog)).as("what the recipe asked go to do")
			.contains("go mod download -json k8s.io/kubernetes@v1.35.4")
			.anySatisfy((line) -> assertThat(line).startsWith("go build -trimpath -ldflags")
				.contains("-X k8s.io/component-base/version.gitVersion=v1.35.4")
				.endsWith("-o " + this.expectedAssets.resolve("kube-apiserver.tmp") + " k8s.io/kubernetes/cmd/kube-apiserver"))
			.anySatisfy((line) -> assertThat(line)
				.endsWith("-o " + this.expectedAssets.resolve("etcd.tmp") + " go.etcd.io/etcd/server/v3"));
		assertThat(Files.readString(this.tmp.resolve("apiserver-go.mod"))).as("the wrapper module of kube-apiserver")
			.contains("require k8s.io/kubernetes v1.35.4")
			.contains("replace k8s.io/api => k8s.io/api v0.35.4");

		Run cached = run(List.of("java", "-cp", this.jar.toString(), MAIN, "--cached-only"));
		assertThat(cached.status()).as(cached.toString()).isZero();
		assertThat(cached.stdout().strip()).isEqualTo(this.expectedAssets.toString());
	}

	@Test
	void locateRunsThePackagedRecipeOutsideTheRepository() throws Exception {
		List<String> locate = List.of("java", "-cp", this.jar + ":" + testClasses(), LocatedAssets.class.getName());

		Run notBuilt = run(locate);
		assertThat(notBuilt.stdout()).as(notBuilt.toString())
			.contains("directory=none")
			.contains("reason=KUBEBUILDER_ASSETS is not set, and kube-apiserver and etcd are not built yet (the recipe"
					+ " packaged in event-recorder-test --cached-only found no finished build), and neither"
					+ " KUBEEVENTS_BUILD_ASSETS=true nor CI=true is set");
		assertThat(this.goLog).as("nothing built").doesNotExist();

		this.environment.put("KUBEEVENTS_BUILD_ASSETS", "true");
		Run built = run(locate);
		assertThat(built.stdout()).as(built.toString())
			.contains("directory=" + this.expectedAssets)
			.contains("reason=found");

		this.environment.remove("KUBEEVENTS_BUILD_ASSETS");
		Run cached = run(locate);
		assertThat(cached.stdout()).as(cached.toString()).contains("directory=" + this.expectedAssets);
	}

	// ------------------------------------------------------------------------------------------------ helpers

	record Run(int status, String stdout, String stderr) {
	}

	private Run run(List<String> command) throws IOException, InterruptedException {
		List<String> full = new ArrayList<>(command);
		full.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
		Path out = Files.createTempFile(this.tmp, "out", ".txt");
		Path err = Files.createTempFile(this.tmp, "err", ".txt");
		ProcessBuilder pb = new ProcessBuilder(full).directory(this.workingDirectory.toFile())
			.redirectOutput(out.toFile())
			.redirectError(err.toFile());
		pb.environment().clear();
		pb.environment().putAll(this.environment);
		Process p = pb.start();
		assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
		return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
	}

	private static String testClasses() throws Exception {
		return Path.of(LocatedAssets.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
	}

	/**
	 * A {@code go} that logs each call and does what the recipe needs: {@code mod download -json} answers with the
	 * go.mod of a k8s.io/kubernetes that replaces two staging modules, {@code mod tidy} keeps the module's go.mod (a
	 * copy of the kube-apiserver one goes next to the log), {@code build -o <file>} writes an executable stub.
	 */
	private void writeFakeGo(Path go) throws IOException {
		Files.writeString(go, """
				#!/bin/sh
				echo "go $*" >> "$FAKE_GO_LOG"
				case "$1 $2" in
				  "mod download")
				    mod="$FAKE_GO_DIR/kubernetes.mod"
				    printf 'module k8s.io/kubernetes\\n\\ngo 1.25.0\\n\\nreplace (\\n\\tk8s.io/api => ./staging/src/k8s.io/api\\n\\tk8s.io/apiserver => ./staging/src/k8s.io/apiserver\\n)\\n' > "$mod"
				    printf '{\\n\\t"Path": "k8s.io/kubernetes",\\n\\t"GoMod": "%s",\\n\\t"Version": "v1.35.4"\\n}\\n' "$mod"
				    ;;
				  "mod tidy")
				    if grep -q envtest-apiserver go.mod; then cp go.mod "$(dirname "$FAKE_GO_LOG")/apiserver-go.mod"; fi
				    ;;
				  "build "*)
				    while [ $# -gt 0 ]; do
				      if [ "$1" = "-o" ]; then out="$2"; fi
				      shift
				    done
				    printf '#!/bin/sh\\necho stub\\n' > "$out" && chmod +x "$out"
				    ;;
				  *) echo "fake go: unexpected $*" >&2; exit 1 ;;
				esac
				""");
		assertThat(go.toFile().setExecutable(true)).isTrue();
	}

}
