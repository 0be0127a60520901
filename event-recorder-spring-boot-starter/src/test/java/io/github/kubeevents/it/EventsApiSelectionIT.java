package io.github.kubeevents.it;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.github.kubeevents.test.cluster.TestClusterBackend;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.Test;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.events;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kubeevents.sink.api=auto} on an API server that does not serve events.k8s.io/v1
 * ({@code --runtime-config=events.k8s.io/v1=false}): discovery gets 404 and the recorder writes core/v1 Events,
 * saying why. Needs a second, differently configured local control plane, so it runs on the local backend only.
 */
@WithTestCluster(backend = TestClusterBackend.LOCAL)
class EventsApiSelectionIT {

	@Test
	void autoFallsBackToCoreV1WhenEventsV1IsNotServed(KubernetesTestCluster shared) throws Exception {
		try (LocalControlPlane cp = LocalControlPlane.builder()
			.apiServerArg("--runtime-config=events.k8s.io/v1=false")
			.start()) {
			ApiClient client = cp.adminClient();
			CoreV1Api admin = new CoreV1Api(cp.adminClient());
			String ns = createNamespace(admin);
			HttpExchangeLog http = HttpExchangeLog.attachTo(client);
			starter(client, "kubeevents.sink.api=auto").run((context) -> {
				assertThat(snapshot(context).sinks()).singleElement().satisfies((sink) -> {
					assertThat(sink.api()).isEqualTo("core/v1");
					assertThat(sink.apiReason()).isEqualTo("auto: the API server does not serve events.k8s.io/v1");
				});
				context.getBean(EventRecorder.class)
					.about(InvolvedObject.of("Pod", "v1", ns, "web-0"))
					.action("Starting")
					.normal("Started", "Started container web");
				awaiting().until(() -> events(admin, ns).size() == 1);
				assertThat(http.summary()).containsExactly("GET 404", "POST 201");
				assertThat(http.exchanges().get(1).path()).isEqualTo("/api/v1/namespaces/" + ns + "/events");
				assertThat(events(admin, ns).get(0).getAction()).isEqualTo("Starting");
			});
		}
	}

}
