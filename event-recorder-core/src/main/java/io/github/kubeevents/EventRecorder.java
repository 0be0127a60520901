package io.github.kubeevents;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Records Kubernetes events about objects: client-go's {@code record.EventRecorder} ({@code event},
 * {@code eventf}, {@code annotatedEventf}), plus {@link #about(Object)}, a recorder bound to one object that also
 * reaches client-go's {@code events.EventRecorder} fields ({@code related}, {@code action}):
 * <pre>{@code
 * recorder.eventf(pod, EventType.WARNING, "FailedCreate", "Error creating: %s", err);
 * recorder.about(pod).related(node).action("Binding").normal("Scheduled", "Assigned %s to %s", pod, node);
 * }</pre>
 *
 * <p><b>Objects.</b> Like client-go's {@code runtime.Object}, the object is any object the recorder can reference
 * ({@link InvolvedObject#from(Object)}): an {@link InvolvedObject}, an object of the official Java client
 * ({@code KubernetesObject}: kind and apiVersion come from the object or its model class) or a
 * {@code V1ObjectReference}. Objects of other clients go through an {@link InvolvedObject.Adapter}
 * ({@link #about(Object, InvolvedObject.Adapter)}). The reference is taken when the event is recorded, so it
 * carries the object's current resourceVersion.
 *
 * <p><b>Messages.</b> One rule for every method: the message is a {@link String#format} pattern (in
 * {@link java.util.Locale#ROOT}: Java's syntax, {@code %s}, {@code %d}; there is no {@code %v}) only when arguments
 * follow it, and used verbatim otherwise, so {@code eventf(pod, WARNING, "Full", "Disk 100% full")} is safe. A
 * pattern that fails to format with its arguments is still recorded, as the pattern, a mark and the arguments (see
 * {@link EventSpec}), counted and logged once per pattern.
 *
 * <p><b>Never blocks, never throws.</b> Every method returns at once. Input that cannot become an event (a
 * {@code null} or nameless object, an object of an unknown type, a {@code null} type, a {@code null} or empty
 * reason, an oversized message) is logged at WARN, naming the problem and the object, and counted as an
 * {@code invalid_input} drop.
 *
 * <p>Implementations provide {@link #record(EventSpec)}; every other method delegates to it. Implementations are
 * thread-safe.
 */
public interface EventRecorder {

	/**
	 * Records an event with a verbatim message (client-go's {@code Event}).
	 * @param regarding the object the event is about (see the class comment for the accepted types)
	 * @param type Normal or Warning
	 * @param reason short, machine-readable UpperCamelCase reason, e.g. {@code FailedCreate}
	 * @param message human-readable message, used as is
	 */
	default void event(Object regarding, EventType type, String reason, String message) {
		record(EventSpec.of(regarding, type, reason, message));
	}

	/**
	 * Records an event with a message formatted when arguments are given (client-go's {@code Eventf}).
	 * @param regarding the object the event is about
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern when {@code args} are given, else the message as is
	 * @param args the pattern's arguments
	 */
	default void eventf(Object regarding, EventType type, String reason, String messageFormat, Object... args) {
		record(new EventSpec(regarding, null, null, Map.of(), type, reason, null, messageFormat, args));
	}

	/**
	 * {@link #eventf} with annotations on the Event (client-go's {@code AnnotatedEventf}).
	 * @param regarding the object the event is about
	 * @param annotations annotations for the Event's metadata, may be {@code null}
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern when {@code args} are given, else the message as is
	 * @param args the pattern's arguments
	 */
	default void annotatedEventf(Object regarding, @Nullable Map<String, String> annotations, EventType type,
			String reason, String messageFormat, Object... args) {
		record(new EventSpec(regarding, null, null, annotations, type, reason, null, messageFormat, args));
	}

	/**
	 * A recorder bound to {@code regarding}, e.g. the primary resource of a reconciliation; its
	 * {@link ObjectRecorder#related related} and {@link ObjectRecorder#action action} give the events.k8s.io/v1
	 * fields (also written on core/v1).
	 * @param regarding the object every event of the returned recorder is about (see the class comment)
	 * @return the bound recorder (cheap and immutable; create one per use or keep it)
	 */
	default ObjectRecorder about(Object regarding) {
		return new ObjectRecorder(this, regarding, null, InvolvedObject::from);
	}

	/**
	 * A recorder bound to an object of any client, referenced by {@code adapter} when each event is recorded (a
	 * failing adapter makes that event an {@code invalid_input} drop).
	 * @param <T> the object's type
	 * @param regarding the object every event of the returned recorder is about
	 * @param adapter turns the object into a reference
	 * @return the bound recorder
	 */
	default <T> ObjectRecorder about(T regarding, InvolvedObject.Adapter<? super T> adapter) {
		return new ObjectRecorder(this, regarding, ObjectRecorder.erase(adapter), InvolvedObject::from);
	}

	/**
	 * Records one call; every other method delegates here. For implementations (decorators, test doubles), which
	 * turn a call into its event exactly as the library does with {@link EventSpec#toRecordedEvent}; applications
	 * call the methods above. Must never block and never throw.
	 * @param spec the call's arguments, not yet validated
	 */
	void record(EventSpec spec);

}
