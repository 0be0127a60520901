/**
 * The recorder's cluster connection ({@link io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails}) for a
 * {@link io.github.kubeevents.test.cluster.KubernetesTestCluster}: in {@code @SpringBootTest}s
 * ({@link KubeEventsTestCluster}) and for local runs ({@link TestClusterDevConfiguration}).
 */
@NullMarked
package io.github.kubeevents.test.connection;

import org.jspecify.annotations.NullMarked;
