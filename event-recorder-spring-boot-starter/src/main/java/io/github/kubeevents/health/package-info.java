/**
 * The {@code kubeevents} health indicator.
 */
@NullMarked
package io.github.kubeevents.health;

import org.jspecify.annotations.NullMarked;
