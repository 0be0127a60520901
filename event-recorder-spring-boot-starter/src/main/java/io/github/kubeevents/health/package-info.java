/**
 * The {@code kubeevents} health indicator.
 *
 * <p><b>Internal although public:</b> these beans are public for Spring Boot; their constructors and methods may
 * change in a minor version. The contract is what they show: the health statuses and documented details (docs/observability.md).
 */
@NullMarked
package io.github.kubeevents.health;

import org.jspecify.annotations.NullMarked;
