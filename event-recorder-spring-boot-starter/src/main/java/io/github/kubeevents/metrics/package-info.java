/**
 * The recorder's Micrometer meters.
 */
@NullMarked
package io.github.kubeevents.metrics;

import org.jspecify.annotations.NullMarked;
