package io.github.kubeevents.test.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A test class using {@link WithTestCluster} on a machine without the local binaries and without Docker, for real: a
 * JVM started in a directory outside this repository, with an empty cache, no {@code KUBEBUILDER_ASSETS} and a
 * {@code DOCKER_HOST} that answers nothing. Elsewhere the class is skipped with the report; under {@code CI=true} it
 * fails with one {@link TestClusterUnavailableException} that holds the report and no stack trace.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class TestClusterUnavailableTests {

	private static final String NL = System.lineSeparator();

	@TempDir
	Path tmp;

	private Path cache;

	private Path noNetworkGo;

	private String packagedRecipe;

	private String action;

	@BeforeEach
	void machineWithoutBinariesOrDocker() throws IOException {
		this.cache = Files.createDirectories(this.tmp.resolve("cache"));
		// under CI=true the recipe builds; here it cannot (as without a network)
		this.noNetworkGo = Files.createDirectories(this.tmp.resolve("go-without-network"));
		Path go = this.noNetworkGo.resolve("go");
		Files.writeString(go, "#!/bin/sh\necho 'go: k8s.io/kubernetes@v1.35.4: dial tcp: network is unreachable' >&2\nexit 1\n");
		assertThat(go.toFile().setExecutable(true)).isTrue();
		this.packagedRecipe = "java -cp '" + Path.of(System.getProperty("user.dir"), "target", "classes") + "' "
				+ EnvtestAssets.class.getName();
		this.action = "Do one of these:" + NL
				+ "\t- build kube-apiserver and etcd once on this machine (with Go from the PATH, else a fetched Go; 10-30"
				+ " minutes), then run again:" + NL + "\t      " + this.packagedRecipe + NL
				+ "\t- set KUBEBUILDER_ASSETS to a directory holding kube-apiserver and etcd (any envtest binaries, e.g."
				+ " from setup-envtest)" + NL + "\t- set KUBEEVENTS_BUILD_ASSETS=true to build them on first use" + NL
				+ "\t- put org.testcontainers:testcontainers-k3s on the classpath and start a Docker engine that can run"
				+ " privileged containers" + NL + "-Dkubeevents.test.cluster=local|k3s|auto picks the backend.";
	}

	@Test
	void outsideCiTheClassIsSkippedWithTheReport() throws Exception {
		String out = runWithoutACluster(false);

		assertThat(out).isEqualTo("SKIPPED" + NL + "No Kubernetes test cluster: local: KUBEBUILDER_ASSETS is not set, and"
				+ " kube-apiserver and etcd are not built yet (the recipe packaged in event-recorder-test --cached-only"
				+ " found no finished build), and neither KUBEEVENTS_BUILD_ASSETS=true nor CI=true is set; k3s: no Docker engine is reachable"
				+ " (Testcontainers found none)." + NL + "Action: " + this.action + NL);
	}

	@Test
	void underCiTheClassFailsWithOneMessageAndNoStackTrace() throws Exception {
		String out = runWithoutACluster(true);

		assertThat(out).startsWith("FAILED " + TestClusterUnavailableException.class.getName() + " frames=0 cause=null"
				+ NL + "No Kubernetes test cluster: local: the recipe packaged in event-recorder-test exited with 1: ")
			.contains("go: k8s.io/kubernetes@v1.35.4: dial tcp: network is unreachable")
			.endsWith("; k3s: no Docker engine is reachable (Testcontainers found none). [CI=true, so this is a failure,"
					+ " not a skip]" + NL + "Action: " + this.action + NL);
	}

	private String runWithoutACluster(boolean ci) throws IOException, InterruptedException {
		Path result = this.tmp.resolve("result.txt");
		Path out = this.tmp.resolve("out.txt");
		Path err = this.tmp.resolve("err.txt");
		ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), WithoutAClusterChild.class.getName(), result.toString())
			.directory(Files.createDirectories(this.tmp.resolve("elsewhere")).toFile())
			.redirectOutput(out.toFile())
			.redirectError(err.toFile());
		Map<String, String> env = pb.environment();
		env.keySet().removeAll(List.of("KUBEBUILDER_ASSETS", "CI", "KUBEEVENTS_BUILD_ASSETS"));
		env.put("XDG_CACHE_HOME", this.cache.toString());
		env.put("DOCKER_HOST", "unix://" + this.tmp.resolve("no-docker.sock"));
		env.put("PATH", this.noNetworkGo + ":" + System.getenv("PATH"));
		if (ci) {
			env.put("CI", "true");
		}
		Process p = pb.start();
		assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
		assertThat(p.exitValue()).as("stdout: %s%nstderr: %s", Files.readString(out), Files.readString(err)).isZero();
		return Files.readString(result);
	}

}
