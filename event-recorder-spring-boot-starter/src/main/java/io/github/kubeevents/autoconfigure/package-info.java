/**
 * Spring Boot auto-configuration of the kube-events recorder: properties, customizers, the cluster connection
 * ({@link io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails}), where events go
 * ({@link io.github.kubeevents.status.KubeEventsStatus}), and the failure analyzers of startup problems.
 * Detection, the lifecycle and the other helpers are package-private beside the auto-configuration, as in Spring
 * Boot's own modules.
 *
 * <p><b>API, SPI and internals.</b> {@link io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails},
 * {@link io.github.kubeevents.autoconfigure.EventBroadcasterCustomizer} and
 * {@link io.github.kubeevents.autoconfigure.CorrelatorOptionsCustomizer} are SPI: applications implement them, and
 * a minor version adds methods to them only as {@code default} methods. The properties are API through their
 * names. {@link io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration} is internal although public
 * (Spring Boot needs it to be): refer to it only to exclude or import it.
 */
@NullMarked
package io.github.kubeevents.autoconfigure;

import org.jspecify.annotations.NullMarked;
