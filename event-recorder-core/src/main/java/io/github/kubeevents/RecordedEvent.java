package io.github.kubeevents;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An event as recorded, before it is written with either Kubernetes events API: what every
 * {@link EventHandler} receives and what {@link FakeEventRecorder} captures. The Event's name, namespace and
 * wire form are derived from it by the sink (core/v1 {@code Event} or events.k8s.io/v1 {@code Event}).
 *
 * <p>Its text is what the API server stores: an unpaired surrogate (which UTF-8 cannot encode) in the reason,
 * action, message or an annotation value is replaced with U+FFFD, the 3-byte character the API server stores for
 * one that a client sends escaped. So every client sends the same bytes and the server's byte limits are checked
 * on them exactly. Annotation keys are kept: a key that is not a qualified name is refused before it is sent.
 *
 * <p>Immutable and thread-safe (the annotations are an unmodifiable copy).
 *
 * @param regarding the object the event is about (core/v1 {@code involvedObject})
 * @param related an optional second object, or {@code null}
 * @param type Normal or Warning
 * @param reason the reason, never empty
 * @param action what the reporter did or failed to do, or {@code null} when not given
 * @param message the formatted message (events.k8s.io/v1 {@code note}); empty when none
 * @param annotations annotations for the Event's metadata; empty when none
 * @param source the reporting component and host (instance)
 * @param timestamp when it was recorded, from the broadcaster's clock; also the source of the Event's name
 * @param traceContext the recording thread's trace context, captured by the broadcaster's
 * {@link io.github.kubeevents.TraceContext.Capture} when it has one and a span was current; {@code null} otherwise
 * (always without tracing). Not part of the Event unless the {@code traceparent} annotation is on.
 */
public record RecordedEvent(InvolvedObject regarding, @Nullable InvolvedObject related, EventType type,
		String reason, @Nullable String action, String message, Map<String, String> annotations,
		EventSource source, Instant timestamp, @Nullable TraceContext traceContext) {

	/**
	 * Checks the required fields, copies the annotations and replaces unpaired surrogates in the text with U+FFFD
	 * (without allocating when there is none).
	 * @throws NullPointerException when a required field is {@code null}
	 */
	public RecordedEvent {
		Objects.requireNonNull(regarding, "regarding");
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(reason, "reason");
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(timestamp, "timestamp");
		reason = WireText.wellFormed(reason);
		action = WireText.wellFormed(action);
		message = (message != null) ? WireText.wellFormed(message) : "";
		annotations = (annotations == null || annotations.isEmpty()) ? Map.of() : wellFormedCopy(annotations);
	}

	/** An unmodifiable copy of {@code annotations}, their values {@linkplain WireText#wellFormed well-formed}. */
	private static Map<String, String> wellFormedCopy(Map<String, String> annotations) {
		Map<String, String> copy = null;
		for (Map.Entry<String, String> annotation : annotations.entrySet()) {
			String value = annotation.getValue();
			String wellFormed = WireText.wellFormed(value);
			if (wellFormed != value) {
				if (copy == null) {
					copy = new HashMap<>(annotations);
				}
				copy.put(annotation.getKey(), wellFormed);
			}
		}
		return Map.copyOf((copy != null) ? copy : annotations);
	}

	/**
	 * An event without trace context (the constructor before {@code traceContext} was added).
	 * @param regarding the object the event is about
	 * @param related an optional second object, or {@code null}
	 * @param type Normal or Warning
	 * @param reason the reason, never empty
	 * @param action what the reporter did or failed to do, or {@code null}
	 * @param message the formatted message; empty when none
	 * @param annotations annotations for the Event's metadata; empty when none
	 * @param source the reporting component and host
	 * @param timestamp when it was recorded
	 * @throws NullPointerException when a required field is {@code null}
	 */
	public RecordedEvent(InvolvedObject regarding, @Nullable InvolvedObject related, EventType type, String reason,
			@Nullable String action, String message, Map<String, String> annotations, EventSource source,
			Instant timestamp) {
		this(regarding, related, type, reason, action, message, annotations, source, timestamp, null);
	}

	/**
	 * This event with a trace context.
	 * @param context the context, or {@code null} for none
	 * @return a copy (or this event when the context is the same)
	 */
	public RecordedEvent withTraceContext(@Nullable TraceContext context) {
		if (context == this.traceContext) {
			return this;
		}
		return new RecordedEvent(this.regarding, this.related, this.type, this.reason, this.action, this.message,
				this.annotations, this.source, this.timestamp, context);
	}

	/**
	 * The namespace the Event is written to: the regarding object's, or {@code default} for a cluster-scoped
	 * object (client-go's rule for both APIs).
	 * @return the Event's namespace
	 */
	public String eventNamespace() {
		String namespace = this.regarding.namespace();
		return (namespace != null) ? namespace : "default";
	}

	/**
	 * A one-line description for log lines, without the message (which may carry secrets):
	 * {@code object="ns/web-0" kind="Pod" type="Warning" reason="BackOff"}.
	 * @return the description
	 */
	public String describe() {
		return "object=" + InvolvedObject.describe(this.regarding) + " type=\"" + this.type.value() + "\" reason="
				+ LogText.quoted(this.reason);
	}

}
