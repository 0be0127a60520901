package io.github.kubeevents;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EventRecorder} of an {@link EventBroadcaster} (client-go's {@code recorderImpl}): turns each call
 * into a {@link RecordedEvent} ({@link EventSpec}: type and reason checked, object referenced, message formatted
 * by the one rule) and publishes it without blocking. A call that cannot become an event is logged with the
 * problem and the object and counted as {@code invalid_input}; a pattern that fails to format is recorded anyway
 * and counted on its own. With a {@link TraceContext.Capture}, the caller's trace context is captured with one call and
 * carried with the event; without one (the default) nothing is called.
 *
 * <p>Thread-safe.
 */
final class BroadcastingEventRecorder implements EventRecorder {

	private static final Logger logger = LoggerFactory.getLogger(BroadcastingEventRecorder.class);

	private final Fanout fanout;

	private final EventSource source;

	private final Clock clock;

	private final int maxMessageBytes;

	private final EventCounters counters;

	private final RegisteredKinds kinds;

	/** The broadcaster's capture, or {@code null} without tracing (then nothing is called). */
	private final TraceContext.@Nullable Capture tracing;

	private final AtomicBoolean captureFailureLogged;

	BroadcastingEventRecorder(Fanout fanout, EventSource source, Clock clock, int maxMessageBytes,
			EventCounters counters, RegisteredKinds kinds, TraceContext.Capture tracing, AtomicBoolean captureFailureLogged) {
		this.tracing = (tracing != TraceContext.Capture.NONE) ? tracing : null;
		this.captureFailureLogged = captureFailureLogged;
		this.fanout = fanout;
		this.source = source;
		this.clock = clock;
		this.maxMessageBytes = maxMessageBytes;
		this.counters = counters;
		this.kinds = kinds;
	}

	/** A recorder bound to {@code regarding} whose related objects are referenced by the registered kinds too. */
	@Override
	public ObjectRecorder about(Object regarding) {
		return new ObjectRecorder(this, regarding, null, this.kinds::reference);
	}

	/** A recorder bound to an object of any client whose related objects are referenced by the registered kinds. */
	@Override
	public <T> ObjectRecorder about(T regarding, InvolvedObject.Adapter<? super T> adapter) {
		return new ObjectRecorder(this, regarding, ObjectRecorder.erase(adapter), this.kinds::reference);
	}

	@Override
	public void record(@Nullable EventSpec spec) {
		if (spec == null) {
			this.counters.dropAndLog(DropReason.INVALID_INPUT, null, "Could not record event: the spec is null", false);
			return;
		}
		RecordedEvent event;
		try {
			spec = withRegisteredKind(spec);
			event = spec.build(this.source, this.clock.instant(), this.maxMessageBytes,
					(this.tracing != null) ? capture(this.tracing) : null, this.counters);
		}
		catch (Throwable ex) {
			// an Error from user code too (an object's toString, a kind registry's lookup); the JVM's own pass on
			Throwables.rethrowIfFatal(ex);
			this.counters.dropAndLog(DropReason.INVALID_INPUT, null,
					"Could not record event (" + spec.describe() + "): "
							+ ((ex instanceof RuntimeException) ? ex.getMessage() : ex.toString()),
					false);
			return;
		}
		this.fanout.publish(event);
	}

	/** The caller's trace context; a failing capture loses the context, never the event. */
	private @Nullable TraceContext capture(TraceContext.Capture capture) {
		try {
			return capture.capture();
		}
		catch (Throwable ex) {
			Throwables.rethrowIfFatal(ex);
			if (this.captureFailureLogged.compareAndSet(false, true)) {
				logger.warn("The trace context capture failed (logged once; events are recorded without context)", ex);
			}
			return null;
		}
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
