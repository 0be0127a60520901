/**
 * Where events are written: the {@link io.github.kubeevents.sink.EventSink} SPI, its implementation over the
 * official Kubernetes Java client, the retry policy and the error classes.
 */
@NullMarked
package io.github.kubeevents.sink;

import org.jspecify.annotations.NullMarked;
