package io.github.kubeevents.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.ToLongFunction;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Registers the recorder's meters. Every meter reads the broadcaster's in-memory counters when it is polled. Names
 * and units are chosen so that Prometheus shows each once (Micrometer appends the base unit, then
 * {@code _total} for counters):
 * <ul>
 * <li>{@code kubeevents.accepted} (counter, events): recorded events accepted into the queue →
 * {@code kubeevents_accepted_events_total};</li>
 * <li>{@code kubeevents.dropped} (counter, events), tag {@code reason} = {@code queue_full},
 * {@code spam_filtered}, {@code rejected_by_server}, {@code retries_exhausted}, {@code shutdown},
 * {@code invalid_input} → {@code kubeevents_dropped_events_total};</li>
 * <li>{@code kubeevents.written} (counter, events), tag {@code result} = {@code created} or {@code patched}:
 * successful API server writes → {@code kubeevents_written_events_total};</li>
 * <li>{@code kubeevents.written.without.patch} (counter, events): repeats written as new Events because RBAC
 * refuses {@code patch} (also counted as {@code created}) → {@code kubeevents_written_without_patch_events_total};</li>
 * <li>{@code kubeevents.server.throttled} (counter), tag {@code source} = {@code api_priority_and_fairness} (429
 * with Retry-After) or {@code event_rate_limit} (429 without: the EventRateLimit admission plugin): requests the
 * API server throttled, each retried → {@code kubeevents_server_throttled_total};</li>
 * <li>{@code kubeevents.sink.retries} (counter): attempts that followed a failed attempt →
 * {@code kubeevents_sink_retries_total};</li>
 * <li>{@code kubeevents.truncated} (counter, events): events.k8s.io/v1 notes cut to the server's 1024 bytes →
 * {@code kubeevents_truncated_events_total};</li>
 * <li>{@code kubeevents.unformatted} (counter, events): events whose message pattern failed to format with its
 * arguments, written with the pattern, a mark and the arguments → {@code kubeevents_unformatted_events_total};</li>
 * <li>{@code kubeevents.sink.throttled} (counter) and {@code kubeevents.sink.throttled.wait} (counter, seconds):
 * requests that waited for the write budget, and how long in all, when one is set →
 * {@code kubeevents_sink_throttled_total}, {@code kubeevents_sink_throttled_wait_seconds_total};</li>
 * <li>{@code kubeevents.queue.depth} and {@code kubeevents.queue.capacity} (gauges, events), tag {@code queue} =
 * {@code incoming} or a subscriber's name ({@code sink}, {@code logging}, ...) →
 * {@code kubeevents_queue_depth_events}, {@code kubeevents_queue_capacity_events}.</li>
 * </ul>
 * The request timer {@code kubeevents.sink.requests} is {@link KubeEventsRequestTimer}.
 *
 * <p>Thread-safe.
 */
public final class KubeEventsMeterBinder implements MeterBinder {

	private final EventBroadcaster broadcaster;

	private final List<String> subscriberNames;

	/**
	 * A binder for {@code broadcaster}.
	 * @param broadcaster the broadcaster whose counters to expose
	 * @param subscriberNames the subscribers whose queues get gauges (subscribers start after the meters are
	 * bound, so their names are given here)
	 */
	public KubeEventsMeterBinder(EventBroadcaster broadcaster, List<String> subscriberNames) {
		this.broadcaster = Objects.requireNonNull(broadcaster, "broadcaster");
		this.subscriberNames = List.copyOf(subscriberNames);
	}

	/**
	 * Registers the meters.
	 * @param registry the registry
	 */
	@Override
	public void bindTo(MeterRegistry registry) {
		FunctionCounter.builder("kubeevents.accepted", this.broadcaster, (b) -> b.stats().accepted())
			.description("Recorded events accepted into the incoming queue")
			.baseUnit("events")
			.register(registry);
		for (DropReason reason : DropReason.values()) {
			FunctionCounter.builder("kubeevents.dropped", this.broadcaster, (b) -> b.stats().dropped(reason.tag()))
				.tag("reason", reason.tag())
				.description("Events not written, by reason")
				.baseUnit("events")
				.register(registry);
		}
		written(registry, "created", RecorderStats.Writes::created);
		written(registry, "patched", RecorderStats.Writes::patched);
		FunctionCounter.builder("kubeevents.written.without.patch", this.broadcaster,
				(b) -> b.stats().writtenWithoutPatch())
			.description("Repeats written as new Events because RBAC refuses patch (also counted as created)")
			.baseUnit("events")
			.register(registry);
		for (String source : List.of("api_priority_and_fairness", "event_rate_limit")) {
			FunctionCounter
				.builder("kubeevents.server.throttled", this.broadcaster, (b) -> b.stats().throttledByServer(source))
				.tag("source", source)
				.description("API server requests answered with 429 Too Many Requests, by source (each retried)")
				.register(registry);
		}
		FunctionCounter.builder("kubeevents.sink.retries", this.broadcaster, (b) -> b.stats().writes().retried())
			.description("API server write attempts that followed a failed attempt")
			.register(registry);
		FunctionCounter.builder("kubeevents.truncated", this.broadcaster, (b) -> b.stats().truncatedNotes())
			.description("events.k8s.io/v1 notes cut to the API server's limit of 1024 bytes")
			.baseUnit("events")
			.register(registry);
		FunctionCounter.builder("kubeevents.unformatted", this.broadcaster, (b) -> b.stats().formatFailures())
			.description("Events whose message pattern failed to format with its arguments (written with the pattern,"
					+ " a mark and the arguments)")
			.baseUnit("events")
			.register(registry);
		if (this.broadcaster.stats().writeBudget() != null) {
			FunctionCounter.builder("kubeevents.sink.throttled", this.broadcaster, (b) -> budget(b).throttledRequests())
				.description("API server requests that waited for the write budget")
				.register(registry);
			FunctionCounter
				.builder("kubeevents.sink.throttled.wait", this.broadcaster,
						(b) -> budget(b).totalWait().toNanos() / 1e9)
				.description("Time API server requests waited for the write budget")
				.baseUnit("seconds")
				.register(registry);
		}
		queue(registry, "incoming", (b) -> b.stats().queue().depth(), (b) -> b.stats().queue().capacity());
		for (String name : this.subscriberNames) {
			queue(registry, name, (b) -> subscriber(b, name).depth(), (b) -> subscriber(b, name).capacity());
		}
	}

	private void written(MeterRegistry registry, String result, ToLongFunction<RecorderStats.Writes> counter) {
		FunctionCounter.builder("kubeevents.written", this.broadcaster,
				(b) -> counter.applyAsLong(b.stats().writes()))
			.tag("result", result)
			.description("Events written to the API server, by result")
			.baseUnit("events")
			.register(registry);
	}

	private void queue(MeterRegistry registry, String queue, ToLongFunction<EventBroadcaster> depth,
			ToLongFunction<EventBroadcaster> capacity) {
		Gauge.builder("kubeevents.queue.depth", this.broadcaster, (b) -> depth.applyAsLong(b))
			.tag("queue", queue)
			.description("Events waiting in a queue (the incoming queue or a subscriber's)")
			.baseUnit("events")
			.register(registry);
		Gauge.builder("kubeevents.queue.capacity", this.broadcaster, (b) -> capacity.applyAsLong(b))
			.tag("queue", queue)
			.description("Capacity of a queue")
			.baseUnit("events")
			.register(registry);
	}

	private static RecorderStats.WriteBudget budget(EventBroadcaster broadcaster) {
		RecorderStats.WriteBudget budget = broadcaster.stats().writeBudget();
		return (budget != null) ? budget : new RecorderStats.WriteBudget(0, 0, 0, Duration.ZERO);
	}

	private static RecorderStats.Subscriber subscriber(EventBroadcaster broadcaster, String name) {
		for (RecorderStats.Subscriber subscriber : broadcaster.stats().subscribers()) {
			if (subscriber.name().equals(name)) {
				return subscriber;
			}
		}
		return new RecorderStats.Subscriber(name, 0, 0, "drop", 0);
	}

}
