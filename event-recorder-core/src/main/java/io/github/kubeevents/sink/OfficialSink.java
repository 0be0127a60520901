package io.github.kubeevents.sink;

import java.time.Duration;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import okhttp3.Call;

/**
 * Writes the Events of one events API through the official Kubernetes Java client ({@code client-java-api}):
 * CREATE with the generated API (which writes an events.k8s.io/v1 {@code eventTime} as a {@code MicroTime}, six
 * fractional digits, UTC); a repeat as a strategic-merge PATCH of the {@link Sink.Patch}, the generated request with
 * its body and content type replaced by {@code application/strategic-merge-patch+json} (the generated one is
 * refused with 415), which is what client-java's {@code PatchUtils} does, without depending on {@code client-java};
 * the read of the deterministic-names mode with the generated API.
 *
 * <p>Each request has the time limit it is given (the broadcaster's default is 5 s): connecting, the TLS
 * handshake, writing and reading together. A server that accepts connections and never answers then costs an
 * attempt about what a refused connection costs, instead of holding the sink for a client's read timeout. client-go
 * has no such limit; the client's own timeouts still apply.
 *
 * <p>Failures are classified ({@link EventSinkException#of(ApiException)}): I/O (the client's {@code ApiException}
 * with code 0, timeouts included) → {@link EventSinkException.Kind#TRANSPORT}; an HTTP status →
 * {@link EventSinkException.Kind#HTTP_STATUS} (with the Status reason, whether a cause says
 * {@code NamespaceTerminating}, and a 429/5xx answer's Retry-After); an answer that does not parse as an Event →
 * {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}; a request that cannot be built →
 * {@link EventSinkException.Kind#REQUEST_CONSTRUCTION}.
 *
 * <p>{@link #abort()} cancels the requests in flight (an interrupt does not end a TLS handshake or a read from a
 * frozen server; cancelling the OkHttp call closes its socket) and makes later ones fail, until {@link #resume()}.
 *
 * <p>Thread-safe (as thread-safe as the {@link ApiClient}).
 *
 * @param <E> the Event type of the API
 * @param <P> its patch
 */
final class OfficialSink<E extends KubernetesObject, P extends Sink.Patch> implements Sink<E, P> {

	private final ApiCalls calls;

	private final Class<E> type;

	private final Creation<E> creation;

	private final Addressed patch;

	private final Addressed read;

	private OfficialSink(ApiClient apiClient, Duration requestTimeout, Class<E> type, Creation<E> creation,
			Addressed patch, Addressed read) {
		this.calls = new ApiCalls(apiClient, requestTimeout);
		this.type = type;
		this.creation = creation;
		this.patch = patch;
		this.read = read;
	}

	/**
	 * A core/v1 sink writing through {@code apiClient}.
	 * @param apiClient the client (its base path and authentication are used as they are)
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for none
	 */
	static OfficialSink<CoreV1Event, EventSink.CountPatch> coreV1(ApiClient apiClient, Duration requestTimeout) {
		CoreV1Api api = new CoreV1Api(apiClient);
		return new OfficialSink<>(apiClient, requestTimeout, CoreV1Event.class,
				(namespace, event) -> api.createNamespacedEvent(namespace, event).buildCall(null),
				(namespace, name) -> api.patchNamespacedEvent(name, namespace, new V1Patch("{}")).buildCall(null),
				(namespace, name) -> api.readNamespacedEvent(name, namespace).buildCall(null));
	}

	/** An events.k8s.io/v1 sink writing through {@code apiClient}, as {@link #coreV1} makes a core/v1 one. */
	static OfficialSink<EventsV1Event, EventsV1Sink.SeriesPatch> eventsV1(ApiClient apiClient,
			Duration requestTimeout) {
		EventsV1Api api = new EventsV1Api(apiClient);
		return new OfficialSink<>(apiClient, requestTimeout, EventsV1Event.class,
				(namespace, event) -> api.createNamespacedEvent(namespace, event).buildCall(null),
				(namespace, name) -> api.patchNamespacedEvent(name, namespace, new V1Patch("{}")).buildCall(null),
				(namespace, name) -> api.readNamespacedEvent(name, namespace).buildCall(null));
	}

	@Override
	public E create(E event) throws EventSinkException {
		String namespace = EventsClient.namespaceOf(event.getMetadata());
		return this.calls.send(built("create", () -> this.creation.build(namespace, event)), this.type, "create");
	}

	@Override
	public E patch(E event, P patch) throws EventSinkException {
		String namespace = EventsClient.namespaceOf(event.getMetadata());
		String name = EventsClient.nameOf(event.getMetadata());
		return this.calls.sendPatch(built("patch", () -> this.patch.build(namespace, name)), patch.toMap(), this.type);
	}

	@Override
	public E get(String namespace, String name) throws EventSinkException {
		return this.calls.send(built("get", () -> this.read.build(namespace, name)), this.type, "get");
	}

	/** A generated request, built here: one that cannot be built is invalid input, never retried. */
	private static Call built(String verb, Generated generated) throws EventSinkException {
		try {
			return generated.build();
		}
		catch (ApiException | RuntimeException ex) {
			throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
					"Unable to construct " + verb + " request: " + ex.getMessage(), ex);
		}
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

	/** One generated request, as built by the lambdas of this sink. */
	@FunctionalInterface
	private interface Generated {

		Call build() throws ApiException;

	}

	/** A generated CREATE request (the generated APIs share no type). */
	@FunctionalInterface
	private interface Creation<E> {

		Call build(String namespace, E event) throws ApiException;

	}

	/**
	 * A generated request for one Event; a PATCH is built with an empty body, which {@link ApiCalls#sendPatch}
	 * replaces.
	 */
	@FunctionalInterface
	private interface Addressed {

		Call build(String namespace, String name) throws ApiException;

	}

}
