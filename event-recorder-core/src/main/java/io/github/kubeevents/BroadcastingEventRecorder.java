package io.github.kubeevents;

import java.time.Clock;

/**
 * The {@link EventRecorder} of an {@link EventBroadcaster}: validates the call, builds the
 * {@link RecordedEvent} and publishes it without blocking. Invalid calls are logged and counted as
 * {@code invalid_input}.
 *
 * <p>Thread-safe.
 */
final class BroadcastingEventRecorder implements EventRecorder {

	private final EventBroadcaster broadcaster;

	private final EventSource source;

	private final Clock clock;

	private final int maxMessageBytes;

	private final EventCounters counters;

	BroadcastingEventRecorder(EventBroadcaster broadcaster, EventSource source, Clock clock, int maxMessageBytes,
			EventCounters counters) {
		this.broadcaster = broadcaster;
		this.source = source;
		this.clock = clock;
		this.maxMessageBytes = maxMessageBytes;
		this.counters = counters;
	}

	@Override
	public void record(EventSpec<?> spec) {
		RecordedEvent event;
		try {
			event = EventFactory.build(spec, this.source, this.clock.instant(), this.maxMessageBytes);
		}
		catch (RuntimeException ex) {
			this.counters.dropAndLog(DropReason.INVALID_INPUT, null, "Could not record event (reason=\""
					+ spec.reason() + "\", type=\"" + spec.type() + "\"): " + ex.getMessage(), false);
			return;
		}
		this.broadcaster.publish(event);
	}

}
