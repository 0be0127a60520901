package io.github.kubeevents;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * An {@link EventRecorder} for users' tests, like client-go's {@code FakeRecorder}: it writes nothing and keeps
 * every recorded event, both structured ({@link #recordedEvents()}) and as client-go's strings
 * {@code "<type> <reason> <message>"} ({@link #events()}), optionally followed by
 * {@code " involvedObject{kind=<Kind>,apiVersion=<apiVersion>}"} and {@code " map[k:v]"} for annotations.
 *
 * <p>It validates input like the real recorder: invalid calls are not captured but listed in
 * {@link #invalidInputs()}. Unlike client-go's, it never blocks (it keeps everything in memory) and formats with
 * Java's {@link String#format}.
 *
 * <p>Thread-safe.
 */
public final class FakeEventRecorder implements EventRecorder {

	private final boolean includeObject;

	private final List<RecordedEvent> recorded = new CopyOnWriteArrayList<>();

	private final List<String> invalid = new CopyOnWriteArrayList<>();

	/** A recorder whose strings leave out the involved object. */
	public FakeEventRecorder() {
		this(false);
	}

	/**
	 * A recorder.
	 * @param includeObject whether {@link #events()} strings include {@code involvedObject{kind=..,apiVersion=..}}
	 */
	public FakeEventRecorder(boolean includeObject) {
		this.includeObject = includeObject;
	}

	@Override
	public void record(Object involvedObject, Map<String, String> annotations, String type, String reason,
			String message, Object[] args) {
		try {
			if (EventType.fromValue(type).isEmpty()) {
				throw new IllegalArgumentException("unsupported event type '" + type + "'");
			}
			if (reason == null) {
				throw new IllegalArgumentException("reason is null");
			}
			V1ObjectReference ref = ObjectReferences.of(involvedObject);
			String text = (message == null) ? "" : (args == null) ? message : String.format(Locale.ROOT, message, args);
			this.recorded.add(new RecordedEvent(ref, EventType.fromValue(type).get(), reason, text,
					(annotations != null) ? Map.copyOf(annotations) : Map.of()));
		}
		catch (RuntimeException ex) {
			this.invalid.add(ex.getMessage());
		}
	}

	/**
	 * Every captured event, in order.
	 * @return an immutable copy
	 */
	public List<RecordedEvent> recordedEvents() {
		return List.copyOf(this.recorded);
	}

	/**
	 * Every captured event in client-go's FakeRecorder format.
	 * @return an immutable list of strings
	 */
	public List<String> events() {
		List<String> result = new ArrayList<>();
		for (RecordedEvent event : this.recorded) {
			result.add(event.render(this.includeObject));
		}
		return List.copyOf(result);
	}

	/**
	 * Why invalid calls were not captured, in order.
	 * @return an immutable copy
	 */
	public List<String> invalidInputs() {
		return List.copyOf(this.invalid);
	}

	/** Forgets everything captured. */
	public void clear() {
		this.recorded.clear();
		this.invalid.clear();
	}

	/**
	 * One captured event.
	 * @param involvedObject the reference built for the object
	 * @param type the type
	 * @param reason the reason
	 * @param message the formatted message
	 * @param annotations the annotations, empty when none
	 */
	public record RecordedEvent(V1ObjectReference involvedObject, EventType type, String reason, String message,
			Map<String, String> annotations) {

		/**
		 * client-go's FakeRecorder string.
		 * @param includeObject whether to append the involved object's kind and apiVersion
		 * @return e.g. {@code "Warning FailedCreate Error creating: boom"}
		 */
		public String render(boolean includeObject) {
			StringBuilder text = new StringBuilder().append(this.type.value())
				.append(' ')
				.append(this.reason)
				.append(' ')
				.append(this.message);
			if (includeObject) {
				text.append(" involvedObject{kind=")
					.append(this.involvedObject.getKind())
					.append(",apiVersion=")
					.append(this.involvedObject.getApiVersion())
					.append('}');
			}
			if (!this.annotations.isEmpty()) {
				text.append(" map[");
				boolean first = true;
				for (Map.Entry<String, String> entry : new TreeMap<>(this.annotations).entrySet()) {
					text.append(first ? "" : " ").append(entry.getKey()).append(':').append(entry.getValue());
					first = false;
				}
				text.append(']');
			}
			return text.toString();
		}

	}

}
