/**
 * client-go's core/v1 event correlation: aggregation of similar events, count-patching of repeats and the
 * per-object spam filter ({@link io.github.kubeevents.correlator.EventCorrelator}).
 */
@NullMarked
package io.github.kubeevents.correlator;

import org.jspecify.annotations.NullMarked;
