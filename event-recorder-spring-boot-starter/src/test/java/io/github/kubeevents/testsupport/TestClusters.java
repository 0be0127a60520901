package io.github.kubeevents.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.autoconfigure.KubernetesConfigDetector;

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
	 * A detector that finds nothing, whatever the machine has.
	 * @param dir a temporary directory
	 * @return the detector
	 */
	public static KubernetesConfigDetector noCluster(Path dir) {
		return new KubernetesConfigDetector(Map.of(), dir.resolve("empty-home"), dir.resolve("no-service-account"));
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
	 * A developer's machine: a home with {@code ~/.kube/config} pointing at {@code http://home.example:6443}, and
	 * {@code $KUBECONFIG} listing a second kubeconfig pointing at {@code http://env.example:6443}; a service
	 * account directory with credentials, but not running in Kubernetes.
	 * @param dir a temporary directory
	 * @return the detector
	 * @throws IOException when the files cannot be written
	 */
	public static KubernetesConfigDetector developerMachine(Path dir) throws IOException {
		Path home = dir.resolve("home");
		writeKubeconfig(home.resolve(".kube/config"), "http://home.example:6443");
		Path env = writeKubeconfig(dir.resolve("env/kubeconfig"), "http://env.example:6443");
		Path serviceAccount = writeServiceAccount(dir.resolve("sa"));
		return new KubernetesConfigDetector(Map.of("KUBECONFIG", env.toString()), home, serviceAccount);
	}

	/**
	 * A pod: {@code $KUBERNETES_SERVICE_HOST}/{@code PORT} set and the service account's token and CA present,
	 * and also a kubeconfig in the home directory and {@code $KUBECONFIG} (which a pod normally has not).
	 * @param dir a temporary directory
	 * @param withKubeconfigs whether to add the kubeconfigs
	 * @return the detector
	 * @throws IOException when the files cannot be written
	 */
	public static KubernetesConfigDetector inPod(Path dir, boolean withKubeconfigs) throws IOException {
		Path serviceAccount = writeServiceAccount(dir.resolve("sa"));
		Map<String, String> env = new HashMap<>(IN_CLUSTER_ENV);
		Path home = dir.resolve("home");
		if (withKubeconfigs) {
			writeKubeconfig(home.resolve(".kube/config"), "http://home.example:6443");
			env.put("KUBECONFIG", writeKubeconfig(dir.resolve("env/kubeconfig"), "http://env.example:6443").toString());
		}
		return new KubernetesConfigDetector(env, home, serviceAccount);
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
