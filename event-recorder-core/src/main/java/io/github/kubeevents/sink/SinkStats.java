package io.github.kubeevents.sink;

/**
 * Counters of one sink, at one moment.
 *
 * <p>Immutable and thread-safe.
 *
 * @param created Events created (POST succeeded), including 404 fallbacks
 * @param patched Events patched (PATCH succeeded)
 * @param retried attempts that followed a failed attempt
 * @param failed events given up on (rejected, retries exhausted, or cancelled by shutdown)
 */
public record SinkStats(long created, long patched, long retried, long failed) {
}
