/**
 * A real Kubernetes API server for tests: {@link io.github.kubeevents.test.cluster.KubernetesTestCluster} with two
 * backends (local etcd and kube-apiserver processes, {@link io.github.kubeevents.test.cluster.LocalControlPlane}, or
 * Testcontainers K3s, {@link io.github.kubeevents.test.cluster.K3sTestCluster}), the JUnit 5 extension
 * ({@link io.github.kubeevents.test.cluster.WithTestCluster}) and a namespace per test class
 * ({@link io.github.kubeevents.test.cluster.TestNamespace}).
 *
 * <p><b>API.</b> Every public type of this package is API, kept compatible within a major version.
 */
package io.github.kubeevents.test.cluster;
