package io.github.kubeevents;

import java.time.Duration;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;

/**
 * Writes events.k8s.io/v1 Events through the official Kubernetes Java client's {@link EventsV1Api}: CREATE with
 * the generated API (the client writes {@code eventTime} as a {@code MicroTime}, six fractional digits, UTC), the
 * series as a strategic-merge PATCH of {@code series.count} and {@code series.lastObservedTime}. Requests have a
 * time limit, are cancelled by {@link #abort()} and fail with classified {@link EventSinkException}s, exactly like
 * {@link CoreV1EventSink}.
 *
 * <p>Thread-safe (as thread-safe as the {@link ApiClient}).
 */
final class EventsV1EventSink implements EventsV1Sink {

	private final ApiCalls calls;

	private final EventsV1Api api;

	/**
	 * A sink writing through {@code apiClient}.
	 * @param apiClient the client
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for none
	 */
	EventsV1EventSink(ApiClient apiClient, Duration requestTimeout) {
		this.calls = new ApiCalls(apiClient, requestTimeout);
		this.api = new EventsV1Api(apiClient);
	}

	@Override
	public EventsV1Event create(EventsV1Event event) throws EventSinkException {
		String namespace = ApiCalls.requireNamespace(event.getMetadata());
		return this.calls.call(() -> this.api.createNamespacedEvent(namespace, event).buildCall(null),
				EventsV1Event.class, "create");
	}

	@Override
	public EventsV1Event patch(EventsV1Event event, SeriesPatch patch) throws EventSinkException {
		String namespace = ApiCalls.requireNamespace(event.getMetadata());
		String name = ApiCalls.requireName(event.getMetadata());
		return this.calls.patch(() -> this.api.patchNamespacedEvent(name, namespace, new V1Patch("{}")).buildCall(null),
				patch.toMap(), EventsV1Event.class);
	}

	@Override
	public EventsV1Event get(String namespace, String name) throws EventSinkException {
		return this.calls.call(() -> this.api.readNamespacedEvent(name, namespace).buildCall(null), EventsV1Event.class, "get");
	}

	@Override
	public boolean supportsGet() {
		return true;
	}

	@Override
	public void abort() {
		this.calls.abort();
	}

	@Override
	public void resume() {
		this.calls.resume();
	}

	@Override
	public void stopped() {
		this.calls.closeIdleConnections();
	}

}
