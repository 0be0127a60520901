package io.github.kubeevents.test.connection;

import java.time.Duration;
import java.util.UUID;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.status.EffectiveSink;
import io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.test.assertj.ClusterEvents;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.TestClusterExtension;
import io.github.kubeevents.test.example.WidgetApplication;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link KubeEventsTestCluster} against the shared test cluster: the connection details bean is the recorder's
 * cluster, with the chosen identity.
 */
@SpringBootTest(classes = WidgetApplication.class)
@KubeEventsTestCluster
class KubeEventsTestClusterIT {

	private static final Duration AWAIT = Duration.ofSeconds(60);

	@Autowired
	KubeEventsConnectionDetails connectionDetails;

	@Autowired
	KubeEventsStatus status;

	@Autowired
	EventRecorder recorder;

	@Test
	void theRecorderWritesToTheSharedClusterAsAdmin(KubernetesTestCluster cluster) {
		assertThat(this.connectionDetails).isInstanceOfSatisfying(TestClusterConnectionDetails.class, (details) -> {
			assertThat(details.cluster()).isSameAs(cluster);
			assertThat(details.identity()).isEqualTo(Identity.ADMIN);
		});
		assertThat(TestClusterExtension.sharedCluster(cluster.backend())).isSameAs(cluster);
		assertThat(this.status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
		assertThat(this.status.apiServer()).isEqualTo(cluster.baseUrl());
		assertThat(this.status.reason())
			.isEqualTo("connection details: test cluster (" + cluster.backend() + ", admin)");
	}

	@Test
	void clusterAssertionsSeeTheStoredEvent(KubernetesTestCluster cluster) throws Exception {
		String namespace = "it-" + UUID.randomUUID().toString().substring(0, 8);
		new CoreV1Api(cluster.adminClient())
			.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(namespace)))
			.execute();
		// another object's Event in the same namespace, which the narrowed assertions must not count
		this.recorder.about(InvolvedObject.of("Widget", "example.com/v1", namespace, "w-2"))
			.action("Create")
			.warning("FailedCreate", "Error creating widget w-2: quota exceeded");
		this.recorder.about(InvolvedObject.of("Widget", "example.com/v1", namespace, "w-1"))
			.action("Create")
			.warning("FailedCreate", "Error creating widget w-1: quota exceeded");
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(ClusterEvents.read(cluster, namespace)).hasOccurrences("FailedCreate", 2));
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(ClusterEvents.read(cluster, namespace).about("Widget", namespace, "w-1"))
				.hasWarning("FailedCreate")
				.doesNotHaveReason("Created")
				.hasOccurrences("FailedCreate", 1)
				.eventWithReason("FailedCreate")
				.isAbout("Widget", namespace, "w-1")
				.hasAction("Create")
				.hasMessage("Error creating widget w-1: quota exceeded")
				.hasComponent("widgets"));
	}

	@Nested
	@KubeEventsTestCluster(identity = Identity.RESTRICTED)
	class Restricted {

		@Autowired
		EventRecorder recorder;

		@Autowired
		EventBroadcaster broadcaster;

		@Autowired
		KubeEventsConnectionDetails connectionDetails;

		@Test
		void writesAreRejectedForTheRestrictedIdentity(KubernetesTestCluster cluster) throws Exception {
			assertThat(((TestClusterConnectionDetails) this.connectionDetails).identity())
				.isEqualTo(Identity.RESTRICTED);
			this.recorder.about(InvolvedObject.of("ConfigMap", "v1", "default", "restricted-it"))
				.warning("Denied", "must not be stored");
			await().atMost(AWAIT)
				.until(() -> this.broadcaster.snapshot(10).dropped().get("rejected_by_server"), (n) -> n == 1L);
			CoreV1Api admin = new CoreV1Api(cluster.adminClient());
			assertThat(admin.listNamespacedEvent("default")
				.fieldSelector("involvedObject.name=restricted-it")
				.execute()
				.getItems()).isEmpty();
		}

	}

}
