package io.github.kubeevents.autoconfigure.tracing;

import java.nio.file.Path;
import java.util.Map;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.autoconfigure.InvalidKubeEventsPropertyException;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import io.github.kubeevents.testsupport.TestTracing;
import io.github.kubeevents.TraceContext;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsTracingAutoConfiguration}: one per condition (Micrometer Tracing absent from the class
 * path, no Tracer bean, the no-op Tracer, both options off, the application's own capture), and what the
 * configured recorder does with a real Micrometer Tracing (OpenTelemetry SDK) and an in-memory sink.
 */
class KubeEventsTracingAutoConfigurationTests {

	@TempDir
	Path tmp;

	private final TestTracing tracing = new TestTracing();

	@AfterEach
	void close() {
		this.tracing.close();
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class,
					KubeEventsTracingAutoConfiguration.class))
			.withPropertyValues(TestClusters.noClusterProperties(this.tmp));
	}

	private ApplicationContextRunner withTracer() {
		return runner().withBean(Tracer.class, this.tracing::tracer)
			.withBean(ObservationRegistry.class, this.tracing::observationRegistry);
	}

	@Test
	void capturesNothingWithoutATracerOrOpenTelemetry() {
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(TraceContext.Capture.class)).isSameAs(TraceContext.Capture.NONE);
		});
	}

	@Test
	void backsOffWithoutMicrometerTracingAndOpenTelemetryOnTheClassPath() {
		runner().withClassLoader(new FilteredClassLoader(Tracer.class, OpenTelemetry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(TraceContext.Capture.class)
				.doesNotHaveBean("kubeEventsTracingCustomizer"));
	}

	@Test
	void capturesFromOpenTelemetryWithoutMicrometerTracing() {
		runner().withClassLoader(new FilteredClassLoader(Tracer.class))
			.withBean(OpenTelemetry.class, this.tracing::openTelemetry)
			.run((context) -> assertThat(context.getBean(TraceContext.Capture.class))
				.isInstanceOf(OpenTelemetryTraceCapture.class));
		// Micrometer Tracing wins when there are both
		withTracer().withBean(OpenTelemetry.class, this.tracing::openTelemetry)
			.run((context) -> assertThat(context.getBean(TraceContext.Capture.class))
				.isInstanceOf(MicrometerTraceCapture.class));
	}

	@Test
	void withOpenTelemetryAloneTheEventCarriesTheTraceparentAndTheWriteSpanIsTheCallersChild() {
		InMemoryEventSink sink = new InMemoryEventSink();
		OpenTelemetry openTelemetry = this.tracing.openTelemetry();
		runner().withClassLoader(new FilteredClassLoader(Tracer.class))
			.withBean(OpenTelemetry.class, () -> openTelemetry)
			.withBean(EventSink.class, () -> sink)
			.withPropertyValues("kubeevents.log-events=false", "kubeevents.tracing.traceparent-annotation=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				EventRecorder recorder = context.getBean(EventRecorder.class);
				io.opentelemetry.api.trace.Span reconcile = openTelemetry.getTracer("test")
					.spanBuilder("reconcile")
					.startSpan();
				try (io.opentelemetry.context.Scope scope = reconcile.makeCurrent()) {
					recorder.event(InvolvedObject.of("Pod", "v1", "ns", "web-0"), EventType.WARNING, "BackOff",
							"restarting");
				}
				finally {
					reconcile.end();
				}
				await().until(() -> sink.created().size() == 1 && this.tracing.spans("event create").size() == 1);
				String traceId = reconcile.getSpanContext().getTraceId();
				String spanId = reconcile.getSpanContext().getSpanId();
				assertThat(sink.created().get(0).getMetadata().getAnnotations())
					.isEqualTo(Map.of("traceparent", "00-" + traceId + "-" + spanId + "-01"));
				SpanData write = this.tracing.spans("event create").get(0);
				assertThat(write.getTraceId()).isEqualTo(traceId);
				assertThat(write.getParentSpanId()).isEqualTo(spanId);
				assertThat(write.getAttributes().asMap().toString()).contains("kubeevents.result=success",
						"kubeevents.event.reason=BackOff");
			});
	}

	@Test
	void capturesFromMicrometerTracingWhenItHasATracer() {
		withTracer().run((context) -> {
			assertThat(context).hasSingleBean(TraceContext.Capture.class).hasBean("kubeEventsTracingCustomizer");
			assertThat(context.getBean(TraceContext.Capture.class)).isInstanceOf(MicrometerTraceCapture.class);
		});
	}

	@Test
	void theNoopTracerOrBothOptionsOffCaptureNothing() {
		runner().withBean(Tracer.class, () -> Tracer.NOOP).run((context) -> {
			assertThat(context.getBean(TraceContext.Capture.class)).isSameAs(TraceContext.Capture.NONE);
		});
		withTracer().withPropertyValues("kubeevents.tracing.write-spans=false").run((context) -> {
			assertThat(context.getBean(TraceContext.Capture.class)).isSameAs(TraceContext.Capture.NONE);
		});
		withTracer()
			.withPropertyValues("kubeevents.tracing.write-spans=false", "kubeevents.tracing.traceparent-annotation=true")
			.run((context) -> assertThat(context.getBean(TraceContext.Capture.class)).isInstanceOf(MicrometerTraceCapture.class));
	}

	@Test
	void theApplicationsOwnCaptureWins() {
		TraceContext.Capture own = () -> null;
		withTracer().withBean(TraceContext.Capture.class, () -> own).run((context) -> {
			assertThat(context.getBean(TraceContext.Capture.class)).isSameAs(own);
			assertThat(context).hasBean("kubeEventsTracingCustomizer");
		});
	}

	@Test
	void theCustomizerBacksOffToOneOfTheSameName() {
		EventBroadcasterCustomizer mine = (builder) -> {
		};
		withTracer().withBean("kubeEventsTracingCustomizer", EventBroadcasterCustomizer.class, () -> mine)
			.run((context) -> assertThat(context.getBean("kubeEventsTracingCustomizer")).isSameAs(mine));
	}

	@Test
	void aBlankAnnotationKeyFailsStartupNamingTheProperty() {
		withTracer().withPropertyValues("kubeevents.tracing.annotation-key= ").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(InvalidKubeEventsPropertyException.class)
				.hasMessage("kubeevents.tracing.annotation-key must not be blank, was ''");
		});
	}

	@Test
	void theEventCarriesTheCallersTraceparentAndItsWriteSpanIsTheCallersChild() {
		InMemoryEventSink sink = new InMemoryEventSink();
		withTracer().withBean(EventSink.class, () -> sink)
			.withPropertyValues("kubeevents.log-events=false", "kubeevents.tracing.traceparent-annotation=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				EventRecorder recorder = context.getBean(EventRecorder.class);
				Tracer tracer = this.tracing.tracer();
				Span reconcile = tracer.nextSpan().name("reconcile").start();
				try (Tracer.SpanInScope scope = tracer.withSpan(reconcile)) {
					recorder.event(InvolvedObject.of("Pod", "v1", "ns", "web-0"), EventType.WARNING, "BackOff",
							"restarting");
				}
				finally {
					reconcile.end();
				}
				await().until(() -> sink.created().size() == 1 && this.tracing.spans("event create").size() == 1);
				String expected = "00-" + reconcile.context().traceId() + "-" + reconcile.context().spanId() + "-01";
				assertThat(sink.created().get(0).getMetadata().getAnnotations())
					.isEqualTo(Map.of(TraceContext.TRACEPARENT_ANNOTATION, expected));
				SpanData write = this.tracing.spans("event create").get(0);
				assertThat(write.getTraceId()).isEqualTo(reconcile.context().traceId());
				assertThat(write.getParentSpanId()).isEqualTo(reconcile.context().spanId());
				assertThat(write.getAttributes().asMap()).extractingFromEntries((e) -> e.getKey().getKey() + "=" + e.getValue())
					.contains("kubeevents.api=core/v1", "kubeevents.verb=create", "kubeevents.result=success",
							"kubeevents.event.reason=BackOff", "kubeevents.event.type=Warning",
							"kubeevents.event.object=Pod ns/web-0");
				// an event recorded outside any span has no context: no annotation, no write span
				recorder.event(InvolvedObject.of("Pod", "v1", "ns", "web-1"), EventType.NORMAL, "Started", "started");
				await().until(() -> sink.created().size() == 2);
				assertThat(sink.created().get(1).getMetadata().getAnnotations()).isNullOrEmpty();
				assertThat(this.tracing.spans("event create")).hasSize(1);
				assertThat(context.getBean(EventBroadcaster.class).stats().writes().created()).isEqualTo(2);
			});
	}

}
