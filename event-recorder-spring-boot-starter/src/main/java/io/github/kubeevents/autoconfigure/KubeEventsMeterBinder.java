package io.github.kubeevents.autoconfigure;

import java.util.Objects;
import java.util.function.ToLongFunction;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.sink.SinkStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Registers the recorder's meters. Every meter reads the broadcaster's in-memory counters when it is polled:
 * <ul>
 * <li>{@code kubeevents.events.dropped} (function counter), tag {@code reason} = each {@link DropReason#tag()}
 * ({@code queue_full}, {@code spam_filtered}, {@code rejected_by_server}, {@code retries_exhausted},
 * {@code shutdown}, {@code invalid_input});</li>
 * <li>{@code kubeevents.sink.writes} (function counter), tag {@code result} = {@code created} or
 * {@code patched}: successful API server writes, over every sink;</li>
 * <li>{@code kubeevents.sink.retries} and {@code kubeevents.sink.failures} (function counters): attempts that
 * followed a failed attempt, and events given up on, over every sink;</li>
 * <li>{@code kubeevents.queue.depth} and {@code kubeevents.queue.capacity} (gauges): the incoming queue.</li>
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class KubeEventsMeterBinder implements MeterBinder {

	private final EventBroadcaster broadcaster;

	/**
	 * A binder for {@code broadcaster}.
	 * @param broadcaster the broadcaster whose counters to expose
	 */
	public KubeEventsMeterBinder(EventBroadcaster broadcaster) {
		this.broadcaster = Objects.requireNonNull(broadcaster, "broadcaster");
	}

	/**
	 * Registers the meters.
	 * @param registry the registry
	 */
	@Override
	public void bindTo(MeterRegistry registry) {
		for (DropReason reason : DropReason.values()) {
			FunctionCounter.builder("kubeevents.events.dropped", this.broadcaster,
					(broadcaster) -> broadcaster.counters().dropped(reason))
				.tag("reason", reason.tag())
				.description("Events not written or logged, by reason")
				.baseUnit("events")
				.register(registry);
		}
		FunctionCounter.builder("kubeevents.sink.writes", this, (binder) -> binder.sinkTotal(SinkStats::created))
			.tag("result", "created")
			.description("Events written to the API server, by result")
			.baseUnit("events")
			.register(registry);
		FunctionCounter.builder("kubeevents.sink.writes", this, (binder) -> binder.sinkTotal(SinkStats::patched))
			.tag("result", "patched")
			.description("Events written to the API server, by result")
			.baseUnit("events")
			.register(registry);
		FunctionCounter.builder("kubeevents.sink.retries", this, (binder) -> binder.sinkTotal(SinkStats::retried))
			.description("API server write attempts that followed a failed attempt")
			.baseUnit("attempts")
			.register(registry);
		FunctionCounter.builder("kubeevents.sink.failures", this, (binder) -> binder.sinkTotal(SinkStats::failed))
			.description("Events the API server sink gave up on")
			.baseUnit("events")
			.register(registry);
		FunctionCounter.builder("kubeevents.events.accepted", this.broadcaster, EventBroadcaster::acceptedCount)
			.description("Events accepted into the incoming queue")
			.baseUnit("events")
			.register(registry);
		Gauge.builder("kubeevents.queue.depth", this.broadcaster, EventBroadcaster::queueDepth)
			.description("Events waiting in the incoming queue")
			.baseUnit("events")
			.register(registry);
		Gauge.builder("kubeevents.queue.capacity", this.broadcaster, EventBroadcaster::queueCapacity)
			.description("Capacity of the incoming queue")
			.baseUnit("events")
			.register(registry);
	}

	private double sinkTotal(ToLongFunction<SinkStats> counter) {
		return counter.applyAsLong(this.broadcaster.sinkStats());
	}

}
