package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

import io.github.kubeevents.sink.CoreV1EventSink;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves {@code kubeevents.sink} into a {@link KubeEventsStatus}: the application's {@link EventSink} bean,
 * else its {@link ApiClient} bean, else a cluster configuration found by the {@link KubernetesConfigDetector}.
 *
 * <p>Stateless apart from the detector; thread-safe.
 */
final class EventSinkResolver {

	private static final Logger logger = LoggerFactory.getLogger(EventSinkResolver.class);

	private final KubernetesConfigDetector detector;

	EventSinkResolver(KubernetesConfigDetector detector) {
		this.detector = Objects.requireNonNull(detector, "detector");
	}

	/**
	 * Resolves the sink.
	 * @param mode the configured mode
	 * @param logEvents {@code kubeevents.log-events}
	 * @param userSink the application's sink bean, if any
	 * @param userClient the application's client bean, if any
	 * @return the status
	 * @throws IllegalStateException in mode {@link SinkMode#KUBERNETES} when no usable configuration exists
	 */
	KubeEventsStatus resolve(SinkMode mode, boolean logEvents, @Nullable EventSink userSink,
			@Nullable ApiClient userClient) {
		return switch (mode) {
			case NONE -> new KubeEventsStatus(mode, EffectiveSink.NONE, "kubeevents.sink=none", null, false, null);
			case LOG -> new KubeEventsStatus(mode, EffectiveSink.LOG, "kubeevents.sink=log", null, true, null);
			case AUTO, KUBERNETES -> resolveCluster(mode, logEvents, userSink, userClient);
		};
	}

	private KubeEventsStatus resolveCluster(SinkMode mode, boolean logEvents, @Nullable EventSink userSink,
			@Nullable ApiClient userClient) {
		if (userSink != null) {
			return new KubeEventsStatus(mode, EffectiveSink.KUBERNETES, "EventSink bean", null, logEvents, userSink);
		}
		if (userClient != null) {
			return new KubeEventsStatus(mode, EffectiveSink.KUBERNETES, "ApiClient bean", userClient.getBasePath(),
					logEvents, new CoreV1EventSink(userClient));
		}
		Optional<ClusterConfig> config = this.detector.detect();
		if (config.isEmpty()) {
			String searched = this.detector.describeSearch();
			if (mode == SinkMode.KUBERNETES) {
				throw new IllegalStateException("kubeevents.sink=kubernetes, but no Kubernetes configuration was found"
						+ " (looked at " + searched + "). Provide a kubeconfig, run in a cluster, define an ApiClient"
						+ " bean, or set kubeevents.sink to auto or log.");
			}
			logger.warn("No Kubernetes configuration found (looked at {}): events will only be logged, not written"
					+ " to the API server. Set kubeevents.sink=log to make this explicit, or kubeevents.sink=kubernetes"
					+ " to require a cluster.", searched);
			return new KubeEventsStatus(mode, EffectiveSink.LOG,
					"no Kubernetes configuration found (looked at " + searched + ")", null, true, null);
		}
		ClusterConfig found = config.get();
		ApiClient client;
		try {
			client = found.createApiClient();
		}
		catch (IOException ex) {
			if (mode == SinkMode.KUBERNETES) {
				throw new IllegalStateException("kubeevents.sink=kubernetes, but the Kubernetes configuration "
						+ found.description() + " could not be loaded: " + ex.getMessage(), ex);
			}
			logger.warn("Kubernetes configuration {} could not be loaded ({}): events will only be logged, not written"
					+ " to the API server.", found.description(), ex.getMessage());
			return new KubeEventsStatus(mode, EffectiveSink.LOG,
					found.description() + " could not be loaded: " + ex.getMessage(), null, true, null);
		}
		return new KubeEventsStatus(mode, EffectiveSink.KUBERNETES, found.description(), client.getBasePath(),
				logEvents, new CoreV1EventSink(client));
	}

}
