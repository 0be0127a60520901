package io.github.kubeevents.health;

import java.util.Objects;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.autoconfigure.KubeEventsStatus;
import io.github.kubeevents.introspect.LastRejection;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the Kubernetes event recorder, from in-memory state only (it never calls the API server): UP while
 * the broadcaster runs, UNKNOWN before it starts (so it does not drag the aggregate down during startup), DOWN
 * after it has shut down. Dropped events do not make it DOWN (a restart would not bring them back); they are
 * reported in the details, with the last rejection by the API server, the most common answer to "why are there no
 * events?" (a missing RBAC verb gives {@code HTTP 403 Forbidden: events is forbidden: ...}).
 *
 * <p>Details: {@code sink} (kubernetes, log or none), {@code queueDepth}, {@code queueCapacity},
 * {@code accepted}, {@code dropped} (total over every reason) and, once the server refused an event,
 * {@code lastRejection} with {@code at}, {@code event} and {@code error}.
 *
 * <p>Thread-safe.
 */
public final class KubeEventsHealthIndicator extends AbstractHealthIndicator {

	private final EventBroadcaster broadcaster;

	private final KubeEventsStatus status;

	/**
	 * An indicator over {@code broadcaster}.
	 * @param broadcaster the broadcaster
	 * @param status where events go
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
		long dropped = this.broadcaster.droppedByReason().values().stream().mapToLong(Long::longValue).sum();
		builder.withDetail("sink", this.status.sink().value())
			.withDetail("queueDepth", this.broadcaster.queueDepth())
			.withDetail("queueCapacity", this.broadcaster.queueCapacity())
			.withDetail("accepted", this.broadcaster.acceptedCount())
			.withDetail("dropped", dropped);
		LastRejection rejection = this.broadcaster.lastRejection();
		if (rejection != null) {
			builder.withDetail("lastRejection", rejection);
		}
	}

}
