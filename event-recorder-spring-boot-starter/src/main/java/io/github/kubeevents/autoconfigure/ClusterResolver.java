package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

/**
 * Decides where events go ({@code kubeevents.sink.mode}) and builds the sink. In modes {@code auto} and
 * {@code kubernetes} the first of these wins:
 * <ol>
 * <li>the application's {@link EventsV1Sink} or {@link EventSink} bean (with both, the one of the configured API;
 * for {@code auto} the events.k8s.io/v1 one);</li>
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

	/**
	 * A resolver.
	 * @param detector finds the in-cluster service account or a kubeconfig
	 */
	public ClusterResolver(KubernetesConfigDetector detector) {
		this.detector = Objects.requireNonNull(detector, "detector");
	}

	/**
	 * The application's sinks, if any.
	 * @param coreV1 its core/v1 sink bean
	 * @param eventsV1 its events.k8s.io/v1 sink bean
	 * @param api the configured events API ({@code kubeevents.api})
	 */
	public record UserSinks(@Nullable EventSink coreV1, @Nullable EventsV1Sink eventsV1, EventsApi api) {

		/** No sink beans. */
		public static final UserSinks NONE = new UserSinks(null, null, EventsApi.AUTO);

		@Nullable SinkTarget target() {
			if (this.eventsV1 != null && (this.coreV1 == null || this.api != EventsApi.CORE_V1)) {
				return new SinkTarget.EventsV1(this.eventsV1);
			}
			return (this.coreV1 != null) ? new SinkTarget.CoreV1(this.coreV1) : null;
		}

	}

	/**
	 * Resolves where events go.
	 * @param mode {@code kubeevents.sink.mode}: {@code auto}, {@code kubernetes}, {@code log} or {@code none}
	 * @param logEvents {@code kubeevents.log-events}
	 * @param kubeconfigEnabled {@code kubeevents.kubeconfig.enabled}
	 * @param userSinks the application's sink beans
	 * @param connectionDetails the connection details bean, if any
	 * @param userClient the application's client bean, if any
	 * @return the status, with the sink to subscribe
	 * @throws NoKubernetesClusterException in mode {@code kubernetes} when no usable cluster exists
	 */
	public KubeEventsStatus resolve(String mode, boolean logEvents, boolean kubeconfigEnabled,
			UserSinks userSinks, @Nullable KubeEventsConnectionDetails connectionDetails,
			@Nullable ApiClient userClient) {
		return switch (mode) {
			case "none" -> new KubeEventsStatus(mode, EffectiveSink.NONE, "kubeevents.sink.mode=none", null, false, null);
			case "log" -> new KubeEventsStatus(mode, EffectiveSink.LOG, "kubeevents.sink.mode=log", null, true, null);
			default -> resolveCluster(mode, logEvents, kubeconfigEnabled || "kubernetes".equals(mode), userSinks,
					connectionDetails, userClient);
		};
	}

	private KubeEventsStatus resolveCluster(String mode, boolean logEvents, boolean kubeconfigAllowed,
			UserSinks userSinks, @Nullable KubeEventsConnectionDetails connectionDetails,
			@Nullable ApiClient userClient) {
		SinkTarget userTarget = userSinks.target();
		if (userTarget != null) {
			String bean = (userTarget instanceof SinkTarget.EventsV1) ? "EventsV1Sink bean" : "EventSink bean";
			return writing(mode, bean, null, logEvents, userTarget);
		}
		if (connectionDetails != null) {
			ApiClient client = connectionDetails.apiClient();
			return writing(mode, "connection details: " + connectionDetails.description(), client.getBasePath(),
					logEvents, new SinkTarget.Client(client));
		}
		if (userClient != null) {
			return writing(mode, "ApiClient bean", userClient.getBasePath(), logEvents,
					new SinkTarget.Client(userClient));
		}
		Optional<ClusterConfig> config = this.detector.detect(kubeconfigAllowed);
		String searched = this.detector.describeSearch(kubeconfigAllowed);
		if (config.isEmpty()) {
			if ("kubernetes".equals(mode)) {
				throw new NoKubernetesClusterException("no Kubernetes configuration was found", searched, null);
			}
			String why = this.detector.isRunningInKubernetes() ? "no service account credentials in " + searched
					: "not running in Kubernetes; a kubeconfig is used only with kubeevents.kubeconfig.enabled=true"
							+ " or kubeevents.sink.mode=kubernetes";
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
		return writing(mode, found.description(), client.getBasePath(), logEvents, new SinkTarget.Client(client));
	}

	private static KubeEventsStatus writing(String mode, String reason, @Nullable String apiServer, boolean logEvents,
			SinkTarget target) {
		return new KubeEventsStatus(mode, EffectiveSink.KUBERNETES, reason, apiServer, logEvents, target);
	}

}
