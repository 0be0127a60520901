package io.github.kubeevents.autoconfigure;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;

/**
 * Finds a Kubernetes cluster configuration, in controller-runtime's order:
 * <ol>
 * <li>the first existing file listed in {@code $KUBECONFIG} (paths separated by {@link File#pathSeparator}),
 * when kubeconfigs are allowed;</li>
 * <li>the in-cluster service account: {@code $KUBERNETES_SERVICE_HOST} and {@code $KUBERNETES_SERVICE_PORT} set
 * (what Spring Boot's {@code CloudPlatform.KUBERNETES} checks), and {@code token} and {@code ca.crt} present in
 * the service account directory;</li>
 * <li>{@code <home>/.kube/config}, when kubeconfigs are allowed.</li>
 * </ol>
 * Unlike client-java's {@code ClientBuilder.standard()}, which silently falls back to
 * {@code http://localhost:8080}, it reports when nothing was found. The environment variables and home directory are
 * read from Spring's {@link Environment} (which holds the process environment and the system properties), as Spring
 * Boot's own {@code CloudPlatform} detection does, so a test or a profile can set them as properties.
 *
 * <p>Immutable and thread-safe.
 */
final class KubernetesConfigDetector {

	/** Where Kubernetes mounts a pod's service account credentials. */
	static final Path DEFAULT_SERVICE_ACCOUNT_DIR = Paths.get("/var/run/secrets/kubernetes.io/serviceaccount");

	private static final List<String> VARIABLES = List.of("KUBECONFIG", "KUBERNETES_SERVICE_HOST",
			"KUBERNETES_SERVICE_PORT");

	private final Map<String, String> env;

	private final @Nullable Path homeDir;

	private final Path serviceAccountDir;

	/**
	 * A detector over the given environment.
	 * @param env environment variables ({@code KUBECONFIG}, {@code KUBERNETES_SERVICE_HOST},
	 * {@code KUBERNETES_SERVICE_PORT})
	 * @param homeDir the user's home directory, or {@code null} when there is none
	 * @param serviceAccountDir the directory of the in-cluster {@code token} and {@code ca.crt}
	 */
	KubernetesConfigDetector(Map<String, String> env, @Nullable Path homeDir, Path serviceAccountDir) {
		this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
		this.homeDir = homeDir;
		this.serviceAccountDir = Objects.requireNonNull(serviceAccountDir, "serviceAccountDir");
	}

	/**
	 * A detector over an application's environment: {@code $KUBECONFIG}, {@code $KUBERNETES_SERVICE_HOST} and
	 * {@code $KUBERNETES_SERVICE_PORT}, the home directory from {@code $HOME} (else the {@code user.home} system
	 * property), and {@link #DEFAULT_SERVICE_ACCOUNT_DIR}.
	 * @param environment the environment
	 * @return the detector
	 */
	static KubernetesConfigDetector of(Environment environment) {
		Map<String, String> env = new HashMap<>();
		for (String variable : VARIABLES) {
			String value = environment.getProperty(variable);
			if (value != null) {
				env.put(variable, value);
			}
		}
		String home = environment.getProperty("HOME");
		if (home == null || home.isEmpty()) {
			home = environment.getProperty("user.home");
		}
		Path homeDir = (home != null && !home.isEmpty()) ? Paths.get(home) : null;
		return new KubernetesConfigDetector(env, homeDir, DEFAULT_SERVICE_ACCOUNT_DIR);
	}

	/**
	 * Looks for a cluster configuration. Only checks that files exist; reading them is left to
	 * {@link ClusterConfig#createApiClient()}.
	 * @param kubeconfigAllowed whether a kubeconfig may be used ({@code $KUBECONFIG}, {@code ~/.kube/config})
	 * @return the configuration found first, or empty when there is none
	 */
	Optional<ClusterConfig> detect(boolean kubeconfigAllowed) {
		if (kubeconfigAllowed) {
			String kubeconfigEnv = this.env.get("KUBECONFIG");
			if (kubeconfigEnv != null) {
				for (String entry : kubeconfigEnv.split(File.pathSeparator)) {
					if (!entry.isBlank() && Files.isRegularFile(Paths.get(entry))) {
						return Optional.of(ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, Paths.get(entry)));
					}
				}
			}
		}
		if (isRunningInKubernetes() && Files.isRegularFile(this.serviceAccountDir.resolve("token"))
				&& Files.isRegularFile(this.serviceAccountDir.resolve("ca.crt"))) {
			return Optional.of(ClusterConfig.inCluster(this.serviceAccountDir, this.env.get("KUBERNETES_SERVICE_HOST"),
					this.env.get("KUBERNETES_SERVICE_PORT")));
		}
		if (kubeconfigAllowed && this.homeDir != null) {
			Path config = this.homeDir.resolve(".kube").resolve("config");
			if (Files.isRegularFile(config)) {
				return Optional.of(ClusterConfig.kubeconfig(ClusterConfig.Source.HOME_KUBECONFIG, config));
			}
		}
		return Optional.empty();
	}

	/**
	 * Whether this process runs in a Kubernetes pod: {@code $KUBERNETES_SERVICE_HOST} and
	 * {@code $KUBERNETES_SERVICE_PORT} are set (Spring Boot's {@code CloudPlatform.KUBERNETES} rule).
	 * @return {@code true} in a pod
	 */
	boolean isRunningInKubernetes() {
		String host = this.env.get("KUBERNETES_SERVICE_HOST");
		String port = this.env.get("KUBERNETES_SERVICE_PORT");
		return host != null && !host.isBlank() && port != null && !port.isBlank();
	}

	/**
	 * What {@link #detect(boolean)} looks at, for messages when nothing was found.
	 * @param kubeconfigAllowed whether kubeconfigs were allowed
	 * @return e.g. {@code "$KUBECONFIG (unset), in-cluster service account
	 * (/var/run/secrets/kubernetes.io/serviceaccount), /home/me/.kube/config"}
	 */
	String describeSearch(boolean kubeconfigAllowed) {
		String inCluster = "in-cluster service account (" + this.serviceAccountDir
				+ (isRunningInKubernetes() ? ")" : "; not running in Kubernetes)");
		if (!kubeconfigAllowed) {
			return inCluster;
		}
		String kubeconfigEnv = this.env.get("KUBECONFIG");
		return "$KUBECONFIG (" + ((kubeconfigEnv != null) ? kubeconfigEnv : "unset") + "), " + inCluster + ", "
				+ ((this.homeDir != null) ? this.homeDir.resolve(".kube").resolve("config") : "~/.kube/config (no home)");
	}

}
