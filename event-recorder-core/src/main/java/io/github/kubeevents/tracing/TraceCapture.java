package io.github.kubeevents.tracing;

import org.jspecify.annotations.Nullable;

/**
 * Captures the recording thread's current trace context when an event is recorded (SPI): the starter's
 * implementation reads Micrometer Tracing's current span; an application with another tracer implements it and
 * passes it to {@code EventBroadcaster.Builder#tracing}.
 *
 * <p>Called on the caller's thread by every {@code record}/{@code eventf} call of a broadcaster's recorders, so it
 * must be one cheap call that never blocks: read the current context and return an immutable reference to it
 * (no formatting, no allocation beyond that reference). An exception is caught (the event is recorded without
 * context, one WARN for the broadcaster's lifetime). Implementations are thread-safe.
 */
@FunctionalInterface
public interface TraceCapture {

	/** Captures nothing: the default of a broadcaster, which then makes no call at all. */
	TraceCapture NONE = () -> null;

	/**
	 * The current trace context of the calling thread.
	 * @return an immutable reference to it, or {@code null} when there is none (no current span)
	 */
	@Nullable TraceContext capture();

}
