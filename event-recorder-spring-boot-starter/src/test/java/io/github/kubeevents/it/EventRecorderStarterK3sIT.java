package io.github.kubeevents.it;

import io.github.kubeevents.test.cluster.TestClusterBackend;
import io.github.kubeevents.test.cluster.WithTestCluster;
import org.junit.jupiter.api.Tag;
import org.testcontainers.junit.jupiter.EnabledIfDockerAvailable;

/**
 * {@link EventRecorderStarterIT}'s scenarios on K3s (Testcontainers), all but those that need a backend without
 * controllers (skipped through their {@code @RequiresCapability}). Skipped, and reported as skipped, without a
 * Docker engine.
 */
@Tag("k3s")
@EnabledIfDockerAvailable
@WithTestCluster(backend = TestClusterBackend.K3S)
class EventRecorderStarterK3sIT extends EventRecorderStarterIT {

}
