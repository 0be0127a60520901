/**
 * Auto-configuration of the recorder's Micrometer meters.
 */
@NullMarked
package io.github.kubeevents.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
