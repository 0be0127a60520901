package io.github.kubeevents;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One call to an {@link EventRecorder}, as handed to {@link EventRecorder#record(EventSpec)}: the arguments of
 * client-go's most general method, {@code AnnotatedEventf(regarding, related, annotations, type, reason, action,
 * note, args...)}, before any validation. Applications never build these; implementations of
 * {@link EventRecorder} (decorators, test doubles) read them.
 *
 * <p>The regarding object is kept with its {@link InvolvedObjectAdapter} and converted by the recorder, so a
 * conversion failure becomes a counted drop instead of an exception in the caller.
 *
 * <p>Immutable as far as its arguments are (the format arguments are not copied).
 *
 * @param <T> the type of the regarding object
 * @param regarding the object the event is about, as the caller passed it; may be {@code null} (invalid input)
 * @param adapter turns {@code regarding} into an {@link InvolvedObject}
 * @param related an optional second object (events.k8s.io/v1 {@code related}, also written on core/v1)
 * @param annotations annotations for the Event's metadata; empty when none
 * @param type Normal or Warning; {@code null} is invalid input
 * @param reason short UpperCamelCase reason, e.g. {@code FailedCreate}; {@code null} or empty is invalid input
 * @param action what the reporter did or failed to do, e.g. {@code Scheduling}; required by events.k8s.io/v1
 * (the recorder then uses the reason when it is {@code null}), written on core/v1 when set
 * @param message the message (events.k8s.io/v1 {@code note}), or its format pattern when {@code args} is not
 * {@code null}
 * @param args {@link String#format} arguments, or {@code null} when {@code message} is used verbatim
 */
public record EventSpec<T>(@Nullable T regarding, InvolvedObjectAdapter<? super T> adapter,
		@Nullable InvolvedObject related, Map<String, String> annotations, @Nullable EventType type,
		@Nullable String reason, @Nullable String action, @Nullable String message, Object @Nullable [] args) {

	/**
	 * Normalises {@code null} annotations to an empty map (they are copied later, by the recorder).
	 */
	public EventSpec {
		if (annotations == null) {
			annotations = Map.of();
		}
	}

}
