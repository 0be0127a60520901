package io.github.kubeevents.fabric8;

import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;

/** {@link SinkClientIT} over a fabric8 {@link KubernetesClient}. */
class Fabric8SinkClientIT extends SinkClientIT {

	private final List<KubernetesClient> clients = new ArrayList<>();

	@Override
	void startRecording(EventBroadcaster broadcaster, KubernetesTestCluster cluster, Identity identity) {
		KubernetesClient client = Fabric8TestClients.client(cluster, identity);
		this.clients.add(client);
		broadcaster.startRecordingTo(Fabric8EventsClient.of(client));
	}

	@Override
	void recorderShutDown() {
		this.clients.forEach(KubernetesClient::close);
		this.clients.clear();
	}

}
