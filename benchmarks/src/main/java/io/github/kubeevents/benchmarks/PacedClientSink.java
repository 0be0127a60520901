package io.github.kubeevents.benchmarks;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.Subscription;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;

/**
 * The paced caller's sinks that write to a real kube-apiserver ({@code --sink official|fabric8}): a local control
 * plane, and one core/v1 sink (the default correlator, as {@code --sink instant}) writing through the official
 * client or a fabric8 {@code KubernetesClient}. Called by {@link PacedCaller} by reflection, so that class still
 * builds against older versions of the library; the control plane and the client are closed at exit.
 */
final class PacedClientSink {

	private PacedClientSink() {
	}

	/**
	 * A broadcaster with one core/v1 sink writing through {@code clientName} to a new local control plane.
	 * @param clientName {@code official} or {@code fabric8}
	 * @param incomingCapacity the incoming queue's capacity, or {@code 0} for the default
	 * @param subscriberCapacity each subscriber's queue capacity, or {@code 0} for the default
	 * @return the broadcaster, not started
	 */
	public static EventBroadcaster start(String clientName, int incomingCapacity, int subscriberCapacity) {
		LocalControlPlane controlPlane = LocalControlPlane.builder().start();
		try {
			// the workload's Pods are in prod: without it every write would be refused (404 namespace not found)
			new CoreV1Api(controlPlane.adminClient())
				.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("prod")))
				.execute();
		}
		catch (ApiException ex) {
			throw new IllegalStateException("cannot create namespace prod: " + ex.getCode(), ex);
		}
		KubernetesClient fabric8 = BenchmarkClients.fabric8(controlPlane.baseUrl(), controlPlane.caCertificate(),
				controlPlane.adminToken());
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			fabric8.close();
			controlPlane.close();
		}, "paced-control-plane-stop"));
		EventBroadcaster.Builder builder = EventBroadcaster.builder().eventsApi(EventsApi.CORE_V1);
		if (incomingCapacity > 0) {
			builder.incomingQueueCapacity(incomingCapacity);
		}
		if (subscriberCapacity > 0) {
			builder.subscriberOptions(new Subscription.Options(subscriberCapacity, Subscription.FullQueuePolicy.DROP));
		}
		EventBroadcaster broadcaster = builder.build();
		BenchmarkClients.startRecording(broadcaster, clientName, controlPlane.adminClient(), fabric8);
		return broadcaster;
	}

}
