/**
 * Where the recorder writes: detection of the in-cluster service account and of kubeconfigs, and the
 * resolution of {@code kubeevents.sink.mode} into a sink.
 */
@NullMarked
package io.github.kubeevents.autoconfigure.cluster;

import org.jspecify.annotations.NullMarked;
