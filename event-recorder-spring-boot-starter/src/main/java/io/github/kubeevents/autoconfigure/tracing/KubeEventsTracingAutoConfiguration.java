package io.github.kubeevents.autoconfigure.tracing;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.autoconfigure.KubeEventsProperties;
import io.github.kubeevents.TraceContext;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;

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
 * bridge), a {@link TraceContext.Capture} that captures the current span at every {@code record}/{@code eventf} call,
 * unless both {@code kubeevents.tracing.write-spans} and {@code kubeevents.tracing.traceparent-annotation} are
 * off;</li>
 * <li>else, with the OpenTelemetry API (an {@code OpenTelemetry} bean, or the global one the Java agent sets), a
 * capture of {@code Context.current()} whose write spans are OpenTelemetry spans;</li>
 * <li>a customizer that hands the capture (the application's own {@link TraceContext.Capture} bean when it declares
 * one)
 * and the annotation option to the broadcaster.</li>
 * </ul>
 * Without Micrometer Tracing, OpenTelemetry or a {@link TraceContext.Capture} bean nothing is configured and the
 * recorder captures nothing.
 */
@AutoConfiguration(after = KubeEventsAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.autoconfigure.NoopTracerAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration",
				"org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration" })
@ConditionalOnClass(TraceContext.Capture.class)
@ConditionalOnBean({ EventBroadcaster.class, KubeEventsProperties.class })
public final class KubeEventsTracingAutoConfiguration {

	/** The capture from Micrometer Tracing, when the application has it. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Tracer.class, ObservationRegistry.class })
	static class MicrometerTracingCapture {

		@Bean
		@ConditionalOnBean(Tracer.class)
		@ConditionalOnMissingBean(TraceContext.Capture.class)
		TraceContext.Capture kubeEventsTraceCapture(Tracer tracer, ObjectProvider<ObservationRegistry> observationRegistry,
				KubeEventsProperties properties) {
			KubeEventsProperties.Tracing tracing = properties.tracing();
			if (tracer == Tracer.NOOP || !tracing.captures()) {
				return TraceContext.Capture.NONE;
			}
			ObservationRegistry registry = tracing.writeSpans() ? observationRegistry.getIfAvailable() : null;
			return new MicrometerTraceCapture(tracer, tracing.writeSpans(), registry);
		}

	}

	/**
	 * The capture from the OpenTelemetry API, when there is no Micrometer Tracing (no {@code Tracer} bean, not even
	 * Spring Boot's no-op one): the application's
	 * {@code OpenTelemetry} bean, else the global one when it was set (the Java agent sets it before the
	 * application starts; it is never set here, nor triggered).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "io.opentelemetry.api.OpenTelemetry", "io.opentelemetry.context.Context" })
	@ConditionalOnMissingBean(type = "io.micrometer.tracing.Tracer")
	static class OpenTelemetryCapture {

		@Bean
		@ConditionalOnMissingBean(TraceContext.Capture.class)
		TraceContext.Capture kubeEventsOpenTelemetryTraceCapture(ObjectProvider<OpenTelemetry> openTelemetry,
				KubeEventsProperties properties) {
			KubeEventsProperties.Tracing tracing = properties.tracing();
			OpenTelemetry configured = openTelemetry.getIfAvailable();
			if (configured == null && globalIsSet()) {
				configured = GlobalOpenTelemetry.get();
			}
			if (configured == null || configured == OpenTelemetry.noop() || !tracing.captures()) {
				return TraceContext.Capture.NONE;
			}
			return new OpenTelemetryTraceCapture(
					tracing.writeSpans() ? configured.getTracer(OpenTelemetryTraceCapture.SCOPE) : null);
		}

		private static boolean globalIsSet() {
			try {
				return GlobalOpenTelemetry.isSet();
			}
			catch (LinkageError ex) {
				// an older OpenTelemetry API without isSet(): get() would set the global, so it is left alone
				return false;
			}
		}

	}

	@Bean
	@ConditionalOnBean(TraceContext.Capture.class)
	@ConditionalOnMissingBean(name = "kubeEventsTracingCustomizer")
	EventBroadcasterCustomizer kubeEventsTracingCustomizer(TraceContext.Capture capture, KubeEventsProperties properties) {
		KubeEventsProperties.Tracing tracing = properties.tracing();
		return (builder) -> {
			if (capture != TraceContext.Capture.NONE) {
				builder.tracing(capture);
				builder.traceparentAnnotation(tracing.traceparentAnnotation() ? tracing.annotationKey() : null);
			}
		};
	}

}
