package io.github.kubeevents.it;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.TickingClock;
import io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.autoconfigure.tracing.KubeEventsTracingAutoConfiguration;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.github.kubeevents.testsupport.TestTracing;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trace context on Events against a real kube-apiserver, with Micrometer Tracing on the OpenTelemetry SDK: the
 * Event carries the W3C {@code traceparent} of the span that recorded it (core/v1 and events.k8s.io/v1; after a
 * repeat, the latest occurrence's, which the count or series PATCH wrote), and each write request's span is a
 * child of the recording span, in its trace. With the options off, the Events are client-go's.
 */
@WithTestCluster
class TracingIT {

	private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");

	private final TestTracing tracing = new TestTracing();

	private final TickingClock clock = TickingClock.fixed(T0);

	private KubernetesTestCluster cluster;

	private String ns;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws ApiException {
		this.cluster = cluster;
		this.ns = createNamespace(new CoreV1Api(cluster.adminClient()));
	}

	@AfterEach
	void close() {
		this.tracing.close();
	}

	private ApplicationContextRunner traced(String... properties) {
		ApiClient client = this.cluster.adminClient();
		return starter(client, properties)
			.withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class,
					KubeEventsTracingAutoConfiguration.class))
			.withBean(Tracer.class, this.tracing::tracer)
			.withBean(ObservationRegistry.class, this.tracing::observationRegistry)
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(this.clock));
	}

	/** Records a Warning about web-0 inside a new span named {@code name}, and returns that span (ended). */
	private Span recordIn(String name, EventRecorder recorder) {
		Tracer tracer = this.tracing.tracer();
		Span span = tracer.nextSpan().name(name).start();
		try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
			recorder.event(new InvolvedObject("Pod", "v1", this.ns, "web-0", "uid-web-0", null, null),
					EventType.WARNING, "BackOff", "Back-off restarting failed container");
		}
		finally {
			span.end();
		}
		return span;
	}

	private static String traceparent(Span span) {
		return "00-" + span.context().traceId() + "-" + span.context().spanId() + "-01";
	}

	/** The write spans of {@code verb}, each checked to be a child of a recording span. */
	private SpanData writeSpan(String verb, Span parent) {
		List<SpanData> children = this.tracing.spans("event " + verb)
			.stream()
			.filter((span) -> span.getParentSpanId().equals(parent.context().spanId()))
			.toList();
		assertThat(children).as("write spans of %s under %s", verb, parent).hasSize(1);
		SpanData child = children.get(0);
		assertThat(child.getTraceId()).isEqualTo(parent.context().traceId());
		return child;
	}

	private List<CoreV1Event> coreEvents() throws ApiException {
		return new CoreV1Api(this.cluster.adminClient()).listNamespacedEvent(this.ns).execute().getItems();
	}

	private List<EventsV1Event> v1Events() throws ApiException {
		return new EventsV1Api(this.cluster.adminClient()).listNamespacedEvent(this.ns).execute().getItems();
	}

	@Test
	void coreV1EventCarriesTheLatestOccurrencesTraceparentAndEachWriteSpanIsItsCallersChild() {
		traced("kubeevents.tracing.traceparent-annotation=true").run((context) -> {
			EventRecorder recorder = context.getBean(EventRecorder.class);
			Span first = recordIn("reconcile-1", recorder);
			awaiting().until(() -> coreEvents().size() == 1);
			assertThat(coreEvents().get(0).getMetadata().getAnnotations())
				.isEqualTo(Map.of("traceparent", traceparent(first)));

			this.clock.advance(Duration.ofSeconds(1));
			Span second = recordIn("reconcile-2", recorder);
			awaiting().until(() -> coreEvents().get(0).getCount() == 2);
			CoreV1Event patched = coreEvents().get(0);
			assertThat(coreEvents()).hasSize(1);
			assertThat(patched.getMetadata().getAnnotations()).isEqualTo(Map.of("traceparent", traceparent(second)));

			awaiting().until(() -> this.tracing.spans().size() >= 4);
			SpanData create = writeSpan("create", first);
			SpanData patch = writeSpan("patch", second);
			assertThat(create.getAttributes().asMap().toString()).contains("kubeevents.result=success",
					"kubeevents.api=core/v1");
			assertThat(patch.getAttributes().asMap().toString()).contains("kubeevents.result=success",
					"kubeevents.verb=patch");
		});
	}

	@Test
	void eventsV1EventAndItsSeriesPatchCarryTheirOccurrencesTraceparent() {
		traced("kubeevents.sink.api=events.k8s.io/v1", "kubeevents.tracing.traceparent-annotation=true",
				"kubeevents.tracing.annotation-key=tracing.k8s.io/traceparent")
			.run((context) -> {
				EventRecorder recorder = context.getBean(EventRecorder.class);
				Span first = recordIn("reconcile-1", recorder);
				awaiting().until(() -> v1Events().size() == 1);
				assertThat(v1Events().get(0).getMetadata().getAnnotations())
					.isEqualTo(Map.of("tracing.k8s.io/traceparent", traceparent(first)));

				this.clock.advance(Duration.ofSeconds(1));
				Span second = recordIn("reconcile-2", recorder);
				awaiting().until(() -> v1Events().get(0).getSeries() != null);
				EventsV1Event patched = v1Events().get(0);
				assertThat(patched.getSeries().getCount()).isEqualTo(2);
				assertThat(patched.getMetadata().getAnnotations())
					.isEqualTo(Map.of("tracing.k8s.io/traceparent", traceparent(second)));

				awaiting().until(() -> this.tracing.spans().size() >= 4);
				writeSpan("create", first);
				assertThat(writeSpan("patch", second).getAttributes().asMap().toString())
					.contains("kubeevents.api=events.k8s.io/v1");
			});
	}

	@Test
	void withTheDefaultsTheEventHasNoAnnotationAndTheWriteStillJoinsTheTrace() {
		traced().run((context) -> {
			Span first = recordIn("reconcile-1", context.getBean(EventRecorder.class));
			awaiting().until(() -> coreEvents().size() == 1);
			assertThat(coreEvents().get(0).getMetadata().getAnnotations()).isNullOrEmpty();
			awaiting().until(() -> this.tracing.spans("event create").size() == 1);
			writeSpan("create", first);
		});
	}

	@Test
	void withWriteSpansOffThereIsNoWriteSpan() {
		traced("kubeevents.tracing.write-spans=false", "kubeevents.tracing.traceparent-annotation=true")
			.run((context) -> {
				Span first = recordIn("reconcile-1", context.getBean(EventRecorder.class));
				// counted after the request's span (had there been one) ended
				awaiting().until(() -> ItSupport.sinkStats(context).created() == 1);
				assertThat(coreEvents().get(0).getMetadata().getAnnotations())
					.isEqualTo(Map.of("traceparent", traceparent(first)));
				assertThat(this.tracing.spans()).extracting(SpanData::getName).containsExactly("reconcile-1");
			});
	}

}
