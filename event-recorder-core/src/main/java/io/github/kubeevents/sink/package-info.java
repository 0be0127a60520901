/**
 * Where events are written: the {@link io.github.kubeevents.sink.Sink} SPI of either events API
 * ({@link io.github.kubeevents.sink.EventSink} for core/v1, {@link io.github.kubeevents.sink.EventsV1Sink} for
 * events.k8s.io/v1), the clients that make them ({@link io.github.kubeevents.sink.EventsClient}; the official
 * Kubernetes Java client's is {@link io.github.kubeevents.sink.EventsClient#of EventsClient.of(ApiClient)},
 * package-private
 * here with its sinks and request path), the retry policy and the error classes.
 *
 * <p><b>SPI.</b> {@link io.github.kubeevents.sink.Sink}, {@link io.github.kubeevents.sink.EventSink},
 * {@link io.github.kubeevents.sink.EventsV1Sink}, {@link io.github.kubeevents.sink.EventsClient} and
 * {@link io.github.kubeevents.sink.Sink.RequestListener} are implemented outside this library
 * (event-recorder-fabric8 implements {@code EventsClient} and {@code Sink}, tests and decorators the sinks): a minor
 * version adds methods to them only as {@code default} methods. The other public types are API.
 */
@NullMarked
package io.github.kubeevents.sink;

import org.jspecify.annotations.NullMarked;
