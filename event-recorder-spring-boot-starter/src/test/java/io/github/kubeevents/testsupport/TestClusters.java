package io.github.kubeevents.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.github.kubeevents.InvolvedObject;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * Fake cluster configurations (kubeconfigs, service accounts, environments) and objects for tests, so that no test
 * depends on the machine's {@code ~/.kube/config} or environment.
 */
public final class TestClusters {

	/** {@code $KUBERNETES_SERVICE_HOST} and {@code $KUBERNETES_SERVICE_PORT} of a pod. */
	public static final Map<String, String> IN_CLUSTER_ENV = Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1",
			"KUBERNETES_SERVICE_PORT", "443");

	private TestClusters() {
	}

	/**
	 * Properties that hide the machine's cluster configuration from the starter's detection (which reads these
	 * environment variables from Spring's {@code Environment}): no {@code $KUBECONFIG}, not in a pod, an empty home.
	 * @param dir a temporary directory
	 * @return the properties, as {@code name=value}
	 */
	public static String[] noClusterProperties(Path dir) {
		return new String[] { "KUBECONFIG=", "KUBERNETES_SERVICE_HOST=", "KUBERNETES_SERVICE_PORT=",
				"HOME=" + dir.resolve("empty-home") };
	}

	/**
	 * Writes a kubeconfig whose current context points at {@code server}, with a bearer token.
	 * @param file the file to write (parent directories are created)
	 * @param server the server URL
	 * @return {@code file}
	 * @throws IOException when it cannot be written
	 */
	public static Path writeKubeconfig(Path file, String server) throws IOException {
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

	/**
	 * Writes {@code token} and a real {@code ca.crt} into {@code dir}.
	 * @param dir the service account directory (created)
	 * @return {@code dir}
	 * @throws IOException when it cannot be written
	 */
	public static Path writeServiceAccount(Path dir) throws IOException {
		Files.createDirectories(dir);
		Files.writeString(dir.resolve("token"), "test-token");
		try (InputStream ca = TestClusters.class.getResourceAsStream("/test-ca.crt")) {
			Files.write(dir.resolve("ca.crt"), ca.readAllBytes());
		}
		return dir;
	}

	/**
	 * The first exception of {@code type} in the cause chain of {@code failure}.
	 * @param <T> the type
	 * @param failure the failure
	 * @param type the type
	 * @return the exception
	 */
	public static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
		for (Throwable ex = failure; ex != null; ex = ex.getCause()) {
			if (type.isInstance(ex)) {
				return type.cast(ex);
			}
		}
		throw new AssertionError("no " + type.getName() + " in the cause chain of " + failure);
	}

	/**
	 * An initializer adding {@code properties} as the highest-priority property source, values untrimmed.
	 * @param properties the properties
	 * @return the initializer
	 */
	public static ApplicationContextInitializer<ConfigurableApplicationContext> rawProperties(
			Map<String, Object> properties) {
		return (context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("raw", properties));
	}

	/**
	 * A pod in {@code default}.
	 * @param name its name
	 * @return the reference, with uid {@code uid-<name>}
	 */
	public static InvolvedObject pod(String name) {
		return InvolvedObject.of("Pod", "v1", "default", name).withUid("uid-" + name);
	}

	/**
	 * A node (cluster-scoped).
	 * @param name its name
	 * @return the reference
	 */
	public static InvolvedObject node(String name) {
		return InvolvedObject.of("Node", "v1", null, name).withUid("uid-" + name);
	}

}
