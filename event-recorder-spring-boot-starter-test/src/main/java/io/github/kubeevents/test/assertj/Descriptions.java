package io.github.kubeevents.test.assertj;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.RecordedEvent;
import org.jspecify.annotations.Nullable;

/** One-line and list renderings of recorded events for failure messages. Stateless. */
final class Descriptions {

	private Descriptions() {
	}

	/**
	 * One event, e.g. {@code Warning FailedCreate about Widget default/w-1 (action Creating): "quota exceeded"}.
	 * @param event the event
	 * @return the line
	 */
	static String describe(RecordedEvent event) {
		StringBuilder text = new StringBuilder().append(event.type().value())
			.append(' ')
			.append(event.reason())
			.append(" about ")
			.append(object(event.regarding()));
		StringBuilder extras = new StringBuilder();
		if (event.action() != null) {
			extras.append("action ").append(event.action());
		}
		if (event.related() != null) {
			extras.append((extras.length() > 0) ? ", " : "").append("related ").append(object(event.related()));
		}
		if (!event.annotations().isEmpty()) {
			extras.append((extras.length() > 0) ? ", " : "")
				.append("annotations ")
				.append(new TreeMap<>(event.annotations()));
		}
		if (extras.length() > 0) {
			text.append(" (").append(extras).append(')');
		}
		return text.append(": \"").append(event.message()).append('"').toString();
	}

	/**
	 * A reference as {@code Kind namespace/name}, or {@code Kind name} when cluster-scoped.
	 * @param object the reference
	 * @return the text
	 */
	static String object(@Nullable InvolvedObject object) {
		if (object == null) {
			return "nothing";
		}
		return ((object.kind() != null) ? object.kind() : "<no kind>") + " " + object.displayName();
	}

	/**
	 * A kind, namespace and name as {@link #object(InvolvedObject)} renders them.
	 * @param kind the kind
	 * @param namespace the namespace, {@code null} when cluster-scoped
	 * @param name the name
	 * @return the text
	 */
	static String object(String kind, @Nullable String namespace, String name) {
		return kind + " " + ((namespace != null) ? namespace + "/" + name : name);
	}

	/**
	 * Every event, one per indented line with its index, or {@code "  (none)"}.
	 * @param events the events
	 * @return the lines
	 */
	static String list(List<RecordedEvent> events) {
		if (events.isEmpty()) {
			return "  (none)";
		}
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < events.size(); i++) {
			text.append((i > 0) ? System.lineSeparator() : "").append("  [").append(i).append("] ")
				.append(describe(events.get(i)));
		}
		return text.toString();
	}

	/**
	 * Annotations sorted by key.
	 * @param annotations the annotations
	 * @return e.g. {@code {a=1, b=2}}
	 */
	static String annotations(Map<String, String> annotations) {
		return new TreeMap<>(annotations).toString();
	}

}
