package io.github.kubeevents;

import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * Records Kubernetes events about objects, like client-go's {@code record.EventRecorder}.
 *
 * <p>Every method returns at once: it never blocks on the network or a full queue, and never throws. Input that
 * cannot become an event (a {@code null} object, an object without a name, a type other than
 * {@code "Normal"}/{@code "Warning"}, a {@code null} reason, a bad format string, an oversized message) is
 * logged at WARN with the problem named and counted as an {@code invalid_input} drop.
 *
 * <p>{@code eventf} formats with {@link String#format(java.util.Locale, String, Object...)} in
 * {@link java.util.Locale#ROOT} (Java format syntax, not Go's: use {@code %s}, {@code %d}; there is no
 * {@code %v}).
 *
 * <p>Implementations are thread-safe.
 */
public interface EventRecorder {

	/**
	 * Records an event with a verbatim message.
	 * @param object the involved object; kind/apiVersion are resolved from its model class when unset
	 * @param type Normal or Warning
	 * @param reason short, machine-readable UpperCamelCase reason, e.g. {@code FailedCreate}
	 * @param message human-readable message, used as is
	 */
	default void event(KubernetesObject object, EventType type, String reason, String message) {
		record(object, null, typeValue(type), reason, message, null);
	}

	/**
	 * Records an event with a verbatim message about a reference.
	 * @param reference the involved object's reference, used as is
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param message the message, used as is
	 */
	default void event(V1ObjectReference reference, EventType type, String reason, String message) {
		record(reference, null, typeValue(type), reason, message, null);
	}

	/**
	 * Records an event with a verbatim message; the type must be exactly {@code "Normal"} or {@code "Warning"}.
	 * @param object the involved object
	 * @param type {@code "Normal"} or {@code "Warning"}
	 * @param reason the reason
	 * @param message the message, used as is
	 */
	default void event(KubernetesObject object, String type, String reason, String message) {
		record(object, null, type, reason, message, null);
	}

	/**
	 * Records an event with a verbatim message about a reference; the type must be {@code "Normal"} or
	 * {@code "Warning"}.
	 * @param reference the involved object's reference
	 * @param type {@code "Normal"} or {@code "Warning"}
	 * @param reason the reason
	 * @param message the message, used as is
	 */
	default void event(V1ObjectReference reference, String type, String reason, String message) {
		record(reference, null, type, reason, message, null);
	}

	/**
	 * Records an event with a formatted message.
	 * @param object the involved object
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void eventf(KubernetesObject object, EventType type, String reason, String messageFormat, Object... args) {
		record(object, null, typeValue(type), reason, messageFormat, args(args));
	}

	/**
	 * Records an event with a formatted message about a reference.
	 * @param reference the involved object's reference
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void eventf(V1ObjectReference reference, EventType type, String reason, String messageFormat,
			Object... args) {
		record(reference, null, typeValue(type), reason, messageFormat, args(args));
	}

	/**
	 * Records an event with a formatted message; the type must be {@code "Normal"} or {@code "Warning"}.
	 * @param object the involved object
	 * @param type {@code "Normal"} or {@code "Warning"}
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void eventf(KubernetesObject object, String type, String reason, String messageFormat, Object... args) {
		record(object, null, type, reason, messageFormat, args(args));
	}

	/**
	 * Records an event with a formatted message and annotations on the Event.
	 * @param object the involved object
	 * @param annotations annotations to set on the Event's metadata, may be {@code null}
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void annotatedEventf(KubernetesObject object, Map<String, String> annotations, EventType type,
			String reason, String messageFormat, Object... args) {
		record(object, annotations, typeValue(type), reason, messageFormat, args(args));
	}

	/**
	 * Records an event about a reference with a formatted message and annotations on the Event.
	 * @param reference the involved object's reference
	 * @param annotations annotations to set on the Event's metadata, may be {@code null}
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void annotatedEventf(V1ObjectReference reference, Map<String, String> annotations, EventType type,
			String reason, String messageFormat, Object... args) {
		record(reference, annotations, typeValue(type), reason, messageFormat, args(args));
	}

	/**
	 * Records an event with a formatted message and annotations; the type must be {@code "Normal"} or
	 * {@code "Warning"}.
	 * @param object the involved object
	 * @param annotations annotations to set on the Event's metadata, may be {@code null}
	 * @param type {@code "Normal"} or {@code "Warning"}
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void annotatedEventf(KubernetesObject object, Map<String, String> annotations, String type, String reason,
			String messageFormat, Object... args) {
		record(object, annotations, type, reason, messageFormat, args(args));
	}

	/**
	 * The one method implementations provide; every other method delegates here. Never blocks, never throws.
	 * @param involvedObject a {@link KubernetesObject} or a {@link V1ObjectReference} (anything else, or
	 * {@code null}, is invalid input)
	 * @param annotations annotations for the Event, may be {@code null}
	 * @param type the wire type, must be {@code "Normal"} or {@code "Warning"}
	 * @param reason the reason, not {@code null}
	 * @param message the message, or the format pattern when {@code args} is not {@code null}
	 * @param args format arguments, or {@code null} for a verbatim message
	 */
	void record(Object involvedObject, Map<String, String> annotations, String type, String reason, String message,
			Object[] args);

	private static String typeValue(EventType type) {
		return (type != null) ? type.value() : null;
	}

	private static Object[] args(Object[] args) {
		return (args != null) ? args : new Object[0];
	}

}
