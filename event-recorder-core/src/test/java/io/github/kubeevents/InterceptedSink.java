package io.github.kubeevents;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * A sink over another (a {@link StoredEvents} sink) for the writers' tests: it keeps the body of every request and
 * fails the next requests of a verb as scripted, where the store itself would not refuse (a 403 on a patch, a 422).
 *
 * <p>Thread-safe.
 *
 * @param <E> the Event type
 * @param <P> the patch type
 */
final class InterceptedSink<E extends KubernetesObject, P extends Sink.Patch> implements Sink<E, P> {

	/**
	 * One request.
	 * @param verb {@code create}, {@code patch} or {@code get}
	 * @param body the Event a create or patch was given ({@code null} for a get)
	 * @param patch the patch ({@code null} but for a patch)
	 */
	record Request<E>(String verb, @Nullable E body, Sink.@Nullable Patch patch) {
	}

	private final Sink<E, P> store;

	private final List<Request<E>> requests = new CopyOnWriteArrayList<>();

	private final Map<String, Queue<EventSinkException>> failures = new ConcurrentHashMap<>();

	InterceptedSink(Sink<E, P> store) {
		this.store = store;
	}

	/** Fails the next {@code verb} request with {@code failure} (before it reaches the store). */
	InterceptedSink<E, P> failNext(String verb, EventSinkException failure) {
		this.failures.computeIfAbsent(verb, (key) -> new ConcurrentLinkedQueue<>()).add(failure);
		return this;
	}

	List<Request<E>> requests() {
		return List.copyOf(this.requests);
	}

	/** The verbs of the requests so far, in order. */
	List<String> verbs() {
		return this.requests.stream().map(Request::verb).toList();
	}

	/** The bodies of the creates so far, in order. */
	List<E> created() {
		return this.requests.stream().filter((request) -> "create".equals(request.verb())).map(Request::body).toList();
	}

	private void request(String verb, @Nullable E body, @Nullable P patch) throws EventSinkException {
		this.requests.add(new Request<>(verb, body, patch));
		Queue<EventSinkException> next = this.failures.get(verb);
		EventSinkException failure = (next != null) ? next.poll() : null;
		if (failure != null) {
			throw failure;
		}
	}

	@Override
	public E create(E event) throws EventSinkException {
		request("create", event, null);
		return this.store.create(event);
	}

	@Override
	public E patch(E event, P patch) throws EventSinkException {
		request("patch", event, patch);
		return this.store.patch(event, patch);
	}

	@Override
	public E get(String namespace, String name) throws EventSinkException {
		request("get", null, null);
		return this.store.get(namespace, name);
	}

	@Override
	public boolean supportsGet() {
		return this.store.supportsGet();
	}

}
