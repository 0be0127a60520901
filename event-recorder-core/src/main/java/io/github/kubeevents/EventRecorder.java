package io.github.kubeevents;

import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * Records Kubernetes events about objects: client-go's {@code record.EventRecorder} ({@code event},
 * {@code eventf}, {@code annotatedEventf}) and, with a {@code related} object and an {@code action}, its
 * {@code events.EventRecorder} ({@code Eventf(regarding, related, type, reason, action, note, args...)}).
 *
 * <p>Objects are {@link InvolvedObject}s; objects of the official Java client ({@link KubernetesObject}) are
 * accepted directly, and objects of other clients through an {@link InvolvedObjectAdapter}
 * ({@link #about(Object, InvolvedObjectAdapter)}). {@link #about(KubernetesObject)} gives an
 * {@link ObjectRecorder} bound to one object, e.g. the primary resource of a reconciliation:
 * <pre>{@code
 * recorder.about(widget).warning("FailedCreate", "Error creating pod %s: %s", name, err);
 * }</pre>
 *
 * <p>Every method returns at once: it never blocks on the network or a full queue, and never throws. Input that
 * cannot become an event (a {@code null} or nameless object, a {@code null} type, a {@code null} or empty
 * reason, a bad format string, an oversized message) is logged at WARN with the problem named and counted as an
 * {@code invalid_input} drop.
 *
 * <p>The {@code eventf} methods format with {@link String#format(java.util.Locale, String, Object...)} in
 * {@link java.util.Locale#ROOT} (Java's syntax, not Go's: {@code %s}, {@code %d}; there is no {@code %v}).
 *
 * <p>Implementations provide {@link #record(EventSpec)}; everything else delegates to it. Implementations are
 * thread-safe.
 */
public interface EventRecorder {

	/**
	 * Records an event with a verbatim message.
	 * @param regarding the object the event is about
	 * @param type Normal or Warning
	 * @param reason short, machine-readable UpperCamelCase reason, e.g. {@code FailedCreate}
	 * @param message human-readable message, used as is
	 */
	default void event(InvolvedObject regarding, EventType type, String reason, String message) {
		record(new EventSpec<>(regarding, Adapters.IDENTITY, null, null, type, reason, null, message, null));
	}

	/**
	 * Records an event with a formatted message.
	 * @param regarding the object the event is about
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void eventf(InvolvedObject regarding, EventType type, String reason, String messageFormat,
			Object... args) {
		record(new EventSpec<>(regarding, Adapters.IDENTITY, null, null, type, reason, null, messageFormat,
				nonNull(args)));
	}

	/**
	 * Records an event with a formatted message and annotations on the Event.
	 * @param regarding the object the event is about
	 * @param annotations annotations for the Event's metadata, may be {@code null}
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void annotatedEventf(InvolvedObject regarding, @Nullable Map<String, String> annotations, EventType type,
			String reason, String messageFormat, Object... args) {
		record(new EventSpec<>(regarding, Adapters.IDENTITY, null, annotations, type, reason, null, messageFormat,
				nonNull(args)));
	}

	/**
	 * Records an event with a related object and an action, with a formatted message: client-go's events.k8s.io
	 * {@code Eventf(regarding, related, eventtype, reason, action, note, args...)}. On core/v1 the related object
	 * and the action are written too (core/v1 Events have both fields), not dropped as by client-go's adapter.
	 * @param regarding the object the event is about
	 * @param related an optional second object, may be {@code null}
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param action what the reporter did or failed to do, e.g. {@code Scheduling}
	 * @param noteFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void eventf(InvolvedObject regarding, @Nullable InvolvedObject related, EventType type, String reason,
			String action, String noteFormat, Object... args) {
		record(new EventSpec<>(regarding, Adapters.IDENTITY, related, null, type, reason, action, noteFormat,
				nonNull(args)));
	}

	/**
	 * {@link #eventf(InvolvedObject, InvolvedObject, EventType, String, String, String, Object...)} with
	 * annotations: client-go's {@code AnnotatedEventf(regarding, related, annotations, ...)}.
	 * @param regarding the object the event is about
	 * @param related an optional second object, may be {@code null}
	 * @param annotations annotations for the Event's metadata, may be {@code null}
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param action what the reporter did or failed to do
	 * @param noteFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void annotatedEventf(InvolvedObject regarding, @Nullable InvolvedObject related,
			@Nullable Map<String, String> annotations, EventType type, String reason, String action,
			String noteFormat, Object... args) {
		record(new EventSpec<>(regarding, Adapters.IDENTITY, related, annotations, type, reason, action, noteFormat,
				nonNull(args)));
	}

	/**
	 * {@link #event(InvolvedObject, EventType, String, String)} for an object of the official Java client.
	 * @param object the object (kind/apiVersion resolved as by {@link InvolvedObject#of(KubernetesObject)})
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param message the message, used as is
	 */
	default void event(KubernetesObject object, EventType type, String reason, String message) {
		record(new EventSpec<>(object, Adapters.KUBERNETES_OBJECT, null, null, type, reason, null, message, null));
	}

	/**
	 * {@link #eventf(InvolvedObject, EventType, String, String, Object...)} for an object of the official Java
	 * client.
	 * @param object the object
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void eventf(KubernetesObject object, EventType type, String reason, String messageFormat,
			Object... args) {
		record(new EventSpec<>(object, Adapters.KUBERNETES_OBJECT, null, null, type, reason, null, messageFormat,
				nonNull(args)));
	}

	/**
	 * {@link #annotatedEventf(InvolvedObject, Map, EventType, String, String, Object...)} for an object of the
	 * official Java client.
	 * @param object the object
	 * @param annotations annotations for the Event's metadata, may be {@code null}
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param messageFormat a {@link String#format} pattern
	 * @param args the pattern's arguments
	 */
	default void annotatedEventf(KubernetesObject object, @Nullable Map<String, String> annotations, EventType type,
			String reason, String messageFormat, Object... args) {
		record(new EventSpec<>(object, Adapters.KUBERNETES_OBJECT, null, annotations, type, reason, null,
				messageFormat, nonNull(args)));
	}

	/**
	 * A recorder bound to {@code regarding}.
	 * @param regarding the object every event of the returned recorder is about
	 * @return the bound recorder (cheap; create one per use or keep it)
	 */
	default ObjectRecorder about(InvolvedObject regarding) {
		return new ObjectRecorder(this, regarding, Adapters.IDENTITY);
	}

	/**
	 * A recorder bound to an object of the official Java client. Its reference is taken when each event is
	 * recorded, so events carry the object's current resourceVersion.
	 * @param object the object every event of the returned recorder is about
	 * @return the bound recorder
	 */
	default ObjectRecorder about(KubernetesObject object) {
		return new ObjectRecorder(this, object, Adapters.KUBERNETES_OBJECT);
	}

	/**
	 * A recorder bound to an object of any client, turned into an {@link InvolvedObject} by {@code adapter} when
	 * each event is recorded (a failing adapter makes that event an {@code invalid_input} drop).
	 * @param <T> the object's type
	 * @param object the object every event of the returned recorder is about
	 * @param adapter turns the object into a reference
	 * @return the bound recorder
	 */
	default <T> ObjectRecorder about(T object, InvolvedObjectAdapter<? super T> adapter) {
		return new ObjectRecorder(this, object, adapter);
	}

	/**
	 * Records one call; every other method delegates here. For implementations (decorators, test doubles):
	 * applications call the methods above. Must never block and never throw.
	 * @param spec the call's arguments, not yet validated
	 */
	void record(EventSpec<?> spec);

	private static Object[] nonNull(Object @Nullable [] args) {
		return (args != null) ? args : EventFactory.NO_ARGS;
	}

}
