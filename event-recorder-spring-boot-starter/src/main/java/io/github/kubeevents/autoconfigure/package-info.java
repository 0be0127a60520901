/**
 * Spring Boot auto-configuration of the kube-events recorder: properties, customizers, the cluster connection
 * ({@link io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails}), where events go
 * ({@link io.github.kubeevents.status.KubeEventsStatus}), and the failure analyzers of startup problems.
 * Detection, the lifecycle and the other helpers are package-private beside the auto-configuration, as in Spring
 * Boot's own modules.
 */
@NullMarked
package io.github.kubeevents.autoconfigure;

import org.jspecify.annotations.NullMarked;
