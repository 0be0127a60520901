package io.github.kubeevents.autoconfigure;

import java.time.Duration;
import java.util.Objects;

import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import org.jspecify.annotations.Nullable;

/**
 * The official client of the {@link KubeEventsConnectionDetails} as an {@link EventsClient}: the bean the official
 * client configuration contributes. Builds nothing until first used: the details are asked for their client once,
 * on the first call (when the status is resolved in modes {@code auto} and {@code kubernetes}; never in modes
 * {@code log} and {@code none}), and that client is kept.
 *
 * <p>Thread-safe.
 */
final class ConnectionDetailsEventsClient implements EventsClient {

	private final KubeEventsConnectionDetails connectionDetails;

	private final Object monitor = new Object();

	private @Nullable ApiClient apiClient;

	/**
	 * The official client of {@code connectionDetails}.
	 * @param connectionDetails where the cluster's client comes from
	 */
	ConnectionDetailsEventsClient(KubeEventsConnectionDetails connectionDetails) {
		this.connectionDetails = Objects.requireNonNull(connectionDetails, "connectionDetails");
	}

	/**
	 * The connection details this client writes through.
	 * @return the details
	 */
	KubeEventsConnectionDetails connectionDetails() {
		return this.connectionDetails;
	}

	/**
	 * The details' client; the same instance on every call.
	 * @return the client
	 * @throws NoKubernetesClusterException when auto-configured details find no usable cluster
	 */
	ApiClient apiClient() {
		synchronized (this.monitor) {
			if (this.apiClient == null) {
				this.apiClient = this.connectionDetails.apiClient();
			}
			return this.apiClient;
		}
	}

	@Override
	public Sink<CoreV1Event, EventSink.CountPatch> coreV1Sink(Duration requestTimeout) {
		return official().coreV1Sink(requestTimeout);
	}

	@Override
	public Sink<EventsV1Event, EventsV1Sink.SeriesPatch> eventsV1Sink(Duration requestTimeout) {
		return official().eventsV1Sink(requestTimeout);
	}

	@Override
	public boolean servesEventsV1(Duration timeout) throws EventSinkException {
		return official().servesEventsV1(timeout);
	}

	@Override
	public boolean eventsAllowed(String apiGroup, String verb, @Nullable String namespace, Duration timeout)
			throws EventSinkException {
		return official().eventsAllowed(apiGroup, verb, namespace, timeout);
	}

	/** The official client's view of {@link #apiClient()}: stateless, so one per call costs an allocation only. */
	private EventsClient official() {
		return EventsClient.of(apiClient());
	}

	@Override
	public String toString() {
		return "official client of " + this.connectionDetails.description();
	}

}
