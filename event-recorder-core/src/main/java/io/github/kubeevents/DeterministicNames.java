package io.github.kubeevents;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.jspecify.annotations.Nullable;

/**
 * What identifies an occurrence stream, and so names its Event, in the opt-in deterministic-names mode: the same
 * stream gets the same name in every process (after a restart, in another replica), so its occurrences meet on one
 * Event. Built with {@link EventNames#forStream} (a readable object-name prefix and a 128-bit hash; the collision
 * bound is stated there).
 *
 * <p>In the name: the involved (regarding) object's namespace, kind, name, uid, apiVersion and fieldPath, the
 * reason, the type, the reporting component, and
 * <ul>
 * <li>core/v1: the message, or for an aggregate Event the marker {@code (aggregate)} instead (the aggregate's
 * message changes with every similar event; its key is the object, type, reason and component);</li>
 * <li>events.k8s.io/v1: the action and the related object (the note is not part of a series' key, as in
 * client-go).</li>
 * </ul>
 * Never in the name: the reporting instance (host) — so that a restarted pod with a new name and a second replica
 * write the same Event —, the object's resourceVersion (an object that changes would otherwise start a new Event
 * every time; Flux reverted such a key) and any timestamp.
 *
 * <p>Stateless and thread-safe.
 */
final class DeterministicNames {

	/** The message part of an aggregate Event's identity. */
	static final String AGGREGATE = "(aggregate)";

	/** Read only: stands in for a missing reference, whose fields all count as absent. */
	private static final V1ObjectReference NO_REF = new V1ObjectReference();

	private DeterministicNames() {
	}

	/**
	 * The deterministic name of a core/v1 Event.
	 * @param event the event (its involvedObject, reason, type, message and source are read)
	 * @param aggregate whether it is an aggregate Event (then its message is not part of the identity)
	 */
	static String coreV1(CoreV1Event event, boolean aggregate) {
		V1ObjectReference object = orNone(event.getInvolvedObject());
		String component = (event.getSource() != null) ? event.getSource().getComponent()
				: event.getReportingComponent();
		String namespace = (event.getMetadata() != null) ? event.getMetadata().getNamespace() : null;
		return EventNames.forStream(nameOf(object), "core/v1", namespace, object.getKind(), object.getNamespace(),
				nameOf(object), object.getUid(), object.getApiVersion(), object.getFieldPath(), event.getReason(),
				event.getType(), aggregate ? AGGREGATE : event.getMessage(), component);
	}

	/**
	 * The deterministic name of an events.k8s.io/v1 Event.
	 * @param event the event (its regarding, related, reason, type, action and reportingController are read)
	 */
	static String eventsV1(EventsV1Event event) {
		V1ObjectReference regarding = orNone(event.getRegarding());
		V1ObjectReference related = orNone(event.getRelated());
		String namespace = (event.getMetadata() != null) ? event.getMetadata().getNamespace() : null;
		return EventNames.forStream(nameOf(regarding), "events.k8s.io/v1", namespace, regarding.getKind(),
				regarding.getNamespace(), nameOf(regarding), regarding.getUid(), regarding.getApiVersion(),
				regarding.getFieldPath(), event.getReason(), event.getType(), event.getAction(),
				event.getReportingController(), (event.getRelated() != null) ? "related" : null, related.getKind(),
				related.getNamespace(), nameOf(related), related.getUid(), related.getApiVersion(),
				related.getFieldPath());
	}

	private static V1ObjectReference orNone(@Nullable V1ObjectReference ref) {
		return (ref != null) ? ref : NO_REF;
	}

	private static String nameOf(V1ObjectReference ref) {
		return (ref.getName() != null) ? ref.getName() : "";
	}

}
