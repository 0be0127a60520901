package io.github.kubeevents.it;

import io.github.kubeevents.test.cluster.TestClusterBackend;
import io.github.kubeevents.test.cluster.WithTestCluster;
import org.junit.jupiter.api.Tag;
import org.testcontainers.junit.jupiter.EnabledIfDockerAvailable;

/**
 * {@link EventTtlIT} on K3s (Testcontainers), with {@code --kube-apiserver-arg=event-ttl=5s}. Skipped, and reported
 * as skipped, without a Docker engine.
 */
@Tag("k3s")
@EnabledIfDockerAvailable
@WithTestCluster(backend = TestClusterBackend.K3S, eventTtl = "5s")
class EventTtlK3sIT extends EventTtlIT {

}
