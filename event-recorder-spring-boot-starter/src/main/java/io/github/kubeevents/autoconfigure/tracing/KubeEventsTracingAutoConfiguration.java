package io.github.kubeevents.autoconfigure.tracing;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.autoconfigure.KubeEventsProperties;
import io.github.kubeevents.tracing.TraceCapture;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of trace context on
 * Events ({@code kubeevents.tracing.*}):
 * <ul>
 * <li>with Micrometer Tracing (a {@link Tracer} bean other than the no-op one Spring Boot declares without a
 * bridge), a {@link TraceCapture} that captures the current span at every {@code record}/{@code eventf} call,
 * unless both {@code kubeevents.tracing.write-spans} and {@code kubeevents.tracing.traceparent-annotation} are
 * off;</li>
 * <li>a customizer that hands the capture (the application's own {@link TraceCapture} bean when it declares one)
 * and the annotation option to the broadcaster.</li>
 * </ul>
 * Without Micrometer Tracing and without a {@link TraceCapture} bean nothing is configured and the recorder
 * captures nothing.
 */
@AutoConfiguration(after = KubeEventsAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration",
				"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration" })
@ConditionalOnClass(TraceCapture.class)
@ConditionalOnBean({ EventBroadcaster.class, KubeEventsProperties.class })
public final class KubeEventsTracingAutoConfiguration {

	/** The capture from Micrometer Tracing, when the application has it. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Tracer.class, ObservationRegistry.class })
	static class MicrometerTracingCapture {

		@Bean
		@ConditionalOnBean(Tracer.class)
		@ConditionalOnMissingBean(TraceCapture.class)
		TraceCapture kubeEventsTraceCapture(Tracer tracer, ObjectProvider<ObservationRegistry> observationRegistry,
				KubeEventsProperties properties) {
			KubeEventsProperties.Tracing tracing = properties.tracing();
			if (tracer == Tracer.NOOP || !tracing.captures()) {
				return TraceCapture.NONE;
			}
			ObservationRegistry registry = tracing.writeSpans() ? observationRegistry.getIfAvailable() : null;
			return new MicrometerTraceCapture(tracer, tracing.writeSpans(), registry);
		}

	}

	@Bean
	@ConditionalOnBean(TraceCapture.class)
	@ConditionalOnMissingBean(name = "kubeEventsTracingCustomizer")
	EventBroadcasterCustomizer kubeEventsTracingCustomizer(TraceCapture capture, KubeEventsProperties properties) {
		KubeEventsProperties.Tracing tracing = properties.tracing();
		return (builder) -> {
			if (capture != TraceCapture.NONE) {
				builder.tracing(capture);
				builder.traceparentAnnotation(tracing.traceparentAnnotation() ? tracing.annotationKey() : null);
			}
		};
	}

}
