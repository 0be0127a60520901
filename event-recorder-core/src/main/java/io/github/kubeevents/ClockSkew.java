package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The recorder's clock against the API server's, seen in each created Event: the server stamps
 * {@code metadata.creationTimestamp} (its clock, whole seconds) while the request is in flight, so with clocks that
 * agree it lies between the recorder's time just before sending and just after the answer (less one second of
 * truncation). Every time in an Event ({@code eventTime}, {@code lastTimestamp}, {@code series.lastObservedTime}) is
 * the recorder's clock, and the readers compare it with theirs: kubernetes-event-exporter drops Events more than
 * 5 s older than its clock, Grafana Alloy drops what is not after the cursor it persisted, the OpenTelemetry receiver
 * drops Events older than its start, and kubectl prints ages from its own clock. So a skew beyond
 * {@link #THRESHOLD} is logged at WARN (logger {@code io.github.kubeevents.EventBroadcaster}), once until the clocks
 * agree again, within {@link #AGREEMENT} (then INFO). Only a skew certain beyond the request's duration is reported.
 *
 * <p>Thread-safe (writer threads report concurrently; the state is one atomic direction).
 */
final class ClockSkew {

	private static final Logger logger = RecorderLog.LOGGER;

	/** The skew worth a WARN: beyond the whole second of {@code lastTimestamp}, within the exporter's 5 s window. */
	static final Duration THRESHOLD = Duration.ofSeconds(2);

	/**
	 * The skew below which the clocks agree again. A measured skew lies up to a second below the true one (the
	 * server's whole second), so a single threshold would flap between WARN and INFO for a true skew of 2–3 s.
	 */
	static final Duration AGREEMENT = Duration.ofSeconds(1);

	/** -1 behind, 0 agreeing (or not yet known), 1 ahead: what was last logged. */
	private final AtomicInteger reported = new AtomicInteger();

	/**
	 * Compares one created Event's server stamp with the recorder's clock around the request.
	 * @param sentAt the recorder's clock just before the request
	 * @param answeredAt the recorder's clock just after the answer
	 * @param answer the server's answer (anything without a creation timestamp is ignored)
	 * @return the skew certain beyond the request's span (recorder minus server, positive when the recorder is
	 * ahead), {@link Duration#ZERO} when the clocks may agree, or {@code null} when the answer says nothing
	 */
	@Nullable Duration observe(Instant sentAt, Instant answeredAt, @Nullable Object answer) {
		OffsetDateTime created = creationTimestamp(answer);
		if (created == null) {
			return null;
		}
		Instant serverEarliest = created.toInstant();
		Instant serverLatest = serverEarliest.plusSeconds(1);
		Duration skew = Duration.ZERO;
		if (sentAt.isAfter(serverLatest)) {
			skew = Duration.between(serverLatest, sentAt);
		}
		else if (answeredAt.isBefore(serverEarliest)) {
			skew = Duration.between(serverEarliest, answeredAt);
		}
		report(skew);
		return skew;
	}

	private void report(Duration skew) {
		int current = this.reported.get();
		int direction;
		if (skew.compareTo(THRESHOLD) > 0) {
			direction = 1;
		}
		else if (skew.negated().compareTo(THRESHOLD) > 0) {
			direction = -1;
		}
		else if (skew.abs().compareTo(AGREEMENT) < 0) {
			direction = 0;
		}
		else {
			return;
		}
		// one writer thread logs each change
		if (direction == current || !this.reported.compareAndSet(current, direction)) {
			return;
		}
		if (direction == 0) {
			logger.info("The recorder's clock agrees with the API server's again (within {} s)", AGREEMENT.toSeconds());
			return;
		}
		logger.warn("The recorder's clock is at least {} ms {} the API server's. Event times are this clock's: readers"
				+ " that compare them with their own may drop or misplace these Events (kubernetes-event-exporter drops"
				+ " Events more than 5 s old, Grafana Alloy those before its cursor, the OpenTelemetry receiver those"
				+ " before its start; kubectl shows wrong ages). Synchronise this node's clock (NTP, chrony)",
				skew.abs().toMillis(), (direction > 0) ? "ahead of" : "behind");
	}

	private static @Nullable OffsetDateTime creationTimestamp(@Nullable Object answer) {
		if (!(answer instanceof KubernetesObject object)) {
			return null;
		}
		V1ObjectMeta metadata = object.getMetadata();
		return (metadata != null) ? metadata.getCreationTimestamp() : null;
	}

}
