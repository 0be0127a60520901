package io.github.kubeevents;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * Fixtures shaped like client-go's {@code events_cache_test.go} helpers: source {@code kubelet} /
 * {@code kublet.node1}, uid {@value #UID}, apiVersion {@code version} and fieldPath
 * {@code spec.containers{mycontainer}}, both as core/v1 Events (for the correlator and sinks) and as
 * {@link RecordedEvent}s (for the broadcaster and its subscribers).
 *
 * <p>Shared with the other modules' tests through core's test-jar. Stateless.
 */
public final class TestEvents {

	/** The uid of every fixture object. */
	public static final String UID = "C934D34AFB20242";

	/** The source of every fixture event. */
	public static final EventSource SOURCE = new EventSource("kubelet", "kublet.node1");

	/** The timestamp of every fixture event. */
	public static final Instant TIME = Instant.parse("2026-01-01T00:00:00Z");

	private TestEvents() {
	}

	/**
	 * A reference like client-go's test fixtures.
	 * @param kind e.g. {@code Pod}
	 * @param name the object's name
	 * @param namespace its namespace, {@code null} for a cluster-scoped object
	 * @return a new reference with uid {@value #UID}, apiVersion {@code version} and a container fieldPath
	 */
	public static V1ObjectReference ref(String kind, String name, String namespace) {
		return new V1ObjectReference().kind(kind)
			.name(name)
			.namespace(namespace)
			.uid(UID)
			.apiVersion("version")
			.fieldPath("spec.containers{mycontainer}");
	}

	/**
	 * {@link #ref(String, String, String)} as our own value type.
	 * @param kind e.g. {@code Pod}
	 * @param name the object's name
	 * @param namespace its namespace, {@code null} for a cluster-scoped object
	 * @return the reference
	 */
	public static InvolvedObject object(String kind, String name, String namespace) {
		return InvolvedObject.of(ref(kind, name, namespace));
	}

	/**
	 * A core/v1 Event as client-go's {@code makeEvent} test helper builds it: count 1, type Normal, both
	 * timestamps {@link #TIME}, name {@code name}, in the reference's namespace.
	 * @param reason the reason
	 * @param message the message
	 * @param ref the involved object (copied)
	 * @return a new Event
	 */
	public static CoreV1Event event(String reason, String message, V1ObjectReference ref) {
		OffsetDateTime time = OffsetDateTime.ofInstant(TIME, ZoneOffset.UTC);
		return new CoreV1Event().metadata(new V1ObjectMeta().name("name").namespace(ref.getNamespace()))
			.involvedObject(copy(ref))
			.reason(reason)
			.message(message)
			.source(new V1EventSource().component(SOURCE.component()).host(SOURCE.host()))
			.count(1)
			.firstTimestamp(time)
			.lastTimestamp(time)
			.type("Normal");
	}

	/**
	 * A recorded event of type Normal from {@link #SOURCE} at {@link #TIME}.
	 * @param reason the reason
	 * @param message the message
	 * @param regarding the object
	 * @return the event
	 */
	public static RecordedEvent recorded(String reason, String message, InvolvedObject regarding) {
		return new RecordedEvent(regarding, null, EventType.NORMAL, reason, null, message, Map.of(), SOURCE, TIME);
	}

	/**
	 * A deep copy through the client's JSON (independent of the library's own copying, which is under test).
	 * @param event the Event
	 * @return an equal Event sharing nothing with {@code event}
	 */
	public static CoreV1Event copy(CoreV1Event event) {
		return JSON.deserialize(JSON.serialize(event), CoreV1Event.class);
	}

	/**
	 * A copy of a reference.
	 * @param ref the reference, may be {@code null}
	 * @return an equal reference, or {@code null}
	 */
	public static V1ObjectReference copy(V1ObjectReference ref) {
		if (ref == null) {
			return null;
		}
		return new V1ObjectReference().kind(ref.getKind())
			.apiVersion(ref.getApiVersion())
			.namespace(ref.getNamespace())
			.name(ref.getName())
			.uid(ref.getUid())
			.resourceVersion(ref.getResourceVersion())
			.fieldPath(ref.getFieldPath());
	}

}
