package io.github.kubeevents.autoconfigure.cluster;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

import io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.spring.EffectiveSink;
import io.github.kubeevents.spring.KubeEventsStatus;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

/**
 * Decides where events go ({@code kubeevents.sink}) and builds the sink. In modes {@code auto} and
 * {@code kubernetes} the first of these wins:
 * <ol>
 * <li>the application's {@link EventSink} bean;</li>
 * <li>a {@link KubeEventsConnectionDetails} bean (e.g. from {@code @ServiceConnection});</li>
 * <li>the application's {@link ApiClient} bean;</li>
 * <li>a configuration found by the {@link KubernetesConfigDetector}: the in-cluster service account, or a
 * kubeconfig, which {@code auto} uses only when {@code kubeevents.kubeconfig.enabled=true} (so tests and local
 * runs do not write into whatever cluster kubectl points at) and {@code kubernetes} always may use.</li>
 * </ol>
 * With none, {@code auto} only logs events and {@code kubernetes} fails startup with a
 * {@link NoKubernetesClusterException}.
 *
 * <p>Stateless apart from its collaborators; thread-safe.
 */
public final class ClusterResolver {

	private final KubernetesConfigDetector detector;

	private final Function<ApiClient, EventSink> sinkFactory;

	/**
	 * A resolver.
	 * @param detector finds the in-cluster service account or a kubeconfig
	 * @param sinkFactory builds the sink for a client
	 */
	public ClusterResolver(KubernetesConfigDetector detector, Function<ApiClient, EventSink> sinkFactory) {
		this.detector = Objects.requireNonNull(detector, "detector");
		this.sinkFactory = Objects.requireNonNull(sinkFactory, "sinkFactory");
	}

	/**
	 * Resolves where events go.
	 * @param mode {@code kubeevents.sink}: {@code auto}, {@code kubernetes}, {@code log} or {@code none}
	 * @param logEvents {@code kubeevents.log-events}
	 * @param kubeconfigEnabled {@code kubeevents.kubeconfig.enabled}
	 * @param userSink the application's sink bean, if any
	 * @param connectionDetails the connection details bean, if any
	 * @param userClient the application's client bean, if any
	 * @return the status, with the sink to subscribe
	 * @throws NoKubernetesClusterException in mode {@code kubernetes} when no usable cluster exists
	 */
	public KubeEventsStatus resolve(String mode, boolean logEvents, boolean kubeconfigEnabled,
			@Nullable EventSink userSink, @Nullable KubeEventsConnectionDetails connectionDetails,
			@Nullable ApiClient userClient) {
		return switch (mode) {
			case "none" -> new KubeEventsStatus(mode, EffectiveSink.NONE, "kubeevents.sink=none", null, false, null);
			case "log" -> new KubeEventsStatus(mode, EffectiveSink.LOG, "kubeevents.sink=log", null, true, null);
			default -> resolveCluster(mode, logEvents, kubeconfigEnabled || "kubernetes".equals(mode), userSink,
					connectionDetails, userClient);
		};
	}

	private KubeEventsStatus resolveCluster(String mode, boolean logEvents, boolean kubeconfigAllowed,
			@Nullable EventSink userSink, @Nullable KubeEventsConnectionDetails connectionDetails,
			@Nullable ApiClient userClient) {
		if (userSink != null) {
			return writing(mode, "EventSink bean", null, logEvents, userSink);
		}
		if (connectionDetails != null) {
			ApiClient client = connectionDetails.apiClient();
			return writing(mode, "connection details: " + connectionDetails.description(), client.getBasePath(),
					logEvents, this.sinkFactory.apply(client));
		}
		if (userClient != null) {
			return writing(mode, "ApiClient bean", userClient.getBasePath(), logEvents,
					this.sinkFactory.apply(userClient));
		}
		Optional<ClusterConfig> config = this.detector.detect(kubeconfigAllowed);
		String searched = this.detector.describeSearch(kubeconfigAllowed);
		if (config.isEmpty()) {
			if ("kubernetes".equals(mode)) {
				throw new NoKubernetesClusterException("no Kubernetes configuration was found", searched, null);
			}
			String why = this.detector.isRunningInKubernetes() ? "no service account credentials in " + searched
					: "not running in Kubernetes; a kubeconfig is used only with kubeevents.kubeconfig.enabled=true"
							+ " or kubeevents.sink=kubernetes";
			return new KubeEventsStatus(mode, EffectiveSink.LOG, why, null, true, null);
		}
		ClusterConfig found = config.get();
		ApiClient client;
		try {
			client = found.createApiClient();
		}
		catch (IOException ex) {
			if ("kubernetes".equals(mode)) {
				throw new NoKubernetesClusterException(
						"the configuration " + found.description() + " could not be loaded: " + ex.getMessage(),
						searched, ex);
			}
			return new KubeEventsStatus(mode, EffectiveSink.LOG,
					found.description() + " could not be loaded: " + ex.getMessage(), null, true, null);
		}
		return writing(mode, found.description(), client.getBasePath(), logEvents, this.sinkFactory.apply(client));
	}

	private static KubeEventsStatus writing(String mode, String reason, @Nullable String apiServer, boolean logEvents,
			EventSink sink) {
		return new KubeEventsStatus(mode, EffectiveSink.KUBERNETES, reason, apiServer, logEvents, sink);
	}

}
