/**
 * The recorder's Micrometer meters.
 *
 * <p><b>Internal although public:</b> these beans are public for Spring Boot; their constructors and methods may
 * change in a minor version. The contract is what they show: the meter names and tags (docs/observability.md).
 */
@NullMarked
package io.github.kubeevents.metrics;

import org.jspecify.annotations.NullMarked;
