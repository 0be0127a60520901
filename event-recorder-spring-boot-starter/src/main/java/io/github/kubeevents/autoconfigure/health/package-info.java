/**
 * Auto-configuration of the {@code kubeevents} health indicator.
 */
@NullMarked
package io.github.kubeevents.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
