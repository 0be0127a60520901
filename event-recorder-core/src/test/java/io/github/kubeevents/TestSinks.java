package io.github.kubeevents;

import java.time.Clock;

import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.Sink;

/** Sink settings for tests of one sink subscriber: the defaults but for what a test sets. */
final class TestSinks {

	private TestSinks() {
	}

	/**
	 * Settings with one writer thread (one global write order), jitter 0.5 and no write budget.
	 * @param policy the retry policy
	 * @param sleeper records or performs the waits
	 * @param listener told about every request
	 * @param clock the clock of the correlators and the series schedule
	 * @return the settings
	 */
	static SinkSettings settings(RetryPolicy policy, Sleeper sleeper, Sink.RequestListener listener, Clock clock) {
		return settings(policy, sleeper, listener, clock, EventShape.CLIENT_GO);
	}

	/**
	 * {@link #settings(RetryPolicy, Sleeper, Sink.RequestListener, Clock)} writing core/v1 in {@code shape}.
	 */
	static SinkSettings settings(RetryPolicy policy, Sleeper sleeper, Sink.RequestListener listener, Clock clock,
			EventShape shape) {
		return settings(policy, sleeper, listener, clock, shape, CorrelatorOptions.builder().clock(clock).build());
	}

	/**
	 * {@link #settings(RetryPolicy, Sleeper, Sink.RequestListener, Clock, EventShape)} with the core/v1 sinks'
	 * correlator options {@code coreV1}.
	 */
	static SinkSettings settings(RetryPolicy policy, Sleeper sleeper, Sink.RequestListener listener, Clock clock,
			EventShape shape, CorrelatorOptions coreV1) {
		return new SinkSettings(policy, sleeper, () -> 0.5, listener, null, clock, 1, 4000, EventsApi.AUTO,
				EventBroadcaster.Builder.DEFAULT_REQUEST_TIMEOUT, 4096, coreV1,
				CorrelatorOptions.builder().aggregationEnabled(false).spamFilterEnabled(false).clock(clock).build(), false,
				shape, false, null, System::nanoTime);
	}

	/**
	 * A core/v1 run of {@code sink} whose writer threads hand each write to {@code target}, as a sink subscriber's
	 * run does.
	 * @param settings the settings (its writers and backlog capacity)
	 * @param target what a writer thread does with each write
	 * @return the run, not started
	 */
	static <W> SinkRun<CoreV1Event, EventSink.CountPatch> run(SinkSettings settings,
			io.github.kubeevents.sink.Sink<CoreV1Event, EventSink.CountPatch> sink, SinkWriters.Target<W> target) {
		return new SinkRun<>("test", EventsApi.CORE_V1, sink, "", settings,
				new EventCounters(settings.clock(), java.time.Duration.ofSeconds(10)), target);
	}

	/** Starts every run of {@code sink}, as its subscription's start does. */
	static void start(SinkSubscriber sink) {
		sink.runs().forEach(SinkRun::start);
	}

	/** A stop begins for every run of {@code sink}. */
	static void cancel(SinkSubscriber sink) {
		sink.runs().forEach(SinkRun::cancel);
	}

	/** The stop deadline passes for every run of {@code sink}. */
	static void abort(SinkSubscriber sink) {
		sink.runs().forEach(SinkRun::abort);
	}

	/** Writes submitted to {@code sink}'s runs and not yet finished. */
	static int pending(SinkSubscriber sink) {
		return sink.runs().stream().mapToInt((run) -> run.writers().pending()).sum();
	}

	/** Waits for {@code sink}'s runs' writer threads until the deadline. */
	static boolean join(SinkSubscriber sink, long deadlineNanos) {
		boolean ended = true;
		for (SinkRun<?, ?> run : sink.runs()) {
			ended &= run.join(deadlineNanos);
		}
		return ended;
	}

}
