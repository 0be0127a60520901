/**
 * Spring Boot auto-configuration of the kube-events recorder: properties, the broadcaster and its lifecycle,
 * customizers, the cluster connection, and the failure analyzers of startup problems.
 */
@NullMarked
package io.github.kubeevents.autoconfigure;

import org.jspecify.annotations.NullMarked;
