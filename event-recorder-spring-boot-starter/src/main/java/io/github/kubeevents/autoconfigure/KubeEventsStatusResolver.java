package io.github.kubeevents.autoconfigure;

import java.util.function.Supplier;

import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkTarget;
import io.github.kubeevents.status.SinkMode;
import io.github.kubeevents.status.EffectiveSink;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

/**
 * Decides where the application's events go ({@link KubeEventsStatus}) from {@code kubeevents.sink.mode}, the
 * application's sink beans and the {@link KubeEventsConnectionDetails}, once at startup.
 *
 * <p>Stateless and thread-safe.
 */
final class KubeEventsStatusResolver {

	private KubeEventsStatusResolver() {
	}

	/**
	 * Resolves where events go. Modes {@code log} and {@code none} look at nothing else. Modes {@code auto} and
	 * {@code kubernetes} write to the application's sink bean if there is one, else to the cluster of the
	 * connection details; when the auto-configured details find no cluster, {@code auto} only logs events and
	 * {@code kubernetes} fails, whichever client would write.
	 * @param mode the configured mode
	 * @param logEvents {@code kubeevents.log-events}
	 * @param applicationSink the application's sink bean, or {@code null}; asked for only when needed
	 * @param connectionDetails the connection details; asked for a client only when needed
	 * @return the status
	 * @throws NoKubernetesClusterException in mode {@code kubernetes} when the details find no usable cluster
	 */
	static KubeEventsStatus resolve(SinkMode mode, boolean logEvents,
			Supplier<@Nullable SinkTarget> applicationSink, KubeEventsConnectionDetails connectionDetails) {
		return resolve(mode, logEvents, applicationSink, connectionDetails, null);
	}

	/**
	 * Resolves where events go, as {@link #resolve(SinkMode, boolean, Supplier, KubeEventsConnectionDetails)},
	 * with the client chosen by {@code kubeevents.sink.client} when no application sink bean wins.
	 * @param mode the configured mode
	 * @param logEvents {@code kubeevents.log-events}
	 * @param applicationSink the application's sink bean, or {@code null}; asked for only when needed
	 * @param connectionDetails the connection details of the official client; asked for a client only when needed
	 * @param clientChoice which client to write through; asked for only when needed; {@code null} for the official
	 * client of the connection details
	 * @return the status
	 * @throws NoKubernetesClusterException in mode {@code kubernetes} when the details find no usable cluster
	 * @throws InvalidKubeEventsPropertyException when {@code kubeevents.sink.client=fabric8} cannot be honoured
	 * (thrown by the choice, asked for only here)
	 */
	static KubeEventsStatus resolve(SinkMode mode, boolean logEvents,
			Supplier<@Nullable SinkTarget> applicationSink, KubeEventsConnectionDetails connectionDetails,
			@Nullable Supplier<ClientChoice> clientChoice) {
		return switch (mode) {
			case NONE -> new KubeEventsStatus(mode, EffectiveSink.NONE, "kubeevents.sink.mode=none", null, false, null);
			case LOG -> new KubeEventsStatus(mode, EffectiveSink.LOG, "kubeevents.sink.mode=log", null, true, null);
			case AUTO, KUBERNETES -> writing(mode, logEvents, applicationSink.get(), connectionDetails, clientChoice);
		};
	}

	private static KubeEventsStatus writing(SinkMode mode, boolean logEvents, @Nullable SinkTarget applicationSink,
			KubeEventsConnectionDetails connectionDetails, @Nullable Supplier<ClientChoice> clientChoice) {
		if (applicationSink != null) {
			return new KubeEventsStatus(mode, EffectiveSink.KUBERNETES, applicationSink.description(), null, logEvents,
					applicationSink);
		}
		ClientChoice choice = (clientChoice != null) ? clientChoice.get() : null;
		if (choice != null && choice.other() != null) {
			return throughOtherClient(mode, logEvents, connectionDetails, choice.other(), choice);
		}
		ConnectionDetailsEventsClient official = (choice != null) ? choice.official() : null;
		return resolveCluster(mode, logEvents, connectionDetails, (official != null) ? official::apiClient
				: connectionDetails::apiClient, (choice != null) ? choice.why() : null);
	}

	/**
	 * A client other than the official one of the connection details (the application's fabric8
	 * {@code KubernetesClient} bean, an {@code EventsClient} bean of the application) is a client, not a cluster:
	 * events are written through it only where the official client would write (the connection details find a
	 * cluster: in a pod, a kubeconfig allowed by the properties, an {@code ApiClient} or
	 * {@code KubeEventsConnectionDetails} bean). Otherwise {@code auto} only logs events and {@code kubernetes} fails,
	 * as without the bean; fabric8's own fallback to {@code https://kubernetes.default.svc/} would retry and drop
	 * every event.
	 */
	private static KubeEventsStatus throughOtherClient(SinkMode mode, boolean logEvents,
			KubeEventsConnectionDetails connectionDetails, SinkTarget.OtherClient client, ClientChoice choice) {
		String cluster;
		try {
			cluster = clusterOf(connectionDetails);
		}
		catch (NoKubernetesClusterException ex) {
			if (mode == SinkMode.KUBERNETES) {
				throw ex.withNote(choice.notACluster());
			}
			return new KubeEventsStatus(mode, EffectiveSink.LOG, ex.logOnlyReason() + "; " + choice.notACluster(),
					null, true, null);
		}
		return new KubeEventsStatus(mode, EffectiveSink.KUBERNETES, client.description() + "; cluster: " + cluster,
				client.apiServer(), logEvents, client, choice.why());
	}

	/**
	 * Where the connection details find a cluster; details of the application's own are a cluster as they are
	 * (their client is not built).
	 * @throws NoKubernetesClusterException when the auto-configured details find none
	 */
	private static String clusterOf(KubeEventsConnectionDetails connectionDetails) {
		if (connectionDetails instanceof DetectedKubeEventsConnectionDetails detected) {
			detected.apiClient();
			return detected.description();
		}
		return "connection details: " + connectionDetails.description();
	}

	private static KubeEventsStatus resolveCluster(SinkMode mode, boolean logEvents,
			KubeEventsConnectionDetails connectionDetails, Supplier<ApiClient> officialClient,
			@Nullable String clientReason) {
		ApiClient client;
		try {
			client = officialClient.get();
		}
		catch (NoKubernetesClusterException ex) {
			if (mode == SinkMode.KUBERNETES) {
				throw ex;
			}
			return new KubeEventsStatus(mode, EffectiveSink.LOG, ex.logOnlyReason(), null, true, null);
		}
		String reason = (connectionDetails instanceof DetectedKubeEventsConnectionDetails detected)
				? detected.description() : "connection details: " + connectionDetails.description();
		return new KubeEventsStatus(mode, EffectiveSink.KUBERNETES, reason, client.getBasePath(), logEvents,
				new SinkTarget.Client(client), clientReason);
	}

}
