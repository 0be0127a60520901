package io.github.kubeevents.fabric8;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;

/** {@link SinkClientIT} over the official Kubernetes Java client: the reference the fabric8 client must equal. */
class OfficialSinkClientIT extends SinkClientIT {

	@Override
	void startRecording(EventBroadcaster broadcaster, KubernetesTestCluster cluster, Identity identity) {
		broadcaster.startRecordingTo(cluster.client(cluster.token(identity)));
	}

}
