package io.github.kubeevents.autoconfigure;

import java.util.Objects;

import io.github.kubeevents.EventBroadcaster;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the Kubernetes event recorder, from in-memory state only (it never calls the API server): UP while
 * the broadcaster runs, DOWN before it starts and after it has shut down. Dropped events do not make it DOWN
 * (a restart would not bring them back); they are reported in the details.
 *
 * <p>Details: {@code sink} (kubernetes, log or none), {@code queueDepth}, {@code queueCapacity} and
 * {@code dropped} (total over every reason).
 *
 * <p>Thread-safe.
 */
public final class KubeEventsHealthIndicator extends AbstractHealthIndicator {

	private final EventBroadcaster broadcaster;

	private final KubeEventsStatus status;

	/**
	 * An indicator over {@code broadcaster}.
	 * @param broadcaster the broadcaster
	 * @param status the resolved sink
	 */
	public KubeEventsHealthIndicator(EventBroadcaster broadcaster, KubeEventsStatus status) {
		super("Kubernetes event recorder health check failed");
		this.broadcaster = Objects.requireNonNull(broadcaster, "broadcaster");
		this.status = Objects.requireNonNull(status, "status");
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		if (this.broadcaster.isRunning()) {
			builder.up();
		}
		else if (this.broadcaster.isShutdown()) {
			builder.down().withDetail("state", "shut down");
		}
		else {
			builder.unknown().withDetail("state", "not started");
		}
		long dropped = 0;
		for (long n : this.broadcaster.counters().droppedByReason().values()) {
			dropped += n;
		}
		builder.withDetail("sink", this.status.sink().value())
			.withDetail("queueDepth", this.broadcaster.queueDepth())
			.withDetail("queueCapacity", this.broadcaster.queueCapacity())
			.withDetail("accepted", this.broadcaster.acceptedCount())
			.withDetail("dropped", dropped);
	}

}
