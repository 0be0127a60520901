/**
 * The event recorder over a fabric8 {@code KubernetesClient}: {@link io.github.kubeevents.fabric8.Fabric8EventsClient}.
 */
@NullMarked
package io.github.kubeevents.fabric8;

import org.jspecify.annotations.NullMarked;
