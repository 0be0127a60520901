package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

/**
 * The {@link KubeEventsConnectionDetails} the auto-configuration declares when the application declares none,
 * built from what it finds, first found wins:
 * <ol>
 * <li>the application's {@link ApiClient} bean;</li>
 * <li>a configuration found by the {@link KubernetesConfigDetector}: {@code $KUBECONFIG}, the in-cluster service
 * account, {@code ~/.kube/config}. A kubeconfig is used only when allowed ({@code kubeevents.kubeconfig.enabled=true}
 * or {@code kubeevents.sink.mode=kubernetes}), so tests and local runs do not write into whatever cluster kubectl
 * points at.</li>
 * </ol>
 * Nothing is looked at before the first {@link #apiClient()} or {@link #description()} call (never, in modes
 * {@code log} and {@code none}); what was found then is kept. When nothing usable is found, {@link #apiClient()}
 * throws a {@link NoKubernetesClusterException} saying where it looked.
 *
 * <p>Thread-safe.
 */
final class DetectedKubeEventsConnectionDetails implements KubeEventsConnectionDetails {

	private final Supplier<@Nullable ApiClient> applicationClient;

	private final KubernetesConfigDetector detector;

	private final boolean kubeconfigAllowed;

	private final Object monitor = new Object();

	private @Nullable Detection detection;

	/**
	 * Details over what the application and the machine have.
	 * @param applicationClient the application's {@link ApiClient} bean, if any
	 * @param detector finds the in-cluster service account or a kubeconfig
	 * @param kubeconfigAllowed whether a kubeconfig may be used
	 */
	DetectedKubeEventsConnectionDetails(Supplier<@Nullable ApiClient> applicationClient,
			KubernetesConfigDetector detector, boolean kubeconfigAllowed) {
		this.applicationClient = Objects.requireNonNull(applicationClient, "applicationClient");
		this.detector = Objects.requireNonNull(detector, "detector");
		this.kubeconfigAllowed = kubeconfigAllowed;
	}

	/**
	 * The client of the cluster found; the same instance on every call.
	 * @return the client
	 * @throws NoKubernetesClusterException when no usable cluster was found
	 */
	@Override
	public ApiClient apiClient() {
		Detection found = detect();
		if (found.client() == null) {
			throw new NoKubernetesClusterException(found.failure(), found.searched(), found.description(),
					found.cause());
		}
		return found.client();
	}

	/**
	 * Whether the application has an {@link ApiClient} bean (it configured the official client), without detecting
	 * anything else.
	 * @return {@code true} when it has one
	 */
	boolean hasApplicationClient() {
		return this.applicationClient.get() != null;
	}

	/**
	 * Where the cluster was found, or why none was.
	 * @return e.g. {@code "ApiClient bean"}, {@code "in-cluster service account /var/run/secrets/..."} or
	 * {@code "kubeconfig /home/me/.kube/config"}
	 */
	@Override
	public String description() {
		return detect().description();
	}

	private Detection detect() {
		synchronized (this.monitor) {
			if (this.detection == null) {
				this.detection = detectOnce();
			}
			return this.detection;
		}
	}

	private Detection detectOnce() {
		ApiClient client = this.applicationClient.get();
		if (client != null) {
			return Detection.found(client, "ApiClient bean");
		}
		Optional<ClusterConfig> config = this.detector.detect(this.kubeconfigAllowed);
		String searched = this.detector.describeSearch(this.kubeconfigAllowed);
		if (config.isEmpty()) {
			String why = this.detector.isRunningInKubernetes() ? "no service account credentials in " + searched
					: "not running in Kubernetes; a kubeconfig is used only with kubeevents.kubeconfig.enabled=true"
							+ " or kubeevents.sink.mode=kubernetes";
			return new Detection(null, why, "no Kubernetes configuration was found", searched, null);
		}
		ClusterConfig found = config.get();
		try {
			return Detection.found(found.createApiClient(), found.description());
		}
		catch (IOException ex) {
			return new Detection(null, found.description() + " could not be loaded: " + ex.getMessage(),
					"the configuration " + found.description() + " could not be loaded: " + ex.getMessage(), searched,
					ex);
		}
	}

	/**
	 * What was found.
	 * @param client the client, or {@code null} when nothing usable was found
	 * @param description where the client comes from, or why there is none
	 * @param failure what went wrong, when there is no client
	 * @param searched where the detector looked, when there is no client
	 * @param cause why a configuration could not be loaded
	 */
	private record Detection(@Nullable ApiClient client, String description, String failure, String searched,
			@Nullable Throwable cause) {

		static Detection found(ApiClient client, String description) {
			return new Detection(client, description, "", "", null);
		}

	}

}
