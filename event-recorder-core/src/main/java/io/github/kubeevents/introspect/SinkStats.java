package io.github.kubeevents.introspect;

/**
 * Counters of one sink, at one moment.
 *
 * <p>Immutable and thread-safe.
 *
 * @param created Events created (POST succeeded), including the re-creation of expired Events
 * @param patched Events patched (PATCH succeeded)
 * @param retried attempts that followed a failed attempt
 * @param failed events given up on (rejected, retries exhausted, or cancelled by shutdown)
 */
public record SinkStats(long created, long patched, long retried, long failed) {

	/** No writes. */
	public static final SinkStats ZERO = new SinkStats(0, 0, 0, 0);

	/**
	 * The sum of two sinks' counters.
	 * @param other the other counters
	 * @return the sums
	 */
	public SinkStats plus(SinkStats other) {
		return new SinkStats(this.created + other.created, this.patched + other.patched,
				this.retried + other.retried, this.failed + other.failed);
	}

}
