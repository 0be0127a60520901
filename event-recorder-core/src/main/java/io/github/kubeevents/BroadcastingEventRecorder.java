package io.github.kubeevents;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;

/**
 * The {@link EventRecorder} of an {@link EventBroadcaster}: validates the call, builds the core/v1 Event
 * (client-go's {@code generateEvent}/{@code makeEvent}) and publishes it without blocking.
 *
 * <p>Thread-safe.
 */
final class BroadcastingEventRecorder implements EventRecorder {

	private final EventBroadcaster broadcaster;

	private final EventSource source;

	private final Clock clock;

	private final EventCounters counters;

	private final int maxMessageBytes;

	BroadcastingEventRecorder(EventBroadcaster broadcaster, EventSource source, Clock clock, EventCounters counters,
			int maxMessageBytes) {
		this.broadcaster = broadcaster;
		this.source = source;
		this.clock = clock;
		this.counters = counters;
		this.maxMessageBytes = maxMessageBytes;
	}

	@Override
	public void record(Object involvedObject, Map<String, String> annotations, String type, String reason,
			String message, Object[] args) {
		CoreV1Event event;
		try {
			event = build(involvedObject, annotations, type, reason, message, args);
		}
		catch (RuntimeException ex) {
			this.counters.drop(DropReason.INVALID_INPUT, "Could not record event (reason=\"" + reason + "\", type=\""
					+ type + "\"): " + ex.getMessage());
			return;
		}
		this.broadcaster.publish(event);
	}

	private CoreV1Event build(Object involvedObject, Map<String, String> annotations, String type, String reason,
			String message, Object[] args) {
		if (EventType.fromValue(type).isEmpty()) {
			throw new IllegalArgumentException("unsupported event type '" + type + "' (must be Normal or Warning)");
		}
		if (reason == null || reason.isEmpty()) {
			throw new IllegalArgumentException("reason is " + ((reason == null) ? "null" : "empty"));
		}
		V1ObjectReference ref = ObjectReferences.of(involvedObject);
		String text = format(message, args);
		if (text.length() > this.maxMessageBytes / 3) {
			int bytes = text.getBytes(StandardCharsets.UTF_8).length;
			if (bytes > this.maxMessageBytes) {
				throw new IllegalArgumentException(
						"message is " + bytes + " UTF-8 bytes, more than the limit of " + this.maxMessageBytes);
			}
		}
		Instant now = this.clock.instant();
		String namespace = (ref.getNamespace() == null || ref.getNamespace().isEmpty()) ? "default"
				: ref.getNamespace();
		CoreV1Event event = new CoreV1Event();
		event.setMetadata(new V1ObjectMeta().name(Events.generateName(ref.getName(), now))
			.namespace(namespace)
			.annotations((annotations != null && !annotations.isEmpty()) ? new LinkedHashMap<>(annotations) : null));
		event.setInvolvedObject(ref);
		event.setReason(reason);
		event.setMessage(text);
		event.setType(type);
		event.setFirstTimestamp(Events.timestamp(now));
		event.setLastTimestamp(Events.timestamp(now));
		event.setCount(1);
		event.setSource(new V1EventSource().component(this.source.component()).host(this.source.host()));
		event.setReportingComponent(this.source.component());
		event.setReportingInstance(this.source.host());
		return event;
	}

	private static String format(String message, Object[] args) {
		if (message == null) {
			return "";
		}
		if (args == null) {
			return message;
		}
		try {
			return String.format(Locale.ROOT, message, args);
		}
		catch (java.util.IllegalFormatException ex) {
			throw new IllegalArgumentException("bad message format '" + message + "': " + ex, ex);
		}
	}

}
