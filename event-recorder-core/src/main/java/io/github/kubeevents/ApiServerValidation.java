package io.github.kubeevents;

import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What the API server refuses for its shape, whatever the Event's API, checked before anything is sent so that
 * such an event is a counted {@code invalid_input} drop naming the problem, not a request the server refuses (or, for
 * some, misroutes): a namespace that is not a DNS-1123 label ({@code %} in it made the server answer 500, {@code ..}
 * turned the POST into {@code POST /api/v1/events} and a 405), and annotations that ObjectMeta validation refuses
 * (422): keys that are not qualified names, or more than 256 KiB of keys and values together.
 *
 * <p>Stateless and thread-safe.
 */
final class ApiServerValidation {

	/** The API server's limit on the size of all annotations of an object, keys and values, in bytes. */
	static final int ANNOTATIONS_MAX_BYTES = 256 * 1024;

	private static final int DNS1123_LABEL_MAX_LENGTH = 63;

	private ApiServerValidation() {
	}

	/**
	 * Drops {@code event} as {@code invalid_input}, with its {@link #problem} in the drop line, when the API server
	 * would refuse any Event of it (the first step of a sink subscriber, for either API).
	 * @return whether it was dropped
	 */
	static boolean dropIfRefused(RecordedEvent event, EventCounters counters) {
		String problem = problem(event);
		if (problem == null) {
			return false;
		}
		counters.dropAndLog(DropReason.INVALID_INPUT, event, problem, false);
		return true;
	}

	/**
	 * Why the API server would refuse any Event of {@code event} (for the drop line), or {@code null} when nothing
	 * here would be refused.
	 */
	static @Nullable String problem(RecordedEvent event) {
		String namespace = event.eventNamespace();
		if (!isDns1123Label(namespace)) {
			return "namespace " + LogText.quoted(namespace) + " is not a valid namespace name (a DNS-1123 label: at"
					+ " most 63 lowercase letters, digits and '-', starting and ending with a letter or digit)";
		}
		Map<String, String> annotations = event.annotations();
		if (annotations.isEmpty()) {
			return null;
		}
		long bytes = 0;
		for (Map.Entry<String, String> annotation : annotations.entrySet()) {
			// the API server lowercases the key first: case does not matter
			if (!EventsV1Events.isQualifiedName(annotation.getKey().toLowerCase(Locale.ROOT))) {
				return "annotation key " + LogText.quoted(annotation.getKey()) + " is not a qualified name like"
						+ " 'example.com/trace-id' or 'trace-id'";
			}
			bytes += WireText.utf8Length(annotation.getKey())
					+ ((annotation.getValue() != null) ? WireText.utf8Length(annotation.getValue()) : 0);
		}
		if (bytes > ANNOTATIONS_MAX_BYTES) {
			return "annotations are " + bytes + " bytes, more than the API server's limit of " + ANNOTATIONS_MAX_BYTES;
		}
		return null;
	}

	static boolean isDns1123Label(String value) {
		return value.length() <= DNS1123_LABEL_MAX_LENGTH && value.indexOf('.') < 0
				&& EventNames.isDns1123Subdomain(value);
	}

}
