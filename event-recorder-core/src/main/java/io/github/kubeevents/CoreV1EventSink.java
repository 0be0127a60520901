package io.github.kubeevents;

import java.time.Duration;

import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * Writes core/v1 Events through the official Kubernetes Java client ({@code client-java-api}): CREATE with the
 * generated API; a repeat as a strategic-merge PATCH, the generated request with its body and content type
 * replaced by {@code application/strategic-merge-patch+json} (the generated one is refused with 415), which is
 * what client-java's {@code PatchUtils} does, without depending on {@code client-java}.
 *
 * <p>Each request has a time limit ({@link #DEFAULT_REQUEST_TIMEOUT} unless given): connecting, the TLS
 * handshake, writing and reading together. A server that accepts connections and never answers then costs an
 * attempt about what a refused connection costs, instead of holding the sink for a client's read timeout. client-go
 * has no such limit; the client's own timeouts still apply.
 *
 * <p>Failures are classified ({@link ApiErrors}): I/O (the client's {@code ApiException} with code 0, timeouts
 * included) → {@link EventSinkException.Kind#TRANSPORT}; an HTTP status → {@link EventSinkException.Kind#HTTP_STATUS}
 * (with the Status reason, whether a cause says {@code NamespaceTerminating}, and a 429/5xx answer's Retry-After);
 * an answer that does not parse as an Event → {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}; a request that
 * cannot be built → {@link EventSinkException.Kind#REQUEST_CONSTRUCTION}.
 *
 * <p>{@link #abort()} cancels the requests in flight (an interrupt does not end a TLS handshake or a read from a
 * frozen server; cancelling the OkHttp call closes its socket) and makes later ones fail, until {@link #resume()}.
 *
 * <p>Thread-safe (as thread-safe as the {@link ApiClient}).
 */
final class CoreV1EventSink implements EventSink {

	/** The time limit of one request unless another is given. */
	static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);

	private final ApiCalls calls;

	private final CoreV1Api api;

	/**
	 * A sink writing through {@code apiClient}.
	 * @param apiClient the client (its base path and authentication are used as they are)
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for none
	 */
	CoreV1EventSink(ApiClient apiClient, Duration requestTimeout) {
		this.calls = new ApiCalls(apiClient, requestTimeout);
		this.api = new CoreV1Api(apiClient);
	}

	@Override
	public CoreV1Event create(CoreV1Event event) throws EventSinkException {
		String namespace = ApiCalls.requireNamespace(event.getMetadata());
		return this.calls.call(() -> this.api.createNamespacedEvent(namespace, event).buildCall(null), CoreV1Event.class,
				"create");
	}

	@Override
	public CoreV1Event patch(CoreV1Event event, CountPatch patch) throws EventSinkException {
		String namespace = ApiCalls.requireNamespace(event.getMetadata());
		String name = ApiCalls.requireName(event.getMetadata());
		return this.calls.patch(() -> this.api.patchNamespacedEvent(name, namespace, new V1Patch("{}")).buildCall(null),
				patch.toMap(), CoreV1Event.class);
	}

	@Override
	public CoreV1Event get(String namespace, String name) throws EventSinkException {
		return this.calls.call(() -> this.api.readNamespacedEvent(name, namespace).buildCall(null), CoreV1Event.class, "get");
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

	ApiClient apiClient() {
		return this.calls.apiClient();
	}

}
