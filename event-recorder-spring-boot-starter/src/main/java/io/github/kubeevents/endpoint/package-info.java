/**
 * The {@code kubeevents} Actuator endpoint and its JSON descriptors.
 *
 * <p><b>Internal although public:</b> these beans are public for Spring Boot; their constructors and methods may
 * change in a minor version. The contract is what they show: the endpoint's documented JSON fields (docs/observability.md).
 */
@NullMarked
package io.github.kubeevents.endpoint;

import org.jspecify.annotations.NullMarked;
