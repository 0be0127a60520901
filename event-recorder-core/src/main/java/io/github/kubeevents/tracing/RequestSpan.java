package io.github.kubeevents.tracing;

/**
 * What {@link TraceContext#startRequest} started for one request to the API server: ends its span
 * (when it started one) and restores the writer thread's previous context (SPI).
 *
 * <p>Used once, on the thread that started it.
 */
@FunctionalInterface
public interface RequestSpan {

	/** Nothing started, nothing to end. */
	RequestSpan NONE = (result) -> {
	};

	/**
	 * The request finished. Must not throw (an exception is logged once and ignored).
	 * @param result {@code success}, {@code client_error}, {@code server_error}, {@code transport_error},
	 * {@code unexpected_response} or {@code invalid_request} (the {@code result} tag of the
	 * {@code kubeevents.sink.requests} timer)
	 */
	void end(String result);

}
