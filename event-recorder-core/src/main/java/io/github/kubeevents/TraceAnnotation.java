package io.github.kubeevents;

import java.util.LinkedHashMap;
import java.util.Map;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * The {@code traceparent} annotation of a write ({@link EventBroadcaster.Builder#traceparentAnnotation(String)}):
 * the W3C trace context of the occurrence the write stands for (a CREATE's first occurrence, a PATCH's latest),
 * on the CREATE body's metadata and in the count or series PATCH. Nothing when the occurrence has no trace
 * context, or the caller set an annotation of the same key itself; no instance when the option is off (the
 * default).
 *
 * <p>Immutable and thread-safe.
 */
final class TraceAnnotation {

	private final String key;

	private TraceAnnotation(String key) {
		this.key = key;
	}

	/** The annotation of the settings' key, or {@code null} when the option is off. */
	static @Nullable TraceAnnotation of(SinkSettings settings) {
		String key = settings.traceparentAnnotation();
		return (key != null) ? new TraceAnnotation(key) : null;
	}

	/** The annotations a PATCH of {@code recorded}'s write sets: the key and the traceparent, or none. */
	Map<String, String> of(RecordedEvent recorded) {
		String value = value(recorded);
		return (value != null) ? Map.of(this.key, value) : Map.of();
	}

	/**
	 * {@code metadata} with the annotation of {@code recorded}'s write, as a copy (the original may be shared by a
	 * cache); {@code metadata} itself when there is none to add.
	 */
	V1ObjectMeta annotate(V1ObjectMeta metadata, RecordedEvent recorded) {
		String value = value(recorded);
		if (value == null || metadata == null) {
			return metadata;
		}
		Map<String, String> annotations = (metadata.getAnnotations() != null)
				? new LinkedHashMap<>(metadata.getAnnotations()) : new LinkedHashMap<>();
		annotations.put(this.key, value);
		return new V1ObjectMeta().name(metadata.getName())
			.generateName(metadata.getGenerateName())
			.namespace(metadata.getNamespace())
			.resourceVersion(metadata.getResourceVersion())
			.uid(metadata.getUid())
			.creationTimestamp(metadata.getCreationTimestamp())
			.labels((metadata.getLabels() != null) ? new LinkedHashMap<>(metadata.getLabels()) : null)
			.annotations(annotations);
	}

	private @Nullable String value(RecordedEvent recorded) {
		TraceContext context = recorded.traceContext();
		if (context == null || recorded.annotations().containsKey(this.key)) {
			// the caller's own annotation of that key wins
			return null;
		}
		try {
			return context.traceparent();
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

}
