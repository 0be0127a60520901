package io.github.kubeevents.health;

import java.util.Objects;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Health of the Kubernetes event recorder, from in-memory state only (it never calls the API server):
 * <ul>
 * <li><b>UP</b> while the recorder runs and its writes succeed;</li>
 * <li><b>{@value #DEGRADED_CODE}</b> while it runs but the API server refuses its writes: none written yet and
 * refusals, or a number of refusals in a row ({@code management.health.kubeevents.rejections-in-a-row}, default
 * {@value #REJECTIONS_IN_A_ROW}; expected refusals such as 409 AlreadyExists not counted), e.g. RBAC without the
 * verbs; or while RBAC is known to refuse a verb on the API written (the access probe's answer of the last 5
 * minutes, at startup for the recorder's own namespace and after a refusal), so repeats are written as new Events
 * ({@code written_without_patch}) or events are refused. The status is not in Spring Boot's default status order, so it shows here
 * without changing the aggregate status or readiness; to let it count, add it to the order, e.g.
 * {@code management.endpoint.health.status.order=down,out-of-service,degraded,up,unknown}, and map it with
 * {@code management.endpoint.health.status.http-mapping.degraded=503};</li>
 * <li><b>{@value #DEGRADED_CODE}</b> too while it is {@code starting}: started, but a thread the last stop
 * abandoned at its deadline (stuck in a call that ignores interrupts) has not ended yet, and events queue until it
 * has;</li>
 * <li><b>UNKNOWN</b> before it starts and while it is stopped (a paused test context, a checkpoint), so it does
 * not drag the aggregate down;</li>
 * <li><b>DOWN</b> once it has shut down.</li>
 * </ul>
 * Dropped events do not make it DOWN (a restart would not bring them back); they are reported in the details.
 *
 * <p>Details: {@code sink} (kubernetes, log or none), {@code api} and {@code apiReason} of the first sink (how
 * {@code auto} chose, and why it switched to core/v1 when RBAC refuses events.k8s.io/v1), {@code queueDepth},
 * {@code queueCapacity}, {@code accepted}, {@code dropped} (total over every reason), {@code rejectedInARow} and,
 * once the server refused an event, {@code lastRejection} with {@code at}, {@code event} and {@code error}; once
 * RBAC is known to refuse a verb on the API written, {@code missingAccess} naming each (e.g.
 * {@code "patch on core/v1 events in namespace 'shop'"}); once a repeat was written as a new Event,
 * {@code writtenWithoutPatch}; once the server answered 429, {@code throttledByServer} by source
 * ({@code api_priority_and_fairness}, {@code event_rate_limit});
 * with {@code kubeevents.sink.deterministic-names}, {@code naming} ({@code deterministic}, or
 * {@code client-go-fallback} when a sink fell back to client-go's names), {@code namingFallbacks} and, after a
 * fallback, {@code namingFallbackReason} (the verb RBAC refuses). A fallback does not change the status: events are
 * still written, with client-go's names.
 *
 * <p>Thread-safe.
 */
public final class KubeEventsHealthIndicator extends AbstractHealthIndicator {

	/** The code of the status of a recorder whose writes the API server refuses. */
	public static final String DEGRADED_CODE = "DEGRADED";

	/** The default number of refusals in a row, after a written event, that make the status {@value #DEGRADED_CODE}. */
	public static final int REJECTIONS_IN_A_ROW = 3;

	/** The status of a recorder that runs while the API server refuses its writes. */
	public static final Status DEGRADED = new Status(DEGRADED_CODE,
			"the API server refuses the recorder's writes; see lastRejection");

	private final EventBroadcaster broadcaster;

	private final KubeEventsStatus status;

	private final int rejectionsInARow;

	/**
	 * An indicator over {@code broadcaster} that is {@value #DEGRADED_CODE} after {@value #REJECTIONS_IN_A_ROW}
	 * refusals in a row.
	 * @param broadcaster the broadcaster
	 * @param status where events go
	 */
	public KubeEventsHealthIndicator(EventBroadcaster broadcaster, KubeEventsStatus status) {
		this(broadcaster, status, REJECTIONS_IN_A_ROW);
	}

	/**
	 * An indicator over {@code broadcaster}.
	 * @param broadcaster the broadcaster
	 * @param status where events go
	 * @param rejectionsInARow refusals in a row, after a written event, that make the status
	 * {@value #DEGRADED_CODE} (at least 1)
	 * @throws IllegalArgumentException when {@code rejectionsInARow} is below 1
	 */
	public KubeEventsHealthIndicator(EventBroadcaster broadcaster, KubeEventsStatus status, int rejectionsInARow) {
		super("Kubernetes event recorder health check failed");
		this.broadcaster = Objects.requireNonNull(broadcaster, "broadcaster");
		this.status = Objects.requireNonNull(status, "status");
		if (rejectionsInARow < 1) {
			throw new IllegalArgumentException("rejectionsInARow must be at least 1, was " + rejectionsInARow);
		}
		this.rejectionsInARow = rejectionsInARow;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		RecorderStats stats = this.broadcaster.stats();
		switch (stats.state()) {
			case "running" -> builder.status((refused(stats, this.rejectionsInARow) || !stats.missingAccess().isEmpty())
					? DEGRADED : Status.UP);
			case "starting" -> builder.status(DEGRADED)
				.withDetail("state", "starting: waiting for a thread the last stop abandoned at its deadline");
			case "draining", "terminated" -> builder.down().withDetail("state", "shut down");
			case "stopping", "stopped" -> builder.unknown().withDetail("state", "stopped");
			default -> builder.unknown().withDetail("state", "not started");
		}
		builder.withDetail("sink", this.status.sink().value());
		RecorderSnapshot snapshot = this.broadcaster.snapshot(0);
		if (!snapshot.sinks().isEmpty()) {
			RecorderSnapshot.SinkSnapshot sink = snapshot.sinks().get(0);
			builder.withDetail("api", sink.api()).withDetail("apiReason", sink.apiReason());
		}
		builder.withDetail("queueDepth", stats.queue().depth())
			.withDetail("queueCapacity", stats.queue().capacity())
			.withDetail("accepted", stats.accepted())
			.withDetail("dropped", stats.totalDropped())
			.withDetail("rejectedInARow", stats.rejectedInARow());
		RecorderStats.Naming naming = stats.naming();
		if (naming.deterministicNamesRequested()) {
			builder.withDetail("naming", naming.mode()).withDetail("namingFallbacks", naming.fallbacks());
			if (naming.fallbackReason() != null) {
				builder.withDetail("namingFallbackReason", naming.fallbackReason());
			}
		}
		RecorderStats.Rejection rejection = stats.lastRejection();
		if (rejection != null) {
			builder.withDetail("lastRejection", rejection);
		}
		if (!stats.missingAccess().isEmpty()) {
			builder.withDetail("missingAccess",
					stats.missingAccess().stream().map(RecorderStats.MissingAccess::describe).toList());
		}
		if (stats.writtenWithoutPatch() > 0) {
			builder.withDetail("writtenWithoutPatch", stats.writtenWithoutPatch());
		}
		if (stats.throttledByServer().values().stream().anyMatch((count) -> count > 0)) {
			builder.withDetail("throttledByServer", stats.throttledByServer());
		}
	}

	/** Whether the API server refuses the writes: none written and refusals, or several refusals in a row. */
	private static boolean refused(RecorderStats stats, int rejectionsInARow) {
		long written = stats.writes().created() + stats.writes().patched();
		return stats.rejectedInARow() > 0 && (written == 0 || stats.rejectedInARow() >= rejectionsInARow);
	}

}
