package com.example.consumer;

import java.time.Duration;

import io.github.kubeevents.test.assertj.ClusterEvents;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.connection.KubeEventsTestCluster;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application starts against a real kube-apiserver (local binaries from KUBEBUILDER_ASSETS; under CI=true a
 * missing control plane fails the test instead of skipping it) and the Event it records on start is stored there.
 */
@SpringBootTest
@KubeEventsTestCluster
class ConsumerApplicationTests {

	@Test
	void recordsAnEventOnStart(KubernetesTestCluster cluster) {
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(ClusterEvents.read(cluster, "default")
				.about("ConfigMap", "default", "consumer-proof")).hasNormal("ConsumerStarted")
				.hasOccurrences("ConsumerStarted", 1));
	}

}
