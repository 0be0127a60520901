package io.github.kubeevents.fabric8;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.common.KubernetesObject;

/**
 * Writes the Events of one events API through a fabric8 {@code KubernetesClient}: {@code POST} to the API's
 * {@code /namespaces/{ns}/events}, a repeat as a strategic-merge {@code PATCH} of the {@link Sink.Patch} (core/v1's
 * {@code count}, {@code lastTimestamp} and {@code message}, events.k8s.io/v1's series), and the {@code GET} of the
 * deterministic-names mode ({@link Fabric8Requests}); the same requests, bodies and error classes as the recorder's
 * sinks over the official client.
 *
 * <p>{@link #abort()} cancels the requests in flight and fails later ones until {@link #resume()}.
 *
 * <p>Thread-safe.
 *
 * @param <E> the Event type of the API
 * @param <P> its patch
 */
final class Fabric8Sink<E extends KubernetesObject, P extends Sink.Patch> implements Sink<E, P> {

	/** The path of core/v1's namespaces, to which {@code {ns}/events} is added. */
	static final String CORE_V1 = "/api/v1/namespaces/";

	/** The path of events.k8s.io/v1's namespaces, to which {@code {ns}/events} is added. */
	static final String EVENTS_V1 = "/apis/events.k8s.io/v1/namespaces/";

	private final Fabric8Requests requests;

	private final String namespaces;

	private final Class<E> type;

	/**
	 * @param requests how requests are made
	 * @param namespaces the API's namespaces path, {@link #CORE_V1} or {@link #EVENTS_V1}
	 * @param type the API's Event type
	 */
	Fabric8Sink(Fabric8Requests requests, String namespaces, Class<E> type) {
		this.requests = requests;
		this.namespaces = namespaces;
		this.type = type;
	}

	@Override
	public E create(E event) throws EventSinkException {
		String namespace = EventsClient.namespaceOf(event.getMetadata());
		return this.requests.post(path(namespace), event, this.type, "create");
	}

	@Override
	public E patch(E event, P patch) throws EventSinkException {
		String namespace = EventsClient.namespaceOf(event.getMetadata());
		String name = EventsClient.nameOf(event.getMetadata());
		return this.requests.patch(path(namespace) + "/" + name, patch.toMap(), this.type);
	}

	/** A GET of the Event, for the deterministic-names mode: the same request as the official sink's read. */
	@Override
	public E get(String namespace, String name) throws EventSinkException {
		return this.requests.get(path(namespace) + "/" + name, this.type);
	}

	@Override
	public boolean supportsGet() {
		return true;
	}

	@Override
	public void abort() {
		this.requests.abort();
	}

	@Override
	public void resume() {
		this.requests.resume();
	}

	private String path(String namespace) {
		return this.namespaces + namespace + "/events";
	}

}
