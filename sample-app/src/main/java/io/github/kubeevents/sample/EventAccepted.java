package io.github.kubeevents.sample;

/**
 * The answer of {@code POST /events}: what was handed to the recorder (the message is not echoed, only its
 * size). The event is written (or logged) asynchronously; {@code /actuator/kubeevents} shows what happened to it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param object the object as {@code namespace/name}, or {@code name} when cluster-scoped
 * @param kind the object's kind
 * @param type the event type
 * @param reason the reason
 * @param eventNamespace the namespace the Event is written to
 * @param messageBytes the message's size in UTF-8 bytes
 */
public record EventAccepted(String object, String kind, String type, String reason, String eventNamespace,
		int messageBytes) {
}
