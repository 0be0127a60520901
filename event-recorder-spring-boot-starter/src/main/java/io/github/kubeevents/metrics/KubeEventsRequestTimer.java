package io.github.kubeevents.metrics;

import java.time.Duration;
import java.util.Objects;

import io.github.kubeevents.sink.Sink;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Times every request of the sinks: {@code kubeevents.sink.requests} (timer), tags {@code api}
 * ({@code core/v1}, {@code events.k8s.io/v1}), {@code verb} ({@code create}, {@code patch}) and {@code result}
 * ({@code success}, {@code client_error}, {@code server_error}, {@code transport_error},
 * {@code unexpected_response}, {@code invalid_request}) → {@code kubeevents_sink_requests_seconds_count|sum|max}
 * in Prometheus.
 *
 * <p>Thread-safe.
 */
public final class KubeEventsRequestTimer implements Sink.RequestListener {

	private final MeterRegistry registry;

	/**
	 * A timer registering into {@code registry}.
	 * @param registry the registry
	 */
	public KubeEventsRequestTimer(MeterRegistry registry) {
		this.registry = Objects.requireNonNull(registry, "registry");
	}

	@Override
	public void requestCompleted(String api, String verb, String result, Duration duration) {
		Timer.builder("kubeevents.sink.requests")
			.description("Requests of the event sinks to the API server")
			.tag("api", api)
			.tag("verb", verb)
			.tag("result", result)
			.register(this.registry)
			.record(duration);
	}

}
