package io.github.kubeevents;

import java.time.Duration;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventSink;

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
 * <p>Like client-go's REST layer, a 429 or 5xx answer that carries a {@code Retry-After} header (in seconds) is
 * retried here, up to {@value #MAX_RETRY_AFTER_RETRIES} times, waiting what the server asked for (capped at
 * {@link #MAX_RETRY_AFTER}). Once these retries are used up the failure is
 * {@link EventSinkException.Kind#UNAVAILABLE}, which the recorder retries on its retry policy (client-go drops
 * it). Any other HTTP status reaches the caller as {@link EventSinkException.Kind#HTTP_STATUS}.
 *
 * <p>Failures are classified: I/O (the client's {@code ApiException} with code 0, timeouts included) →
 * {@link EventSinkException.Kind#TRANSPORT}; an HTTP status → {@link EventSinkException.Kind#HTTP_STATUS} (with
 * the Status reason and whether a cause says {@code NamespaceTerminating}); an answer that does not parse as an
 * Event → {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}; a request that cannot be built →
 * {@link EventSinkException.Kind#REQUEST_CONSTRUCTION}.
 *
 * <p>{@link #abort()} cancels the requests in flight (an interrupt does not end a TLS handshake or a read from a
 * frozen server; cancelling the OkHttp call closes its socket) and makes later ones fail at once.
 *
 * <p>Thread-safe (as thread-safe as the {@link ApiClient}).
 */
public final class CoreV1EventSink implements EventSink {

	/** client-go's {@code maxRetries} for responses with Retry-After. */
	public static final int MAX_RETRY_AFTER_RETRIES = 10;

	/** The longest Retry-After wait honoured. */
	public static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

	/** The time limit of one request unless another is given. */
	public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);

	/** The content type of a strategic-merge patch. */
	public static final String STRATEGIC_MERGE_PATCH = ApiCalls.STRATEGIC_MERGE_PATCH;

	private final ApiCalls calls;

	private final CoreV1Api api;

	/**
	 * A sink writing through {@code apiClient} with the default request timeout, waiting for real on Retry-After
	 * (woken by {@link #cancel()}).
	 * @param apiClient the client (its base path and authentication are used as they are)
	 */
	public CoreV1EventSink(ApiClient apiClient) {
		this(apiClient, Sleeper.cancellable(), DEFAULT_REQUEST_TIMEOUT);
	}

	/**
	 * A sink writing through {@code apiClient} with the default request timeout.
	 * @param apiClient the client
	 * @param sleeper waits for Retry-After (interrupting it abandons the request)
	 */
	public CoreV1EventSink(ApiClient apiClient, Sleeper sleeper) {
		this(apiClient, sleeper, DEFAULT_REQUEST_TIMEOUT);
	}

	/**
	 * A sink writing through {@code apiClient}.
	 * @param apiClient the client
	 * @param sleeper waits for Retry-After (interrupting it abandons the request)
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for none
	 */
	public CoreV1EventSink(ApiClient apiClient, Sleeper sleeper, Duration requestTimeout) {
		this.calls = new ApiCalls(apiClient, sleeper, requestTimeout);
		this.api = new CoreV1Api(apiClient);
	}

	@Override
	public CoreV1Event create(CoreV1Event event) throws EventSinkException {
		String namespace = ApiCalls.requireNamespace((event.getMetadata() != null) ? event.getMetadata().getNamespace() : null);
		return this.calls.call(() -> this.api.createNamespacedEvent(namespace, event).buildCall(null), CoreV1Event.class,
				"create");
	}

	@Override
	public CoreV1Event patch(CoreV1Event event, EventSink.CountPatch patch) throws EventSinkException {
		String namespace = ApiCalls.requireNamespace((event.getMetadata() != null) ? event.getMetadata().getNamespace() : null);
		String name = ApiCalls.requireName(event.getMetadata().getName());
		return this.calls.patch(() -> this.api.patchNamespacedEvent(name, namespace, new V1Patch("{}")).buildCall(null),
				patch.toMap(), CoreV1Event.class);
	}

	/**
	 * Stops honouring Retry-After: a wait in progress ends and the throttled call fails with its HTTP status.
	 */
	@Override
	public void cancel() {
		this.calls.cancel();
	}

	/**
	 * Cancels every request in flight and fails later ones at once (the shutdown deadline passed).
	 */
	@Override
	public void abort() {
		this.calls.abort();
	}

}
