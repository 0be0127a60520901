/**
 * Auto-configuration of trace context on Events ({@code kubeevents.tracing.*}) with Micrometer Tracing.
 *
 * <p><b>Internal although public</b> (Spring Boot needs the class to be): refer to
 * {@link io.github.kubeevents.autoconfigure.tracing.KubeEventsTracingAutoConfiguration} only to exclude or import it;
 * the {@code kubeevents.tracing.*} property names, the observation name {@code kubeevents.event.write} and its
 * key names are API. An application with another tracer declares a
 * {@link io.github.kubeevents.TraceContext.Capture} bean of its own.
 */
@NullMarked
package io.github.kubeevents.autoconfigure.tracing;

import org.jspecify.annotations.NullMarked;
