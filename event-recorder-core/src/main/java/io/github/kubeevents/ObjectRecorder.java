package io.github.kubeevents;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;

/**
 * A recorder bound to one object, optionally with a related object, an action and annotations, as operator
 * authors get a recorder bound to the primary resource of a reconciliation (JOSDK's
 * {@code Context#eventRecorder()}, crossplane's {@code WithAnnotations}):
 * <pre>{@code
 * ObjectRecorder events = recorder.about(widget);
 * events.normal("Created", "Created pod %s", pod.getMetadata().getName());
 * events.related(pod).action("Deleting").warning("FailedDelete", "Error deleting: %s", err);
 * }</pre>
 *
 * <p>The message is a {@link String#format} pattern only when arguments follow it; without arguments it is used
 * verbatim (so {@code warning("Full", "Disk 100% full")} is safe). Like every recorder method, these never block
 * and never throw.
 *
 * <p>Immutable and thread-safe: each {@code with...}/{@code related}/{@code action} returns a new recorder.
 */
public final class ObjectRecorder {

	private final EventRecorder recorder;

	private final @Nullable Object regarding;

	private final InvolvedObjectAdapter<Object> adapter;

	private final @Nullable InvolvedObject related;

	private final @Nullable String action;

	private final Map<String, String> annotations;

	<T> ObjectRecorder(EventRecorder recorder, @Nullable T regarding, InvolvedObjectAdapter<? super T> adapter) {
		this(recorder, regarding, erase(adapter), null, null, Map.of());
	}

	private ObjectRecorder(EventRecorder recorder, @Nullable Object regarding, InvolvedObjectAdapter<Object> adapter,
			@Nullable InvolvedObject related, @Nullable String action, Map<String, String> annotations) {
		this.recorder = Objects.requireNonNull(recorder, "recorder");
		this.regarding = regarding;
		this.adapter = adapter;
		this.related = related;
		this.action = action;
		this.annotations = annotations;
	}

	/**
	 * This recorder with a related object (events.k8s.io/v1 {@code related}; also written on core/v1).
	 * @param related the related object, {@code null} for none
	 * @return a new recorder
	 */
	public ObjectRecorder related(@Nullable InvolvedObject related) {
		return new ObjectRecorder(this.recorder, this.regarding, this.adapter, related, this.action,
				this.annotations);
	}

	/**
	 * This recorder with a related object of the official Java client. If no reference can be made from it, the
	 * events are recorded without one (client-go's behaviour for {@code related}).
	 * @param related the related object, {@code null} for none
	 * @return a new recorder
	 */
	public ObjectRecorder related(@Nullable KubernetesObject related) {
		InvolvedObject reference = null;
		if (related != null) {
			try {
				reference = InvolvedObject.of(related);
			}
			catch (RuntimeException ex) {
				EventFactory.relatedIgnored(ex);
			}
		}
		return related(reference);
	}

	/**
	 * This recorder with an action: what the reporter did or failed to do, e.g. {@code Scheduling} (required by
	 * events.k8s.io/v1, where the reason is used when none is set; written on core/v1 when set).
	 * @param action the action, {@code null} for none
	 * @return a new recorder
	 */
	public ObjectRecorder action(@Nullable String action) {
		return new ObjectRecorder(this.recorder, this.regarding, this.adapter, this.related, action,
				this.annotations);
	}

	/**
	 * This recorder with annotations added to every Event's metadata.
	 * @param annotations the annotations to add (later values win)
	 * @return a new recorder
	 */
	public ObjectRecorder withAnnotations(Map<String, String> annotations) {
		Map<String, String> merged = new HashMap<>(this.annotations);
		merged.putAll(annotations);
		return new ObjectRecorder(this.recorder, this.regarding, this.adapter, this.related, this.action,
				Map.copyOf(merged));
	}

	/**
	 * This recorder with one more annotation.
	 * @param key the annotation key
	 * @param value its value
	 * @return a new recorder
	 */
	public ObjectRecorder withAnnotation(String key, String value) {
		return withAnnotations(Map.of(key, value));
	}

	/**
	 * Records a Normal event.
	 * @param reason the reason, e.g. {@code Created}
	 * @param message the message; a {@link String#format} pattern when {@code args} are given
	 * @param args the pattern's arguments
	 */
	public void normal(String reason, String message, Object... args) {
		event(EventType.NORMAL, reason, message, args);
	}

	/**
	 * Records a Warning event.
	 * @param reason the reason, e.g. {@code FailedCreate}
	 * @param message the message; a {@link String#format} pattern when {@code args} are given
	 * @param args the pattern's arguments
	 */
	public void warning(String reason, String message, Object... args) {
		event(EventType.WARNING, reason, message, args);
	}

	/**
	 * Records an event.
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @param message the message; a {@link String#format} pattern when {@code args} are given
	 * @param args the pattern's arguments
	 */
	public void event(EventType type, String reason, String message, Object... args) {
		Object[] formatArgs = (args != null && args.length > 0) ? args : null;
		this.recorder.record(new EventSpec<>(this.regarding, this.adapter, this.related, this.annotations, type, reason,
				this.action, message, formatArgs));
	}

	@SuppressWarnings("unchecked")
	private static <T> InvolvedObjectAdapter<Object> erase(InvolvedObjectAdapter<? super T> adapter) {
		// safe: the adapter is only ever applied to the regarding object it was paired with
		return (InvolvedObjectAdapter<Object>) adapter;
	}

}
