package io.github.kubeevents.sink;

import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * Where the Events of one events API are written: client-go's {@code EventSink} of {@code tools/record} and of
 * {@code tools/events} without {@code Update}, which the recorder never calls, plus the read of the
 * deterministic-names mode and the lifecycle calls of the recorder's stop and restart. Implement it through
 * {@link EventSink} (core/v1) or {@link EventsV1Sink} (events.k8s.io/v1), which say the requests; an
 * {@link EventsClient} returns one of each. The sink writes into the namespace of the event and classifies its
 * failures ({@link EventSinkException}); it does not retry (the recorder does).
 *
 * <p>Implementations must be thread-safe: the recorder writes from several threads (different objects), and the
 * lifecycle calls ({@link #cancel()}, {@link #abort()}, ...) come from the stopping thread while a write may be in
 * progress.
 *
 * @param <E> the Event type of the API, a client-java model
 * @param <P> the patch of a repeated Event in that API
 */
public interface Sink<E extends KubernetesObject, P extends Sink.Patch> {

	/**
	 * Creates the Event ({@code POST .../namespaces/{ns}/events}).
	 * @param event the event to create
	 * @return the Event the server stored
	 * @throws EventSinkException classified by {@link EventSinkException#kind()}; a {@code RuntimeException}
	 * instead is retried like {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}
	 */
	E create(E event) throws EventSinkException;

	/**
	 * Patches an existing Event ({@code PATCH .../namespaces/{ns}/events/{name}}, strategic merge): send
	 * {@link Patch#toMap()} whole, null values included.
	 * @param event the event being updated (its name and namespace address the target)
	 * @param patch the fields to change
	 * @return the Event the server stored
	 * @throws EventSinkException classified by {@link EventSinkException#kind()}; a {@code RuntimeException}
	 * instead is retried like {@link EventSinkException.Kind#UNEXPECTED_RESPONSE}
	 */
	E patch(E event, P patch) throws EventSinkException;

	/**
	 * Reads an Event ({@code GET .../namespaces/{ns}/events/{name}}). Only the deterministic-names mode calls it
	 * (to continue an Event that another process wrote), and only when {@link #supportsGet()} says so.
	 * @param namespace the Event's namespace
	 * @param name the Event's name
	 * @return the Event the server has
	 * @throws EventSinkException classified like the other calls (404 when there is none); the default fails with
	 * {@link EventSinkException.Kind#REQUEST_CONSTRUCTION}
	 */
	default E get(String namespace, String name) throws EventSinkException {
		throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
				getClass().getName() + " cannot read Events", null);
	}

	/**
	 * Whether {@link #get} is implemented and {@link Patch#resourceVersion()} is sent as a precondition (both are,
	 * when the patch is written as {@link Patch#toMap()}). Without both, the deterministic-names mode keeps
	 * client-go's names for this sink. The default is {@code false}.
	 * @return whether the sink can continue Events that another process wrote
	 */
	default boolean supportsGet() {
		return false;
	}

	/**
	 * Called when the recorder stops or shuts down: a sink that waits inside a call should stop waiting and fail
	 * that call at once. The default does nothing.
	 */
	default void cancel() {
	}

	/**
	 * Called when the stop or shutdown deadline has passed: cancel the requests in flight (so a thread blocked on
	 * a frozen server returns) and fail later calls at once, until {@link #resume()}. The default does nothing.
	 */
	default void abort() {
	}

	/**
	 * Called when the recorder starts again after a stop: calls may be made again. The default does nothing.
	 */
	default void resume() {
	}

	/**
	 * Called when the recorder has stopped (its threads ended): release what is idle, e.g. pooled connections, so
	 * nothing stays open while stopped (a checkpoint, a paused test context). A {@link #resume()} may follow. The
	 * default does nothing.
	 */
	default void stopped() {
	}

	/**
	 * The strategic-merge patch of a repeated Event, as the recorder builds it: {@link EventSink.CountPatch}
	 * (core/v1) or {@link EventsV1Sink.SeriesPatch} (events.k8s.io/v1).
	 *
	 * <p>Immutable and thread-safe.
	 */
	sealed interface Patch permits EventSink.CountPatch, EventsV1Sink.SeriesPatch {

		/**
		 * The patch body as an ordered map, ready to be serialised with the client's JSON (never by string
		 * formatting); it may hold JSON {@code null} values, which remove fields and must be written.
		 * @return the body
		 */
		Map<String, Object> toMap();

		/**
		 * The resourceVersion the Event must still have (a precondition: 409 Conflict when the Event changed
		 * meanwhile), sent as {@code metadata.resourceVersion} by {@link #toMap()}; only in the deterministic-names
		 * mode.
		 * @return the resourceVersion, or {@code null} for an unconditional patch
		 */
		@Nullable String resourceVersion();

		/**
		 * Annotations to set on the Event, merged into its own (the {@code traceparent} of the latest occurrence
		 * when that option is on), sent as {@code metadata.annotations} by {@link #toMap()}.
		 * @return the annotations, empty for none
		 */
		Map<String, String> annotations();

	}

	/**
	 * Told about every request a sink makes to the API server, for latency metrics (the starter's
	 * {@code kubeevents.sink.requests} timer).
	 *
	 * <p>Called on the sink's thread right after each request; implementations must be fast, thread-safe and must
	 * not throw (an exception is logged once and ignored).
	 */
	@FunctionalInterface
	interface RequestListener {

		/** A listener that ignores everything. */
		RequestListener NONE = (api, verb, result, duration) -> {
		};

		/**
		 * One request finished.
		 * @param api {@code core/v1} or {@code events.k8s.io/v1}
		 * @param verb {@code create} or {@code patch}
		 * @param result {@code success}, {@code client_error} (4xx), {@code server_error} (5xx),
		 * {@code transport_error}, {@code unexpected_response} or {@code invalid_request}
		 * @param duration how long this request took; after a 429/5xx with {@code Retry-After}, the wait and the
		 * repeated request are not included (the repeat is reported as a request of its own)
		 */
		void requestCompleted(String api, String verb, String result, Duration duration);

		/**
		 * The result tag of a failed request.
		 * @param ex the failure
		 * @return the tag
		 */
		static String resultOf(EventSinkException ex) {
			return switch (ex.kind()) {
				case HTTP_STATUS, UNAVAILABLE -> (ex.statusCode() >= 500) ? "server_error" : "client_error";
				case TRANSPORT -> "transport_error";
				case UNEXPECTED_RESPONSE -> "unexpected_response";
				case REQUEST_CONSTRUCTION -> "invalid_request";
			};
		}

	}

}
