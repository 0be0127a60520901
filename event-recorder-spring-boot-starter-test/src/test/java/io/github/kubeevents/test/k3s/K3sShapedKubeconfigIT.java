package io.github.kubeevents.test.k3s;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.github.kubeevents.test.example.WidgetApplication;
import io.github.kubeevents.test.example.WidgetService;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The K3s {@code @ServiceConnection} path without Docker, against a real kube-apiserver: a local control plane that
 * also accepts client certificates ({@code --client-ca-file}), and a {@code K3sContainer} whose
 * {@code getKubeConfigYaml()} returns a kubeconfig of the shape K3s writes (cluster, user and context
 * {@code default}, inline CA, an ECDSA client certificate of {@code system:admin}/{@code system:masters} with its
 * key in SEC1 form). Spring Boot's {@code ServiceConnectionAutoConfiguration} finds the starter's
 * {@code K3sContainerConnectionDetailsFactory}, the recorder authenticates with that certificate, and the Event
 * must be stored. What is not covered: starting K3s itself (needs Docker).
 */
@SpringBootTest(classes = { WidgetApplication.class, K3sShapedKubeconfigIT.K3sConfiguration.class })
class K3sShapedKubeconfigIT {

	private static LocalControlPlane controlPlane;

	private static String kubeconfig;

	@Autowired
	WidgetService widgets;

	@Autowired
	KubeEventsConnectionDetails connectionDetails;

	@Autowired
	KubeEventsStatus status;

	@BeforeAll
	static void startControlPlane(@TempDir Path dir) throws IOException {
		K3sStyleCertificates certificates = K3sStyleCertificates.generate();
		Path clientCa = Files.writeString(dir.resolve("client-ca.crt"), certificates.caPem());
		controlPlane = LocalControlPlane.builder().apiServerArg("--client-ca-file=" + clientCa).start();
		kubeconfig = k3sKubeconfig(controlPlane.baseUrl(), controlPlane.caCertificate(), certificates);
	}

	@AfterAll
	static void stopControlPlane() {
		if (controlPlane != null) {
			controlPlane.close();
		}
	}

	@Test
	void recorderWritesWithTheClientCertificateOfAK3sShapedKubeconfig() throws Exception {
		assertThat(new String(Base64.getDecoder().decode(field(kubeconfig, "client-key-data")), StandardCharsets.US_ASCII))
			.startsWith("-----BEGIN EC PRIVATE KEY-----");
		assertThat(this.connectionDetails.getClass().getName())
			.isEqualTo("io.github.kubeevents.testcontainers.K3sContainerConnectionDetailsFactory$K3sContainerConnectionDetails");
		assertThat(this.status.apiServer()).isEqualTo(controlPlane.baseUrl());
		assertThat(this.status.reason()).isEqualTo("connection details: K3sContainer " + KubeconfigOnlyK3sContainer.IMAGE);

		this.widgets.create("w-k3s-shaped", 0);

		CoreV1Api admin = new CoreV1Api(controlPlane.adminClient());
		List<CoreV1Event> events = await().atMost(Duration.ofSeconds(60))
			.until(() -> admin.listNamespacedEvent("default")
				.fieldSelector("involvedObject.name=w-k3s-shaped")
				.execute()
				.getItems(), (items) -> !items.isEmpty());
		assertThat(events).singleElement().satisfies((event) -> {
			assertThat(event.getType()).isEqualTo("Warning");
			assertThat(event.getReason()).isEqualTo("FailedCreate");
			assertThat(event.getMessage()).isEqualTo("Error creating widget w-k3s-shaped: quota exceeded");
			assertThat(event.getReportingComponent()).isEqualTo("widgets");
		});
	}

	/** The shape of {@code K3sContainer.getKubeConfigYaml()} (see event-recorder-test's k3s-kubeconfig.yaml). */
	private static String k3sKubeconfig(String server, byte[] serverCa, K3sStyleCertificates certificates) {
		Base64.Encoder base64 = Base64.getEncoder();
		return """
				---
				apiVersion: "v1"
				clusters:
				- cluster:
				    certificate-authority-data: "%s"
				    server: "%s"
				  name: "default"
				contexts:
				- context:
				    cluster: "default"
				    user: "default"
				  name: "default"
				current-context: "default"
				kind: "Config"
				preferences: {}
				users:
				- name: "default"
				  user:
				    client-certificate-data: "%s"
				    client-key-data: "%s"
				""".formatted(base64.encodeToString(serverCa), server,
				base64.encodeToString(certificates.clientCertificateChainPem().getBytes(StandardCharsets.US_ASCII)),
				base64.encodeToString(certificates.clientKeyPem().getBytes(StandardCharsets.US_ASCII)));
	}

	private static String field(String yaml, String name) {
		return yaml.lines()
			.filter((line) -> line.strip().startsWith(name + ":"))
			.map((line) -> line.substring(line.indexOf(':') + 1).strip().replace("\"", ""))
			.findFirst()
			.orElseThrow();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class K3sConfiguration {

		@Bean
		@ServiceConnection
		KubeconfigOnlyK3sContainer k3s() {
			return new KubeconfigOnlyK3sContainer(kubeconfig);
		}

	}

}
