package io.github.kubeevents.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TestSampleApplication} ({@code ./mvnw -pl sample-app -am spring-boot:test-run}) on a machine without the
 * control-plane binaries and without Docker, for real: its main runs in a JVM with the test classpath (what
 * {@code spring-boot:test-run} does), in a directory outside this repository, with an empty cache, no
 * {@code KUBEBUILDER_ASSETS} and a {@code DOCKER_HOST} that answers nothing. It must stop with Spring Boot's short
 * "APPLICATION FAILED TO START" report saying what is missing and what to do, not a stack trace.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class TestSampleApplicationWithoutClusterTests {

	@TempDir
	Path tmp;

	@Test
	void startsNothingAndSaysWhatToInstall() throws Exception {
		Path out = this.tmp.resolve("out.txt");
		ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), TestSampleApplication.class.getName(), "--server.port=0")
			.directory(Files.createDirectories(this.tmp.resolve("elsewhere")).toFile())
			.redirectErrorStream(true)
			.redirectOutput(out.toFile());
		Map<String, String> env = pb.environment();
		env.keySet().removeAll(List.of("KUBEBUILDER_ASSETS", "CI", "KUBEEVENTS_BUILD_ASSETS"));
		env.put("XDG_CACHE_HOME", Files.createDirectories(this.tmp.resolve("cache")).toString());
		env.put("DOCKER_HOST", "unix://" + this.tmp.resolve("no-docker.sock"));
		Process p = pb.start();
		assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
		String output = Files.readString(out);
		System.out.println("[without-cluster] output of TestSampleApplication (" + output.lines().count() + " lines):");
		System.out.println(output);

		assertThat(p.exitValue()).as(output).isEqualTo(1);
		String report = output.substring(output.indexOf("***************************"));
		assertThat(report).startsWith(String.join(System.lineSeparator(), "***************************",
				"APPLICATION FAILED TO START", "***************************", "", "Description:", "",
				"No Kubernetes test cluster: local: KUBEBUILDER_ASSETS is not set, and kube-apiserver and etcd are not"
						+ " built yet (the recipe packaged in event-recorder-test --cached-only found no finished build), and"
						+ " neither KUBEEVENTS_BUILD_ASSETS=true nor CI=true is set; k3s: no Docker engine is reachable"
						+ " (Testcontainers found none).", "", "Action:", "", "Do one of these:"))
			.contains(String.join(System.lineSeparator(), "Do one of these:",
					"\t- build kube-apiserver and etcd once on this machine (with Go from the PATH, else a fetched Go;"
							+ " 10-30 minutes), then run again:"))
			.contains("io.github.kubeevents.test.cluster.EnvtestAssets" + System.lineSeparator()
					+ "\t- set KUBEBUILDER_ASSETS to a directory holding kube-apiserver and etcd")
			.contains("-Dkubeevents.test.cluster=local|k3s|auto picks the backend.");
		assertThat(report.lines().count()).as("the report's length").isLessThanOrEqualTo(20);
		assertThat(output).as("no stack trace").doesNotContain("\tat ");
	}

}
