package io.github.kubeevents.autoconfigure.tracing;

import io.github.kubeevents.RecordedEvent;
import io.github.kubeevents.TraceContext.RequestSpan;
import io.github.kubeevents.TraceContext;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import org.jspecify.annotations.Nullable;

/**
 * The {@link TraceContext.Capture} of the OpenTelemetry API, for applications without Micrometer Tracing (the
 * OpenTelemetry
 * Java agent, or an SDK of their own): captures {@link Context#current()} when it holds a valid span; on the writer
 * thread makes it current around each request of the event's write and, with write spans, starts a span
 * {@code event <verb>} as its child (what the Micrometer capture's observation gives), so the agent's HTTP client
 * span nests under it.
 *
 * <p>Thread-safe.
 */
final class OpenTelemetryTraceCapture implements TraceContext.Capture {

	/** The instrumentation scope of the write spans. */
	static final String SCOPE = "io.github.kubeevents";

	private final @Nullable Tracer tracer;

	/**
	 * @param tracer what starts the write spans, or {@code null} for none (write spans off: the context is not
	 * made current either)
	 */
	OpenTelemetryTraceCapture(@Nullable Tracer tracer) {
		this.tracer = tracer;
	}

	@Override
	public @Nullable TraceContext capture() {
		Context context = Context.current();
		SpanContext span = Span.fromContext(context).getSpanContext();
		return span.isValid() ? new Captured(this.tracer, context, span) : null;
	}

	/** The context of one recording call. Immutable. */
	private record Captured(@Nullable Tracer tracer, Context context, SpanContext span) implements TraceContext {

		@Override
		public String traceparent() {
			return TraceContext.traceparent(this.span.getTraceId(), this.span.getSpanId(), this.span.isSampled());
		}

		@Override
		public RequestSpan startRequest(RecordedEvent event, String api, String verb) {
			if (this.tracer == null) {
				return RequestSpan.NONE;
			}
			Span write = this.tracer.spanBuilder("event " + verb)
				.setParent(this.context)
				.setSpanKind(SpanKind.INTERNAL)
				.setAttribute("kubeevents.api", api)
				.setAttribute("kubeevents.verb", verb)
				.setAttribute("kubeevents.event.type", event.type().value())
				.setAttribute("kubeevents.event.reason", event.reason())
				.setAttribute("kubeevents.event.object", event.regarding().kind() + " " + event.regarding().displayName())
				.startSpan();
			Scope scope = this.context.with(write).makeCurrent();
			return (result) -> {
				try {
					write.setAttribute("kubeevents.result", result);
					if (!"success".equals(result)) {
						write.setStatus(StatusCode.ERROR, result);
					}
					write.end();
				}
				finally {
					scope.close();
				}
			};
		}

		@Override
		public String toString() {
			return traceparent();
		}

	}

}
