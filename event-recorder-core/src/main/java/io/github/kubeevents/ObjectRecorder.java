package io.github.kubeevents;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A recorder bound to one object, optionally with a related object, an action and annotations, as operator
 * authors get a recorder bound to the primary resource of a reconciliation (JOSDK's
 * {@code Context#eventRecorder()}, crossplane's {@code WithAnnotations}). It is the way to the events.k8s.io/v1
 * fields {@code related} and {@code action} (client-go's {@code Eventf(regarding, related, type, reason, action,
 * note, args...)}):
 * <pre>{@code
 * ObjectRecorder events = recorder.about(widget);
 * events.normal("Created", "Created pod %s", pod.getMetadata().getName());
 * events.related(pod).action("Deleting").warning("FailedDelete", "Error deleting: %s", err);
 * }</pre>
 *
 * <p>The message follows the recorder's one rule: a {@link String#format} pattern only when arguments follow it,
 * verbatim otherwise (so {@code warning("Full", "Disk 100% full")} is safe). Like every recorder method, these
 * never block and never throw.
 *
 * <p>Immutable and thread-safe: each {@code with...}/{@code related}/{@code action} returns a new recorder.
 */
public final class ObjectRecorder {

	private static final Logger logger = LoggerFactory.getLogger(EventRecorder.class);

	private final EventRecorder recorder;

	private final @Nullable Object regarding;

	private final InvolvedObject.@Nullable Adapter<Object> adapter;

	/** How a related object is referenced: {@link InvolvedObject#from(Object)}, or a broadcaster's registered kinds. */
	private final Function<Object, InvolvedObject> references;

	private final @Nullable InvolvedObject related;

	private final @Nullable String action;

	private final Map<String, String> annotations;

	ObjectRecorder(EventRecorder recorder, @Nullable Object regarding, InvolvedObject.@Nullable Adapter<Object> adapter,
			Function<Object, InvolvedObject> references) {
		this(recorder, regarding, adapter, references, null, null, Map.of());
	}

	private ObjectRecorder(EventRecorder recorder, @Nullable Object regarding,
			InvolvedObject.@Nullable Adapter<Object> adapter, Function<Object, InvolvedObject> references,
			@Nullable InvolvedObject related, @Nullable String action, Map<String, String> annotations) {
		this.recorder = Objects.requireNonNull(recorder, "recorder");
		this.regarding = regarding;
		this.adapter = adapter;
		this.references = references;
		this.related = related;
		this.action = action;
		this.annotations = annotations;
	}

	/**
	 * This recorder with a related object (events.k8s.io/v1 {@code related}; also written on core/v1): an
	 * {@link InvolvedObject}, an object of the official Java client or a {@code V1ObjectReference}
	 * ({@link InvolvedObject#from(Object)}). An object that cannot be referenced is left out (logged at DEBUG), as
	 * client-go does with {@code related}; reference another client's object with its adapter first.
	 * @param related the related object, {@code null} for none
	 * @return a new recorder
	 */
	public ObjectRecorder related(@Nullable Object related) {
		InvolvedObject reference = null;
		if (related != null) {
			try {
				reference = this.references.apply(related);
			}
			catch (Throwable ex) {
				Throwables.rethrowIfFatal(ex);
				logger.debug("Could not reference the related object, recording without it: {}",
						LogText.oneLine(ex.toString()));
			}
		}
		return new ObjectRecorder(this.recorder, this.regarding, this.adapter, this.references, reference, this.action,
				this.annotations);
	}

	/**
	 * This recorder with an action: what the reporter did or failed to do, e.g. {@code Scheduling} (required by
	 * events.k8s.io/v1, where the reason is used when none is set; written on core/v1 when set).
	 * @param action the action, {@code null} for none
	 * @return a new recorder
	 */
	public ObjectRecorder action(@Nullable String action) {
		return new ObjectRecorder(this.recorder, this.regarding, this.adapter, this.references, this.related, action,
				this.annotations);
	}

	/**
	 * This recorder with annotations added to every Event's metadata. An entry with a {@code null} key or value
	 * cannot be written and is left out, with a WARN line naming it; a {@code null} map adds nothing.
	 * @param annotations the annotations to add (later values win)
	 * @return a new recorder
	 */
	public ObjectRecorder withAnnotations(@Nullable Map<String, String> annotations) {
		if (annotations == null) {
			return this;
		}
		Map<String, String> merged = new HashMap<>(this.annotations);
		annotations.forEach((key, value) -> {
			if (key == null || value == null) {
				logger.warn("Annotation {}={} left out of the event: Kubernetes annotations need a key and a value",
						LogText.oneLine(key), LogText.oneLine(value));
			}
			else {
				merged.put(key, value);
			}
		});
		return new ObjectRecorder(this.recorder, this.regarding, this.adapter, this.references, this.related, this.action,
				Map.copyOf(merged));
	}

	/**
	 * This recorder with one more annotation (left out, with a WARN line, when the key or value is {@code null}).
	 * @param key the annotation key
	 * @param value its value
	 * @return a new recorder
	 */
	public ObjectRecorder withAnnotation(String key, String value) {
		Map<String, String> one = new HashMap<>(1);
		one.put(key, value);
		return withAnnotations(one);
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
		this.recorder.record(new EventSpec(this.regarding, this.adapter, this.related, this.annotations, type, reason,
				this.action, message, args));
	}

	/** The adapter for the object it is paired with; {@code null} (the built-in references) stays {@code null}. */
	@SuppressWarnings("unchecked")
	static <T> InvolvedObject.@Nullable Adapter<Object> erase(InvolvedObject.@Nullable Adapter<? super T> adapter) {
		// safe: the adapter is only ever applied to the regarding object it was paired with
		return (InvolvedObject.Adapter<Object>) adapter;
	}

}
