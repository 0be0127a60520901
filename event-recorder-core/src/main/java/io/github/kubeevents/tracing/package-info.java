/**
 * Trace context on Events (SPI): the caller's current trace context is captured when an event is recorded
 * ({@link io.github.kubeevents.tracing.TraceContext.Capture}), carried with the queued event
 * ({@link io.github.kubeevents.tracing.TraceContext}) and, on the writer thread, made current around each request
 * of its write ({@link io.github.kubeevents.tracing.TraceContext.RequestSpan}) and, when asked for, written as the
 * Event's
 * W3C {@code traceparent} annotation. The Spring Boot starter implements it with Micrometer Tracing; without an
 * implementation nothing is captured.
 */
@NullMarked
package io.github.kubeevents.tracing;

import org.jspecify.annotations.NullMarked;
