package io.github.kubeevents;

import java.time.Clock;

import io.kubernetes.client.common.KubernetesObject;
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

	private final RegisteredKinds kinds;

	BroadcastingEventRecorder(Fanout fanout, EventSource source, Clock clock, int maxMessageBytes,
			EventCounters counters, RegisteredKinds kinds) {
		this.fanout = fanout;
		this.source = source;
		this.clock = clock;
		this.maxMessageBytes = maxMessageBytes;
		this.counters = counters;
		this.kinds = kinds;
	}

	/** The kinds of the broadcaster's builder, which {@link ObjectRecorder#related(Object)} uses too. */
	RegisteredKinds kinds() {
		return this.kinds;
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
			spec = withRegisteredKind(spec);
			message = EventSpec.format(spec.message(), spec.args());
			EventSpec.requireWithinLimit(message.text(), this.maxMessageBytes);
			event = spec.build(this.source, this.clock.instant(), message.text());
		}
		catch (Throwable ex) {
			// an Error from user code too (an object's toString, a kind registry's lookup); the JVM's own pass on
			EventSpec.rethrowIfFatal(ex);
			this.counters.dropAndLog(DropReason.INVALID_INPUT, null,
					"Could not record event (" + spec.describe() + "): "
							+ ((ex instanceof RuntimeException) ? ex.getMessage() : ex.toString()),
					false);
			return;
		}
		if (message.failure() != null) {
			this.counters.formatFailed(event, spec.message(), message.failure());
		}
		this.fanout.publish(event);
	}

	/** The spec with its regarding object referenced by the registered kinds, when it needs them. */
	private EventSpec withRegisteredKind(EventSpec spec) {
		if (this.kinds.isEmpty() || spec.adapter() != null || !(spec.regarding() instanceof KubernetesObject object)) {
			return spec;
		}
		return new EventSpec(this.kinds.reference(object), null, spec.related(), spec.annotations(), spec.type(),
				spec.reason(), spec.action(), spec.message(), spec.args());
	}

}
