package io.github.kubeevents;

import org.jspecify.annotations.Nullable;

/**
 * The trace context of the caller that recorded an event, captured by a {@link Capture} and carried with the event
 * ({@code RecordedEvent#traceContext()}) to the sink's writer thread (SPI).
 *
 * <p>Immutable and thread-safe: it is captured on the recording thread and used on a writer thread.
 */
public interface TraceContext {

	/**
	 * The annotation key of the W3C trace context on Events when the option is on: {@value}, as Tekton writes it on
	 * its Events (pipeline#9784) and as the header of W3C Trace Context is named. KEP-5915's
	 * {@code tracing.k8s.io/traceparent} is provisional, is about objects other than Events, and its
	 * {@code k8s.io} prefix is reserved for Kubernetes' own components; set it with
	 * {@code EventBroadcaster.Builder#traceparentAnnotation(String)} when your tooling reads that key.
	 */
	String TRACEPARENT_ANNOTATION = "traceparent";

	/**
	 * The context as a W3C Trace Context {@code traceparent} value: {@code 00-<trace id>-<span id>-<flags>}, e.g.
	 * {@code 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01}. Called on a writer thread, only when the
	 * annotation is written.
	 * @return the value (see {@link #traceparent(String, String, boolean)})
	 */
	String traceparent();

	/**
	 * Called on the writer thread before each request of the event's write to the API server (create, patch, and
	 * the reads of the deterministic-names mode): makes this context current, so that the HTTP client's
	 * instrumentation (the OpenTelemetry Java agent's) makes its span a child of the caller's, and may start a
	 * span of its own for the request (named after the event: its reason, type and object are what a tracing UI
	 * shows). The returned span is ended, on the same thread, right after the request. Must not throw (an
	 * exception is logged once and the request made without context). The default does nothing.
	 * @param event the occurrence the write stands for (whose {@link RecordedEvent#traceContext()} this is)
	 * @param api {@code core/v1} or {@code events.k8s.io/v1}
	 * @param verb {@code create}, {@code patch} or {@code get}
	 * @return what ends the request's span and leaves the context, or {@link RequestSpan#NONE}
	 */
	default RequestSpan startRequest(RecordedEvent event, String api, String verb) {
		return RequestSpan.NONE;
	}

	/**
	 * Formats a W3C {@code traceparent} (version {@code 00}).
	 * @param traceId the trace id, 32 lowercase hex digits (a 16-digit id is left-padded with zeros)
	 * @param spanId the span id, 16 lowercase hex digits
	 * @param sampled whether the trace is sampled (flags {@code 01}, else {@code 00})
	 * @return {@code 00-<traceId>-<spanId>-<flags>}
	 */
	static String traceparent(String traceId, String spanId, boolean sampled) {
		StringBuilder value = new StringBuilder(55).append("00-");
		for (int i = traceId.length(); i < 32; i++) {
			value.append('0');
		}
		return value.append(traceId).append('-').append(spanId).append(sampled ? "-01" : "-00").toString();
	}

	/**
	 * What {@link TraceContext#startRequest} started for one request to the API server: ends its span
	 * (when it started one) and restores the writer thread's previous context (SPI).
	 *
	 * <p>Used once, on the thread that started it.
	 */
	@FunctionalInterface
	interface RequestSpan {

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

	/**
	 * Captures the recording thread's current trace context when an event is recorded (SPI): the starter's
	 * implementation reads Micrometer Tracing's current span; an application with another tracer implements it and
	 * passes it to {@code EventBroadcaster.Builder#tracing}.
	 *
	 * <p>Called on the caller's thread by every {@code record}/{@code eventf} call of a broadcaster's recorders, so it
	 * must be one cheap call that never blocks: read the current context and return an immutable reference to it
	 * (no formatting, no allocation beyond that reference). An exception is caught (the event is recorded without
	 * context, one WARN for the broadcaster's lifetime). Implementations are thread-safe.
	 */
	@FunctionalInterface
	interface Capture {

		/** Captures nothing: the default of a broadcaster, which then makes no call at all. */
		Capture NONE = () -> null;

		/**
		 * The current trace context of the calling thread.
		 * @return an immutable reference to it, or {@code null} when there is none (no current span)
		 */
		@Nullable TraceContext capture();

	}

}
