package io.github.kubeevents.test.cluster;

import java.io.StringReader;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.Config;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.EnabledIfDockerAvailable;

import static io.github.kubeevents.test.cluster.LocalControlPlaneIT.createNamespace;
import static io.github.kubeevents.test.cluster.LocalControlPlaneIT.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The K3s backend for real. Needs a Docker engine that runs privileged containers; skipped (reported as skipped)
 * without one, which is the case on the machines this module was written on: these tests have never run there.
 */
@Tag("k3s")
@EnabledIfDockerAvailable
@WithTestCluster(backend = TestClusterBackend.K3S)
class K3sTestClusterIT {

	@Test
	void identitiesAndKubeconfigs(K3sTestCluster cluster) throws Exception {
		CoreV1Api admin = new CoreV1Api(cluster.adminClient());
		String ns = createNamespace(admin);
		admin.createNamespacedEvent(ns, event(ns, "by-admin")).execute();
		CoreV1Api restricted = new CoreV1Api(cluster.restrictedClient());

		ApiException denied = catchThrowableOfType(ApiException.class,
				() -> restricted.createNamespacedEvent(ns, event(ns, "by-restricted")).execute());

		assertThat(denied.getCode()).isEqualTo(403);
		V1Status status = JSON.deserialize(denied.getResponseBody(), V1Status.class);
		assertThat(status.getMessage()).isEqualTo("events is forbidden: User \"" + cluster.restrictedUserName()
				+ "\" cannot create resource \"events\" in API group \"\" in the namespace \"" + ns + "\"");
		assertThat(restricted.listNamespacedEvent(ns).execute().getItems()).hasSize(1);
		CoreV1Api adminByToken = new CoreV1Api(cluster.client(cluster.adminToken()));
		assertThat(adminByToken.readNamespace(ns).execute().getMetadata().getName()).isEqualTo(ns);
		ApiClient fromKubeconfig = Config.fromConfig(new StringReader(cluster.kubeconfig(Identity.ADMIN)));
		assertThat(new CoreV1Api(fromKubeconfig).readNamespace(ns).execute().getMetadata().getName()).isEqualTo(ns);
		System.out.println("[k3s-it] " + cluster + " started in " + cluster.startupTime().toMillis() + " ms");
	}

	@Test
	void capabilities(KubernetesTestCluster cluster) {
		assertThat(cluster.backend()).isEqualTo(TestClusterBackend.K3S);
		assertThat(cluster.supports(Capability.FREEZE_API_SERVER)).isTrue();
		assertThat(cluster.supports(Capability.STOP_API_SERVER)).isFalse();
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(cluster::stopApiServer);
	}

	@Test
	void separateClusterWithShortTtlFreezesAndThaws() throws Exception {
		try (K3sTestCluster cluster = K3sTestCluster.builder().eventTtl(Duration.ofSeconds(5)).start()) {
			CoreV1Api admin = new CoreV1Api(cluster.adminClient());
			String ns = createNamespace(admin);
			admin.createNamespacedEvent(ns, event(ns, "short-lived")).execute();
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(250))
				.until(() -> admin.listNamespacedEvent(ns).execute().getItems().isEmpty());

			ApiClient impatient = cluster.adminClient();
			impatient.setHttpClient(impatient.getHttpClient().newBuilder().readTimeout(1, TimeUnit.SECONDS).build());
			cluster.freezeApiServer();
			ApiException frozen = catchThrowableOfType(ApiException.class,
					() -> new CoreV1Api(impatient).readNamespace(ns).execute());
			assertThat(frozen.getCause()).isInstanceOf(SocketTimeoutException.class);
			cluster.thawApiServer();
			assertThat(new CoreV1Api(impatient).readNamespace(ns).execute().getMetadata().getName()).isEqualTo(ns);
		}
	}

}
