package io.github.kubeevents.fabric8;

import io.github.kubeevents.ApiAnswers;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.models.EventsV1Event;

/**
 * Writes events.k8s.io/v1 Events through a fabric8 {@code KubernetesClient}:
 * {@code POST /apis/events.k8s.io/v1/namespaces/{ns}/events} and the series as a strategic-merge {@code PATCH} of
 * {@code series.count} and {@code series.lastObservedTime} ({@link Fabric8Requests}); the same requests, bodies
 * and error classes as the recorder's sink over the official client.
 *
 * <p>Thread-safe.
 */
final class Fabric8EventsV1Sink implements EventsV1Sink {

	private final Fabric8Requests requests;

	Fabric8EventsV1Sink(Fabric8Requests requests) {
		this.requests = requests;
	}

	@Override
	public EventsV1Event create(EventsV1Event event) throws EventSinkException {
		String namespace = ApiAnswers.namespaceOf(event.getMetadata());
		return this.requests.post(path(namespace), event, EventsV1Event.class, "create");
	}

	@Override
	public EventsV1Event patch(EventsV1Event event, SeriesPatch patch) throws EventSinkException {
		String namespace = ApiAnswers.namespaceOf(event.getMetadata());
		String name = ApiAnswers.nameOf(event.getMetadata());
		return this.requests.patch(path(namespace) + "/" + name, patch.toMap(), EventsV1Event.class);
	}

	/** A GET of the Event, for the deterministic-names mode: the same request as the official sink's read. */
	@Override
	public EventsV1Event get(String namespace, String name) throws EventSinkException {
		return this.requests.get(path(namespace) + "/" + name, EventsV1Event.class);
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

	private static String path(String namespace) {
		return "/apis/events.k8s.io/v1/namespaces/" + namespace + "/events";
	}

}
