package io.github.kubeevents.fabric8;

import io.github.kubeevents.ApiAnswers;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * Writes core/v1 Events through a fabric8 {@code KubernetesClient}: {@code POST /api/v1/namespaces/{ns}/events}
 * and, for a repeat, a strategic-merge {@code PATCH} of {@code count}, {@code lastTimestamp} and {@code message}
 * ({@link Fabric8Requests}); the same requests, bodies and error classes as the recorder's sink over the official
 * client.
 *
 * <p>{@link #abort()} cancels the requests in flight and fails later ones until {@link #resume()}.
 *
 * <p>Thread-safe.
 */
final class Fabric8CoreV1Sink implements EventSink {

	private final Fabric8Requests requests;

	Fabric8CoreV1Sink(Fabric8Requests requests) {
		this.requests = requests;
	}

	@Override
	public CoreV1Event create(CoreV1Event event) throws EventSinkException {
		String namespace = ApiAnswers.namespaceOf(event.getMetadata());
		return this.requests.post(path(namespace), event, CoreV1Event.class, "create");
	}

	@Override
	public CoreV1Event patch(CoreV1Event event, CountPatch patch) throws EventSinkException {
		String namespace = ApiAnswers.namespaceOf(event.getMetadata());
		String name = ApiAnswers.nameOf(event.getMetadata());
		return this.requests.patch(path(namespace) + "/" + name, patch.toMap(), CoreV1Event.class);
	}

	/** A GET of the Event, for the deterministic-names mode: the same request as the official sink's read. */
	@Override
	public CoreV1Event get(String namespace, String name) throws EventSinkException {
		return this.requests.get(path(namespace) + "/" + name, CoreV1Event.class);
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
		return "/api/v1/namespaces/" + namespace + "/events";
	}

}
