package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ObjectReference;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Fake cluster configurations and objects for tests.
 */
final class TestClusters {

	private TestClusters() {
	}

	/** A detector that finds nothing, whatever the machine has. */
	static KubernetesConfigDetector noCluster(Path dir) {
		return new KubernetesConfigDetector(Map.of(), dir.resolve("empty-home"), dir.resolve("no-service-account"));
	}

	/** Writes a kubeconfig whose current context points at {@code server}, with a bearer token. */
	static Path writeKubeconfig(Path file, String server) throws IOException {
		Files.createDirectories(file.getParent());
		Files.writeString(file, """
				apiVersion: v1
				kind: Config
				clusters:
				- name: test
				  cluster:
				    server: %s
				contexts:
				- name: test
				  context:
				    cluster: test
				    user: test
				current-context: test
				users:
				- name: test
				  user:
				    token: test-token
				""".formatted(server));
		return file;
	}

	/** Writes {@code token} and a real {@code ca.crt} into {@code dir}. */
	static Path writeServiceAccount(Path dir) throws IOException {
		Files.createDirectories(dir);
		Files.writeString(dir.resolve("token"), "test-token");
		try (InputStream ca = TestClusters.class.getResourceAsStream("/test-ca.crt")) {
			Files.write(dir.resolve("ca.crt"), ca.readAllBytes());
		}
		return dir;
	}

	/** The first exception of {@code type} in the cause chain of {@code failure}. */
	static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
		for (Throwable ex = failure; ex != null; ex = ex.getCause()) {
			if (type.isInstance(ex)) {
				return type.cast(ex);
			}
		}
		throw new AssertionError("no " + type.getName() + " in the cause chain of " + failure);
	}

	/** An initializer adding {@code properties} as the highest-priority property source, values untrimmed. */
	static ApplicationContextInitializer<ConfigurableApplicationContext> rawProperties(Map<String, Object> properties) {
		return (context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("raw", properties));
	}

	static V1ObjectReference pod(String name) {
		return new V1ObjectReference().kind("Pod").apiVersion("v1").namespace("default").name(name).uid("uid-" + name);
	}

}
