package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.TraceContext.RequestSpan;
import io.github.kubeevents.TraceContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Trace context on Events: what a broadcaster with a {@link TraceContext.Capture} captures on the recording thread, carries
 * with the event, makes current around each request on the writer thread, and (only with the option) writes as
 * the {@code traceparent} annotation of CREATEs and of the PATCHes of repeats, the latest occurrence's, for both
 * events APIs. A fake tracer stands for the starter's Micrometer Tracing: a thread-local current span.
 */
class TraceContextTests {

	private static final Instant T0 = Instant.parse("2026-11-30T12:00:00Z");

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String A = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

	private static final String B = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

	private static final String C = "00-11111111111111111111111111111111-2222222222222222-00";

	private final TickingClock clock = TickingClock.fixed(T0);

	private final FakeTracer tracer = new FakeTracer();

	private final List<EventBroadcaster> broadcasters = new ArrayList<>();

	@AfterEach
	void shutDown() {
		this.broadcasters.forEach((b) -> b.shutdown(Duration.ofSeconds(10)));
	}

	private EventBroadcaster broadcaster(EventBroadcaster.Builder builder) {
		EventBroadcaster broadcaster = builder.clock(this.clock).sleeper((duration) -> {
		}).jitter(() -> 0.5).build();
		this.broadcasters.add(broadcaster);
		return broadcaster;
	}

	private static InvolvedObject pod(String name) {
		return new InvolvedObject("Pod", "v1", "ns", name, "uid-" + name, null, null);
	}

	@Test
	void coreV1CreateCarriesTheCallersTraceparentAndEachPatchTheLatestOccurrences() {
		ScriptedSink sink = new ScriptedSink();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().tracing(this.tracer)
			.traceparentAnnotation(TraceContext.TRACEPARENT_ANNOTATION));
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(new EventSource("ctrl", "host-1"));

		this.tracer.inSpan(A, () -> recorder.event(pod("web-0"), EventType.WARNING, "BackOff", "restarting"));
		await().atMost(WAIT).until(() -> sink.calls().size() == 1);
		this.clock.advance(Duration.ofSeconds(1));
		this.tracer.inSpan(B, () -> recorder.event(pod("web-0"), EventType.WARNING, "BackOff", "restarting"));
		await().atMost(WAIT).until(() -> sink.calls().size() == 2);
		this.clock.advance(Duration.ofSeconds(1));
		this.tracer.inSpan(C, () -> recorder.event(pod("web-0"), EventType.WARNING, "BackOff", "restarting"));
		await().atMost(WAIT).until(() -> sink.calls().size() == 3);

		ScriptedSink.Call create = sink.calls().get(0);
		assertThat(create.verb()).isEqualTo("create");
		assertThat(create.event().getMetadata().getAnnotations()).containsExactly(Map.entry("traceparent", A));
		ScriptedSink.Call firstPatch = sink.calls().get(1);
		assertThat(firstPatch.verb()).isEqualTo("patch");
		assertThat(firstPatch.patch().count()).isEqualTo(2);
		assertThat(firstPatch.patch().annotations()).containsExactly(Map.entry("traceparent", B));
		assertThat(firstPatch.patch().toMap()).containsEntry("metadata",
				Map.of("annotations", Map.of("traceparent", B)));
		assertThat(sink.calls().get(2).patch().annotations()).containsExactly(Map.entry("traceparent", C));
		// each request ran in its own occurrence's context, on a writer thread
		// a span ends after its request returned: wait for it
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(this.tracer.requests).containsExactly("core/v1 create in " + A + ": success",
				"core/v1 patch in " + B + ": success", "core/v1 patch in " + C + ": success"));
	}

	@Test
	void withoutTheAnnotationOptionTheBodiesAreUnchangedAndRequestsStillRunInTheCallersContext() {
		ScriptedSink sink = new ScriptedSink();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().tracing(this.tracer));
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(new EventSource("ctrl", "host-1"));

		this.tracer.inSpan(A, () -> recorder.event(pod("web-0"), EventType.NORMAL, "Pulled", "pulled"));
		this.clock.advance(Duration.ofSeconds(1));
		this.tracer.inSpan(B, () -> recorder.event(pod("web-0"), EventType.NORMAL, "Pulled", "pulled"));
		await().atMost(WAIT).until(() -> sink.calls().size() == 2);

		assertThat(sink.calls().get(0).event().getMetadata().getAnnotations()).isNullOrEmpty();
		assertThat(sink.calls().get(1).patch().annotations()).isEmpty();
		assertThat(sink.calls().get(1).patch().toMap()).doesNotContainKey("metadata");
		// a span ends after its request returned: wait for it
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(this.tracer.requests).containsExactly("core/v1 create in " + A + ": success",
				"core/v1 patch in " + B + ": success"));
	}

	@Test
	void eventsV1CreateAndSeriesPatchesCarryTheirOccurrencesTraceparent() {
		EventsV1SinkSubscriberTests.Script sink = new EventsV1SinkSubscriberTests.Script();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().tracing(this.tracer)
			.traceparentAnnotation("tracing.k8s.io/traceparent"));
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		ObjectRecorder web = broadcaster.newRecorder(new EventSource("ctrl", "host-1")).about(pod("web-0"));

		this.tracer.inSpan(A, () -> web.normal("Pulled", "pulled"));
		await().atMost(WAIT).until(() -> sink.calls.size() == 1);
		this.clock.advance(Duration.ofSeconds(1));
		this.tracer.inSpan(B, () -> web.normal("Pulled", "pulled"));
		await().atMost(WAIT).until(() -> sink.calls.size() == 2);
		this.clock.advance(Duration.ofSeconds(1));
		this.tracer.inSpan(C, () -> web.normal("Pulled", "pulled"));
		// the third occurrence is written by the series' finish, with its count and its context
		this.clock.advance(Duration.ofMinutes(6));
		this.clock.advance(Duration.ofMinutes(7));
		await().atMost(WAIT).until(() -> sink.calls.size() == 3);

		assertThat(sink.calls.get(0).event().getMetadata().getAnnotations())
			.containsExactly(Map.entry("tracing.k8s.io/traceparent", A));
		assertThat(sink.calls.get(1).patch()).isEqualTo(new EventsV1Sink.SeriesPatch(2, T0.plusSeconds(1), null,
				Map.of("tracing.k8s.io/traceparent", B)));
		assertThat(sink.calls.get(2).patch()).isEqualTo(new EventsV1Sink.SeriesPatch(3, T0.plusSeconds(2), null,
				Map.of("tracing.k8s.io/traceparent", C)));
		assertThat(sink.calls.get(2).patch().toMap()).containsEntry("metadata",
				Map.of("annotations", Map.of("tracing.k8s.io/traceparent", C)));
		// a span ends after its request returned: wait for it
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(this.tracer.requests).containsExactly("events.k8s.io/v1 create in " + A + ": success",
				"events.k8s.io/v1 patch in " + B + ": success", "events.k8s.io/v1 patch in " + C + ": success"));
	}

	@Test
	void aCallerAnnotationOfTheSameKeyWinsAndAnEventWithoutCurrentSpanGetsNone() {
		ScriptedSink sink = new ScriptedSink();
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().tracing(this.tracer)
			.traceparentAnnotation(TraceContext.TRACEPARENT_ANNOTATION));
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		EventRecorder recorder = broadcaster.newRecorder(new EventSource("ctrl", "host-1"));

		this.tracer.inSpan(A, () -> recorder.annotatedEventf(pod("web-0"), Map.of("traceparent", "mine"),
				EventType.NORMAL, "Started", "started"));
		recorder.event(pod("web-1"), EventType.NORMAL, "Started", "started");
		// counted once each request (and its span, had it one) has ended
		await().atMost(WAIT).until(() -> broadcaster.stats().writes().created() == 2);

		assertThat(sink.calls()).extracting((call) -> call.event().getInvolvedObject().getName(),
				(call) -> String.valueOf(call.event().getMetadata().getAnnotations()))
			.containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("web-0", "{traceparent=mine}"),
					org.assertj.core.groups.Tuple.tuple("web-1", "{}"));
		// web-1 had no current span: its request ran without context
		// a span ends after its request returned: wait for it
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(this.tracer.requests).containsExactly("core/v1 create in " + A + ": success"));
	}

	@Test
	void theRecordedEventCarriesTheCapturedContextAndNothingIsCapturedWithoutTracing() {
		List<RecordedEvent> traced = new CopyOnWriteArrayList<>();
		EventBroadcaster withTracing = broadcaster(EventBroadcaster.builder().tracing(this.tracer));
		withTracing.subscribe("handler", traced::add);
		withTracing.start();
		this.tracer.inSpan(A, () -> withTracing.newRecorder(new EventSource("ctrl", "h"))
			.event(pod("web-0"), EventType.NORMAL, "Started", "started"));

		List<RecordedEvent> untraced = new CopyOnWriteArrayList<>();
		EventBroadcaster without = broadcaster(EventBroadcaster.builder());
		without.subscribe("handler", untraced::add);
		without.start();
		this.tracer.inSpan(B, () -> without.newRecorder(new EventSource("ctrl", "h"))
			.event(pod("web-0"), EventType.NORMAL, "Started", "started"));

		await().atMost(WAIT).until(() -> traced.size() == 1 && untraced.size() == 1);
		assertThat(traced.get(0).traceContext()).isNotNull();
		assertThat(traced.get(0).traceContext().traceparent()).isEqualTo(A);
		assertThat(untraced.get(0).traceContext()).isNull();
		assertThat(this.tracer.captures).hasValue(1);
	}

	@Test
	void aFailingCaptureOrSpanLosesTheContextNeverTheEventOrTheWrite() {
		ScriptedSink sink = new ScriptedSink();
		TraceContext.Capture failing = () -> {
			throw new IllegalStateException("tracer broken");
		};
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().tracing(failing)
			.traceparentAnnotation(TraceContext.TRACEPARENT_ANNOTATION));
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		broadcaster.newRecorder(new EventSource("ctrl", "h")).event(pod("web-0"), EventType.NORMAL, "A", "a");

		ScriptedSink sink2 = new ScriptedSink();
		TraceContext brokenSpans = new TraceContext() {

			@Override
			public String traceparent() {
				return A;
			}

			@Override
			public RequestSpan startRequest(RecordedEvent event, String api, String verb) {
				throw new IllegalStateException("span broken");
			}

		};
		EventBroadcaster second = broadcaster(EventBroadcaster.builder().tracing(() -> brokenSpans)
			.traceparentAnnotation(TraceContext.TRACEPARENT_ANNOTATION));
		second.startRecordingToSink(sink2);
		second.start();
		second.newRecorder(new EventSource("ctrl", "h")).event(pod("web-0"), EventType.NORMAL, "A", "a");

		await().atMost(WAIT).until(() -> sink.calls().size() == 1 && sink2.calls().size() == 1);
		assertThat(sink.calls().get(0).event().getMetadata().getAnnotations()).isNullOrEmpty();
		assertThat(sink2.calls().get(0).event().getMetadata().getAnnotations()).containsEntry("traceparent", A);
		assertThat(broadcaster.stats().writes().created()).isEqualTo(1);
		assertThat(second.stats().writes().created()).isEqualTo(1);
	}

	@Test
	void aFailedRequestEndsItsSpanWithTheResultTag() {
		ScriptedSink sink = new ScriptedSink().failNext(EventSinkException.status(422, "Invalid", "bad"));
		EventBroadcaster broadcaster = broadcaster(EventBroadcaster.builder().tracing(this.tracer));
		broadcaster.startRecordingToSink(sink);
		broadcaster.start();
		this.tracer.inSpan(A, () -> broadcaster.newRecorder(new EventSource("ctrl", "h"))
			.event(pod("web-0"), EventType.NORMAL, "A", "a"));
		await().atMost(WAIT).until(() -> this.tracer.requests.size() == 1);
		// a span ends after its request returned: wait for it
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(this.tracer.requests).containsExactly("core/v1 create in " + A + ": client_error"));
	}

	@Test
	void traceparentFormatsTheW3cValue() {
		assertThat(TraceContext.traceparent("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", true))
			.isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
		// a 64-bit trace id (Brave's default) is left-padded
		assertThat(TraceContext.traceparent("a3ce929d0e0e4736", "00f067aa0ba902b7", false))
			.isEqualTo("00-0000000000000000a3ce929d0e0e4736-00f067aa0ba902b7-00");
	}

	/**
	 * A tracer with a thread-local current span: captures it, and on the writer thread makes the captured span
	 * current around each request, logging "api verb in traceparent: result" with what was current then.
	 */
	static final class FakeTracer implements TraceContext.Capture {

		final ThreadLocal<String> current = new ThreadLocal<>();

		final List<String> requests = new CopyOnWriteArrayList<>();

		final AtomicInteger captures = new AtomicInteger();

		void inSpan(String traceparent, Runnable action) {
			this.current.set(traceparent);
			try {
				action.run();
			}
			finally {
				this.current.remove();
			}
		}

		@Override
		public TraceContext capture() {
			this.captures.incrementAndGet();
			String traceparent = this.current.get();
			return (traceparent != null) ? new Captured(this, traceparent) : null;
		}

	}

	record Captured(FakeTracer tracer, String traceparent) implements TraceContext {

		@Override
		public RequestSpan startRequest(RecordedEvent event, String api, String verb) {
			String previous = this.tracer.current.get();
			this.tracer.current.set(this.traceparent);
			return (result) -> {
				// the span is started for the write's own occurrence
				String mismatch = (event.traceContext() == this) ? "" : " (another occurrence's event!)";
				this.tracer.requests.add(api + " " + verb + " in " + this.tracer.current.get() + ": " + result + mismatch);
				this.tracer.current.set(previous);
			};
		}

	}

}
