package io.github.kubeevents.autoconfigure.tracing;

import io.github.kubeevents.RecordedEvent;
import io.github.kubeevents.TraceContext.RequestSpan;
import io.github.kubeevents.TraceContext;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.CurrentTraceContext;
import io.micrometer.tracing.Tracer;
import org.jspecify.annotations.Nullable;

/**
 * The {@link TraceContext.Capture} of Micrometer Tracing: captures the current span's context (one call of
 * {@link CurrentTraceContext#context()}, an immutable reference, whatever the bridge: OpenTelemetry or Brave); on
 * the writer thread it makes that context current around each request of the event's write and, with write spans,
 * starts the observation {@value #OBSERVATION} as its child, so the write, and an HTTP client span of the
 * OpenTelemetry Java agent inside it, join the caller's trace.
 *
 * <p>Thread-safe.
 */
final class MicrometerTraceCapture implements TraceContext.Capture {

	/** The observation of one API server request of an event's write. */
	static final String OBSERVATION = "kubeevents.event.write";

	private final CurrentTraceContext current;

	private final boolean writeSpans;

	private final @Nullable ObservationRegistry registry;

	MicrometerTraceCapture(Tracer tracer, boolean writeSpans, @Nullable ObservationRegistry registry) {
		this.current = tracer.currentTraceContext();
		this.writeSpans = writeSpans;
		this.registry = (registry != null && !registry.isNoop()) ? registry : null;
	}

	@Override
	public @Nullable TraceContext capture() {
		io.micrometer.tracing.TraceContext context = this.current.context();
		return (context != null) ? new Captured(this, context) : null;
	}

	/** The span context of one recording call. Immutable. */
	private record Captured(MicrometerTraceCapture capture, io.micrometer.tracing.TraceContext context)
			implements TraceContext {

		@Override
		public String traceparent() {
			return TraceContext.traceparent(this.context.traceId(), this.context.spanId(),
					Boolean.TRUE.equals(this.context.sampled()));
		}

		@Override
		public RequestSpan startRequest(RecordedEvent event, String api, String verb) {
			return this.capture.startRequest(this.context, event, api, verb);
		}

		@Override
		public String toString() {
			return traceparent();
		}

	}

	private RequestSpan startRequest(io.micrometer.tracing.TraceContext context, RecordedEvent event, String api,
			String verb) {
		if (!this.writeSpans) {
			return RequestSpan.NONE;
		}
		CurrentTraceContext.Scope scope = this.current.maybeScope(context);
		if (this.registry == null) {
			return (result) -> scope.close();
		}
		Observation observation = Observation.createNotStarted(OBSERVATION, this.registry)
			.contextualName("event " + verb)
			.lowCardinalityKeyValue("kubeevents.api", api)
			.lowCardinalityKeyValue("kubeevents.verb", verb)
			.highCardinalityKeyValue("kubeevents.event.type", event.type().value())
			.highCardinalityKeyValue("kubeevents.event.reason", event.reason())
			.highCardinalityKeyValue("kubeevents.event.object", event.regarding().kind() + " "
					+ event.regarding().displayName())
			.start();
		Observation.Scope observationScope = observation.openScope();
		return (result) -> {
			try {
				observation.lowCardinalityKeyValue(KeyValue.of("kubeevents.result", result));
				observationScope.close();
				observation.stop();
			}
			finally {
				scope.close();
			}
		};
	}

}
