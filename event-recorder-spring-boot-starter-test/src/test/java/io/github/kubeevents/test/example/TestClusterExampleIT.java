package io.github.kubeevents.test.example;

import java.time.Duration;

import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.connection.KubeEventsTestCluster;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The setup of docs/testing.md's {@code @KubeEventsTestCluster} example (the page asserts with {@code ClusterEvents};
 * this test reads through {@code CoreV1Api}): the application writes into a real API server run from local binaries
 * (or K3s where only Docker is available), through the same connection details a {@code @ServiceConnection} K3s
 * container gives.
 */
@SpringBootTest
@KubeEventsTestCluster
class TestClusterExampleIT {

	@Autowired
	WidgetService widgets;

	@Test
	void writesTheEventIntoTheTestCluster(KubernetesTestCluster cluster) {
		this.widgets.create("w-local", 0);
		CoreV1Api api = new CoreV1Api(cluster.adminClient());
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
				api.listNamespacedEvent("default").fieldSelector("involvedObject.name=w-local").execute().getItems())
			.singleElement()
			.satisfies((event) -> {
				assertThat(event.getType()).isEqualTo("Warning");
				assertThat(event.getReason()).isEqualTo("FailedCreate");
				assertThat(event.getInvolvedObject().getKind()).isEqualTo("Widget");
			}));
	}

}
