package io.github.kubeevents.testsupport;

import java.util.List;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;

/**
 * Micrometer Tracing on the OpenTelemetry SDK, as Spring Boot wires it for an application with
 * {@code micrometer-tracing-bridge-otel}: a {@link Tracer}, an {@link ObservationRegistry} whose observations
 * become spans, and every finished span kept in memory ({@link #spans()}).
 */
public final class TestTracing implements AutoCloseable {

	private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

	private final SdkTracerProvider provider = SdkTracerProvider.builder()
		.setSampler(Sampler.alwaysOn())
		.addSpanProcessor(SimpleSpanProcessor.create(this.exporter))
		.build();

	private final OtelTracer tracer;

	private final ObservationRegistry registry = ObservationRegistry.create();

	public TestTracing() {
		OtelCurrentTraceContext current = new OtelCurrentTraceContext();
		this.tracer = new OtelTracer(this.provider.get("test"), current, (event) -> {
		}, new OtelBaggageManager(current, List.of(), List.of()));
		this.registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(this.tracer));
	}

	public Tracer tracer() {
		return this.tracer;
	}

	/** The same SDK through the OpenTelemetry API, for applications without Micrometer Tracing. */
	public io.opentelemetry.api.OpenTelemetry openTelemetry() {
		return io.opentelemetry.sdk.OpenTelemetrySdk.builder().setTracerProvider(this.provider).build();
	}

	public ObservationRegistry observationRegistry() {
		return this.registry;
	}

	/** Every span ended so far. */
	public List<SpanData> spans() {
		return this.exporter.getFinishedSpanItems();
	}

	/** The ended spans of that name. */
	public List<SpanData> spans(String name) {
		return spans().stream().filter((span) -> span.getName().equals(name)).toList();
	}

	@Override
	public void close() {
		this.provider.close();
	}

}
