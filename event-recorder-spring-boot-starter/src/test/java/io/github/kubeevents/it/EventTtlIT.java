package io.github.kubeevents.it;

import java.time.Duration;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.junit.jupiter.api.Test;

import static io.github.kubeevents.it.ItSupport.awaiting;
import static io.github.kubeevents.it.ItSupport.createNamespace;
import static io.github.kubeevents.it.ItSupport.drops;
import static io.github.kubeevents.it.ItSupport.events;
import static io.github.kubeevents.it.ItSupport.sinkStats;
import static io.github.kubeevents.it.ItSupport.snapshot;
import static io.github.kubeevents.it.ItSupport.starter;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 10: the API server expires Events after {@code --event-ttl} (an etcd lease); the recorder still
 * remembers the Event, PATCHes it, gets 404, and re-creates it under the same name with the count carried over.
 * Uses its own cluster with a 5 s TTL, closed after the class. {@link EventTtlK3sIT} runs it on K3s.
 */
@WithTestCluster(eventTtl = "5s")
class EventTtlIT {

	@Test
	void expiredEventIsRecreated(KubernetesTestCluster cp) throws ApiException {
		CoreV1Api admin = new CoreV1Api(cp.adminClient());
		String ns = createNamespace(admin);
		V1ObjectReference job = new V1ObjectReference().kind("Job")
			.apiVersion("batch/v1")
			.namespace(ns)
			.name("nightly-backup")
			.uid("4b7e0c1e-0000-4000-8000-00000000000a");
		ApiClient client = cp.adminClient();
		HttpExchangeLog http = HttpExchangeLog.attachTo(client);

		starter(client).run((context) -> {
			assertThat(context).hasNotFailed();
			EventRecorder recorder = context.getBean(EventRecorder.class);
			recorder.event(InvolvedObject.of(job), EventType.NORMAL, "Completed", "Job completed");
			awaiting().until(() -> sinkStats(context).created() == 1);
			CoreV1Event first = events(admin, ns).get(0);
			String name = first.getMetadata().getName();

			long written = System.nanoTime();
			awaiting().pollInterval(Duration.ofMillis(250)).until(() -> events(admin, ns).isEmpty());
			System.err.println("[ttl-it] Event " + name + " expired "
					+ Duration.ofNanos(System.nanoTime() - written).toMillis() + " ms after it was written");

			recorder.event(InvolvedObject.of(job), EventType.NORMAL, "Completed", "Job completed");
			awaiting().until(() -> sinkStats(context).created() == 2);

			assertThat(http.summary()).containsExactly("POST 201", "PATCH 404", "POST 201");
			assertThat(events(admin, ns)).singleElement().satisfies((event) -> {
				assertThat(event.getMetadata().getName()).isEqualTo(name);
				assertThat(event.getMetadata().getUid()).isNotEqualTo(first.getMetadata().getUid());
				assertThat(event.getCount()).isEqualTo(2);
				assertThat(event.getFirstTimestamp()).isEqualTo(first.getFirstTimestamp());
				assertThat(event.getReason()).isEqualTo("Completed");
				assertThat(event.getMessage()).isEqualTo("Job completed");
			});
			assertThat(sinkStats(context)).isEqualTo(new RecorderStats.Writes(2, 0, 0, 0));
			assertThat(snapshot(context).dropped()).isEqualTo(drops());
		});
	}

}
