package io.github.kubeevents.test.example;

import java.io.StringReader;
import java.time.Duration;

import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.util.Config;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The example of docs/testing.md, "K3s with {@code @ServiceConnection}": {@code @ServiceConnection} on a K3s
 * container. Needs a Docker engine that runs privileged containers; skipped (and reported as skipped) without one.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest
class K3sServiceConnectionExampleIT {

	@Container
	@ServiceConnection
	static K3sContainer k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.35.4-k3s1"));

	@Autowired
	WidgetService widgets;

	@Test
	void writesTheEventIntoK3s() throws Exception {
		this.widgets.create("w-k3s", 0);
		CoreV1Api api = new CoreV1Api(Config.fromConfig(new StringReader(k3s.getKubeConfigYaml())));
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
				api.listNamespacedEvent("default").fieldSelector("involvedObject.name=w-k3s").execute().getItems())
			.singleElement()
			.satisfies((event) -> assertThat(event.getReason()).isEqualTo("FailedCreate")));
	}

}
