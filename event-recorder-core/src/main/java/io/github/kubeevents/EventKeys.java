package io.github.kubeevents;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * The correlator's key functions, composed exactly like client-go's: plain concatenation of the fields with no
 * separator ({@code null} counts as empty).
 *
 * <p>Stateless and thread-safe.
 */
public final class EventKeys {

	private EventKeys() {
	}

	/**
	 * The full identity of an event ({@code getEventKey}), used by the {@link EventObserver}: source component
	 * and host, involved object kind, namespace, name, fieldPath, uid, apiVersion, then type, reason and
	 * message.
	 * @param event the event
	 * @return the key
	 */
	public static String eventKey(CoreV1Event event) {
		V1ObjectReference ref = ref(event);
		return join(component(event), host(event), ref.getKind(), ref.getNamespace(), ref.getName(),
				ref.getFieldPath(), ref.getUid(), ref.getApiVersion(), event.getType(), event.getReason(),
				event.getMessage());
	}

	/**
	 * The default spam key ({@code getSpamKey}): source component and host, involved object kind, namespace,
	 * name, uid, apiVersion, and type. Reason, fieldPath and message are not part of it, so one object's budget
	 * is shared by all its reasons.
	 * @param event the event
	 * @return the key
	 */
	public static String spamKey(CoreV1Event event) {
		V1ObjectReference ref = ref(event);
		return join(component(event), host(event), ref.getKind(), ref.getNamespace(), ref.getName(), ref.getUid(),
				ref.getApiVersion(), event.getType());
	}

	/**
	 * {@link #spamKey(CoreV1Event)} plus the reason: one budget per (source, object, type, reason). Not a
	 * client-go default; offered because one flood should not silence an object's other reasons
	 * (kubernetes/kubernetes#136061).
	 * @param event the event
	 * @return the key
	 */
	public static String spamKeyWithReason(CoreV1Event event) {
		return spamKey(event) + nullToEmpty(event.getReason());
	}

	/**
	 * client-go's {@code EventAggregatorByReasonFunc}: the aggregate key is source component and host, involved
	 * object kind, namespace, name, uid, apiVersion, type, reason, reportingComponent and reportingInstance
	 * (no fieldPath); the local key is the message.
	 * @param event the event
	 * @return the two keys
	 */
	public static AggregateKey aggregateByReason(CoreV1Event event) {
		V1ObjectReference ref = ref(event);
		String aggregateKey = join(component(event), host(event), ref.getKind(), ref.getNamespace(), ref.getName(),
				ref.getUid(), ref.getApiVersion(), event.getType(), event.getReason(), event.getReportingComponent(),
				event.getReportingInstance());
		return new AggregateKey(aggregateKey, nullToEmpty(event.getMessage()));
	}

	private static V1ObjectReference ref(CoreV1Event event) {
		return (event.getInvolvedObject() != null) ? event.getInvolvedObject() : new V1ObjectReference();
	}

	private static String component(CoreV1Event event) {
		V1EventSource source = event.getSource();
		return (source != null) ? source.getComponent() : null;
	}

	private static String host(CoreV1Event event) {
		V1EventSource source = event.getSource();
		return (source != null) ? source.getHost() : null;
	}

	private static String join(String... parts) {
		StringBuilder key = new StringBuilder(128);
		for (String part : parts) {
			if (part != null) {
				key.append(part);
			}
		}
		return key.toString();
	}

	private static String nullToEmpty(String value) {
		return (value != null) ? value : "";
	}

}
