package io.github.kubeevents.sink;

import java.time.Duration;

/**
 * Told about every request a sink makes to the API server, for latency metrics (the starter's
 * {@code kubeevents.sink.requests} timer).
 *
 * <p>Called on the sink's thread right after each request; implementations must be fast, thread-safe and must
 * not throw (an exception is logged once and ignored).
 */
@FunctionalInterface
public interface SinkRequestListener {

	/** A listener that ignores everything. */
	SinkRequestListener NONE = (api, verb, result, duration) -> {
	};

	/**
	 * One request finished.
	 * @param api {@code core/v1} or {@code events.k8s.io/v1}
	 * @param verb {@code create} or {@code patch}
	 * @param result {@code success}, {@code client_error} (4xx), {@code server_error} (5xx),
	 * {@code transport_error}, {@code unexpected_response} or {@code invalid_request}
	 * @param duration how long this request took; after a 429/5xx with {@code Retry-After}, the wait and the repeated
	 * request are not included (the repeat is reported as a request of its own)
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
