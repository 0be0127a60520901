package io.github.kubeevents.sample;

/**
 * The answer of {@code POST /events}: what was handed to the recorder. The event is written (or logged)
 * asynchronously; see {@code /actuator/kubeevents} for what happened to it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param object the involved object as {@code namespace/name}
 * @param kind the object's kind
 * @param type the event type
 * @param reason the reason
 * @param message the message
 */
public record EventAccepted(String object, String kind, String type, String reason, String message) {
}
