package io.github.kubeevents;

import java.time.Clock;

import org.jspecify.annotations.Nullable;

/**
 * The {@link EventRecorder} of an {@link EventBroadcaster} (client-go's {@code recorderImpl}): turns each call
 * into a {@link RecordedEvent} ({@link EventSpec}: type and reason checked, object referenced, message formatted
 * by the one rule) and publishes it without blocking. A call that cannot become an event is logged with the
 * problem and the object and counted as {@code invalid_input}; a pattern that fails to format is recorded anyway
 * and counted on its own.
 *
 * <p>Thread-safe.
 */
final class BroadcastingEventRecorder implements EventRecorder {

	private final Fanout fanout;

	private final EventSource source;

	private final Clock clock;

	private final int maxMessageBytes;

	private final EventCounters counters;

	BroadcastingEventRecorder(Fanout fanout, EventSource source, Clock clock, int maxMessageBytes,
			EventCounters counters) {
		this.fanout = fanout;
		this.source = source;
		this.clock = clock;
		this.maxMessageBytes = maxMessageBytes;
		this.counters = counters;
	}

	@Override
	public void record(@Nullable EventSpec spec) {
		if (spec == null) {
			this.counters.dropAndLog(DropReason.INVALID_INPUT, null, "Could not record event: the spec is null", false);
			return;
		}
		EventSpec.Formatted message;
		RecordedEvent event;
		try {
			message = EventSpec.format(spec.message(), spec.args());
			EventSpec.requireWithinLimit(message.text(), this.maxMessageBytes);
			event = spec.build(this.source, this.clock.instant(), message.text());
		}
		catch (RuntimeException ex) {
			this.counters.dropAndLog(DropReason.INVALID_INPUT, null,
					"Could not record event (" + spec.describe() + "): " + ex.getMessage(), false);
			return;
		}
		if (message.failure() != null) {
			this.counters.formatFailed(event, spec.message(), message.failure());
		}
		this.fanout.publish(event);
	}

}
