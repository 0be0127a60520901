package io.github.kubeevents.benchmarks;

import java.lang.reflect.Constructor;
import java.util.List;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.TraceContext;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;

/**
 * {@code PacedCaller --tracing capture|annotation}: Micrometer Tracing on the OpenTelemetry SDK (every span
 * sampled and exported to a no-op exporter), the starter's own capture ({@code MicrometerTraceCapture}, with write
 * spans as in the starter's defaults), and the caller thread inside one span for the whole run, so every call
 * captures a context. Loaded by reflection, so {@code PacedCaller} still builds against versions without tracing.
 */
public final class PacedTracing {

	private PacedTracing() {
	}

	/**
	 * Configures {@code builder} and opens a span on the calling thread (never closed: the process ends).
	 * @param builder the broadcaster's builder
	 * @param mode {@code capture} (the starter's defaults: write spans, no annotation) or {@code annotation}
	 * @return the builder
	 * @throws ReflectiveOperationException when the starter's capture cannot be created
	 */
	public static EventBroadcaster.Builder configure(EventBroadcaster.Builder builder, String mode)
			throws ReflectiveOperationException {
		SdkTracerProvider provider = SdkTracerProvider.builder()
			.setSampler(Sampler.alwaysOn())
			.addSpanProcessor(SimpleSpanProcessor.create(SpanExporter.composite()))
			.build();
		OtelCurrentTraceContext current = new OtelCurrentTraceContext();
		OtelTracer tracer = new OtelTracer(provider.get("paced"), current, (event) -> {
		}, new OtelBaggageManager(current, List.of(), List.of()));
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
		Constructor<?> constructor = Class.forName("io.github.kubeevents.autoconfigure.tracing.MicrometerTraceCapture")
			.getDeclaredConstructor(Tracer.class, boolean.class, ObservationRegistry.class);
		constructor.setAccessible(true);
		TraceContext.Capture capture = (TraceContext.Capture) constructor.newInstance(tracer, true, registry);
		Span span = tracer.nextSpan().name("paced-caller").start();
		tracer.withSpan(span);
		builder.tracing(capture);
		if (mode.equals("annotation")) {
			builder.traceparentAnnotation(TraceContext.TRACEPARENT_ANNOTATION);
		}
		else if (!mode.equals("capture")) {
			throw new IllegalArgumentException("--tracing must be off, capture or annotation, was " + mode);
		}
		return builder;
	}

}
