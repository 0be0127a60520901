/**
 * Spring Boot auto-configuration of the kube-events recorder: properties, the broadcaster and its lifecycle, the
 * sink chosen by {@code kubeevents.sink}, and the optional Actuator endpoint, health indicator and metrics.
 */
@NullMarked
package io.github.kubeevents.autoconfigure;

import org.jspecify.annotations.NullMarked;
