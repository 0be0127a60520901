package io.github.kubeevents.introspect;

import java.time.Instant;

/**
 * The latest event the API server refused (an HTTP error status other than the expected 409 AlreadyExists and
 * writes into a terminating namespace), for "why are there no events?": a missing RBAC verb shows up here as
 * {@code HTTP 403 Forbidden: events is forbidden: User ... cannot create resource "events" ...}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param at when it was refused
 * @param event the event, e.g. {@code object="ns/web-0" kind="Pod" type="Warning" reason="BackOff"}
 * @param error what the server answered
 */
public record LastRejection(Instant at, String event, String error) {
}
