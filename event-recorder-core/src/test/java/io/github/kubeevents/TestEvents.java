package io.github.kubeevents;

import java.time.Instant;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;

/** Fixtures shaped like client-go's events_cache_test helpers. */
public final class TestEvents {

	public static final String UID = "C934D34AFB20242";

	private TestEvents() {
	}

	public static V1ObjectReference ref(String kind, String name, String namespace) {
		return new V1ObjectReference().kind(kind)
			.name(name)
			.namespace(namespace)
			.uid(UID)
			.apiVersion("version")
			.fieldPath("spec.containers{mycontainer}");
	}

	public static CoreV1Event event(String reason, String message, V1ObjectReference ref) {
		Instant now = Instant.parse("2026-01-01T00:00:00Z");
		return new CoreV1Event().metadata(new V1ObjectMeta().name("name").namespace(ref.getNamespace()))
			.involvedObject(Events.copy(ref))
			.reason(reason)
			.message(message)
			.source(new V1EventSource().component("kubelet").host("kublet.node1"))
			.count(1)
			.firstTimestamp(Events.timestamp(now))
			.lastTimestamp(Events.timestamp(now))
			.type("Normal");
	}

}
