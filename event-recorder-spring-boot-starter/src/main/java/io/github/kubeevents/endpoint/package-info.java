/**
 * The {@code kubeevents} Actuator endpoint and its JSON descriptors.
 */
@NullMarked
package io.github.kubeevents.endpoint;

import org.jspecify.annotations.NullMarked;
