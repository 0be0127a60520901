/**
 * Auto-configuration of the {@code kubeevents} Actuator endpoint and its {@code management.endpoint.kubeevents.*}
 * properties.
 */
@NullMarked
package io.github.kubeevents.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
