package io.github.kubeevents.autoconfigure;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * Finds a Kubernetes cluster configuration, in the order of client-java's {@code ClientBuilder.standard()}:
 * <ol>
 * <li>the first existing file listed in {@code $KUBECONFIG} (paths separated by {@link File#pathSeparator});</li>
 * <li>{@code <home>/.kube/config};</li>
 * <li>the in-cluster service account: {@code $KUBERNETES_SERVICE_HOST} and {@code $KUBERNETES_SERVICE_PORT} set,
 * and {@code token} and {@code ca.crt} present in the service account directory.</li>
 * </ol>
 * Unlike {@code ClientBuilder.standard()}, which silently falls back to {@code http://localhost:8080}, it
 * reports when nothing was found. The environment, home directory and service account directory are passed
 * in, so it does not depend on the machine it runs on.
 *
 * <p>Immutable and thread-safe.
 */
public final class KubernetesConfigDetector {

	/** Where Kubernetes mounts a pod's service account credentials. */
	public static final Path DEFAULT_SERVICE_ACCOUNT_DIR = Paths.get("/var/run/secrets/kubernetes.io/serviceaccount");

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
	public KubernetesConfigDetector(Map<String, String> env, @Nullable Path homeDir, Path serviceAccountDir) {
		this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
		this.homeDir = homeDir;
		this.serviceAccountDir = Objects.requireNonNull(serviceAccountDir, "serviceAccountDir");
	}

	/**
	 * A detector over this process: {@link System#getenv()}, the home directory from {@code $HOME} (else the
	 * {@code user.home} system property), and {@link #DEFAULT_SERVICE_ACCOUNT_DIR}.
	 * @return the detector
	 */
	public static KubernetesConfigDetector system() {
		Map<String, String> env = System.getenv();
		String home = env.get("HOME");
		if (home == null || home.isEmpty()) {
			home = System.getProperty("user.home");
		}
		Path homeDir = (home != null && !home.isEmpty()) ? Paths.get(home) : null;
		return new KubernetesConfigDetector(env, homeDir, DEFAULT_SERVICE_ACCOUNT_DIR);
	}

	/**
	 * Looks for a cluster configuration. Only checks that files exist; reading them is left to
	 * {@link ClusterConfig#createApiClient()}.
	 * @return the configuration found first, or empty when there is none
	 */
	public Optional<ClusterConfig> detect() {
		String kubeconfigEnv = this.env.get("KUBECONFIG");
		if (kubeconfigEnv != null) {
			for (String entry : kubeconfigEnv.split(File.pathSeparator)) {
				if (!entry.isBlank() && Files.isRegularFile(Paths.get(entry))) {
					return Optional.of(ClusterConfig.kubeconfig(ClusterConfig.Source.KUBECONFIG_ENV, Paths.get(entry)));
				}
			}
		}
		if (this.homeDir != null) {
			Path config = this.homeDir.resolve(".kube").resolve("config");
			if (Files.isRegularFile(config)) {
				return Optional.of(ClusterConfig.kubeconfig(ClusterConfig.Source.HOME_KUBECONFIG, config));
			}
		}
		String host = this.env.get("KUBERNETES_SERVICE_HOST");
		String port = this.env.get("KUBERNETES_SERVICE_PORT");
		if (host != null && !host.isBlank() && port != null && !port.isBlank()
				&& Files.isRegularFile(this.serviceAccountDir.resolve("token"))
				&& Files.isRegularFile(this.serviceAccountDir.resolve("ca.crt"))) {
			return Optional.of(ClusterConfig.inCluster(this.serviceAccountDir, host, port));
		}
		return Optional.empty();
	}

	/**
	 * What {@link #detect()} looks at, for messages when nothing was found.
	 * @return e.g. {@code "$KUBECONFIG (unset), /home/me/.kube/config, in-cluster service account
	 * (/var/run/secrets/kubernetes.io/serviceaccount)"}
	 */
	public String describeSearch() {
		String kubeconfigEnv = this.env.get("KUBECONFIG");
		return "$KUBECONFIG (" + ((kubeconfigEnv != null) ? kubeconfigEnv : "unset") + "), "
				+ ((this.homeDir != null) ? this.homeDir.resolve(".kube").resolve("config") : "~/.kube/config (no home)")
				+ ", in-cluster service account (" + this.serviceAccountDir + ")";
	}

}
