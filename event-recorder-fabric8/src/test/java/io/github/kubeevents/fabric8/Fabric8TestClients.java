package io.github.kubeevents.fabric8;

import java.util.Base64;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;

/** fabric8 clients of a test cluster: its URL, CA and an identity's bearer token, nothing from the environment. */
final class Fabric8TestClients {

	private Fabric8TestClients() {
	}

	static KubernetesClient client(KubernetesTestCluster cluster, Identity identity) {
		Config config = new ConfigBuilder(Config.empty()).withMasterUrl(cluster.baseUrl())
			.withCaCertData(Base64.getEncoder().encodeToString(cluster.caCertificate()))
			.withOauthToken(cluster.token(identity))
			.build();
		return new KubernetesClientBuilder().withConfig(config).build();
	}

}
