package io.github.kubeevents.health;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * <li><b>UP</b> while the recorder runs and its writes reach the API server;</li>
 * <li><b>{@value #DEGRADED_CODE}</b> while it runs but its writes fail, whatever the failure: a number of failed
 * attempts in a row ({@code management.health.kubeevents.failures-in-a-row}, default {@value #FAILURES_IN_A_ROW}:
 * the server cannot be reached, does not answer within the request time limit, answers 5xx or refuses the write;
 * expected refusals such as 409 AlreadyExists and namespaces that are gone not counted), any failed attempt before
 * the first written event, or a write given up after its retries (counted as {@code retries_exhausted}) since the
 * last written event; back to UP at the next written event. Its description names the failure and the API server,
 * {@code lastFailure} the details. Also while RBAC is known to refuse {@code create} or {@code patch} on the API
 * written (the access probe's answer of the last 5 minutes, at startup for the recorder's own namespace and after a
 * refusal), so repeats are written as new Events ({@code written_without_patch}) or events are refused; the
 * description then names the missing verbs (a refused {@code get} only makes deterministic names fall back: listed
 * in {@code missingAccess}, not a degradation). The status is not in Spring Boot's default status order, so it shows here without changing the
 * aggregate status or readiness (a restart does not bring an API server back, so it is not {@code DOWN}); to let
 * it count, add it to the order, e.g.
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
 * {@code queueCapacity}, {@code accepted}, {@code dropped} (total over every reason), {@code failedInARow},
 * {@code rejectedInARow}, once an event was written {@code lastWritten}, and while writes fail {@code lastFailure}
 * with {@code at}, {@code api}, {@code verb}, {@code result} ({@code transport_error}, {@code server_error},
 * {@code client_error}, ...), {@code error}, {@code server} (host:port) and {@code givenUp}; once the server refused
 * an event, {@code lastRejection} with {@code at}, {@code event} and {@code error}; once RBAC is known to refuse a
 * verb on the API written, {@code missingAccess} naming each (e.g. {@code "patch on core/v1 events in namespace
 * 'shop'"}); once a repeat was written as a new Event, {@code writtenWithoutPatch}; once the server answered 429,
 * {@code throttledByServer} by source ({@code api_priority_and_fairness}, {@code event_rate_limit}); with
 * {@code kubeevents.sink.deterministic-names}, {@code naming} ({@code deterministic}, or
 * {@code client-go-fallback} when a sink fell back to client-go's names), {@code namingFallbacks} and, after a
 * fallback, {@code namingFallbackReason} (the verb RBAC refuses). A fallback does not change the status: events are
 * still written, with client-go's names.
 *
 * <p>Thread-safe.
 */
public final class KubeEventsHealthIndicator extends AbstractHealthIndicator {

	/** The code of the status of a recorder whose writes fail, or whose RBAC lacks a verb. */
	public static final String DEGRADED_CODE = "DEGRADED";

	/** The default number of failed attempts in a row, after a written event, that make the status {@value #DEGRADED_CODE}. */
	public static final int FAILURES_IN_A_ROW = 3;

	/**
	 * The {@value #DEGRADED_CODE} status (statuses are equal by their code); each report carries a description of its
	 * own, naming what fails.
	 */
	public static final Status DEGRADED = new Status(DEGRADED_CODE,
			"the recorder does not write as it should; see the details");

	private final EventBroadcaster broadcaster;

	private final KubeEventsStatus status;

	private final int failuresInARow;

	/**
	 * An indicator over {@code broadcaster} that is {@value #DEGRADED_CODE} after {@value #FAILURES_IN_A_ROW}
	 * failed attempts in a row.
	 * @param broadcaster the broadcaster
	 * @param status where events go
	 */
	public KubeEventsHealthIndicator(EventBroadcaster broadcaster, KubeEventsStatus status) {
		this(broadcaster, status, FAILURES_IN_A_ROW);
	}

	/**
	 * An indicator over {@code broadcaster}.
	 * @param broadcaster the broadcaster
	 * @param status where events go
	 * @param failuresInARow failed attempts in a row, after a written event, that make the status
	 * {@value #DEGRADED_CODE} (at least 1)
	 * @throws IllegalArgumentException when {@code failuresInARow} is below 1
	 */
	public KubeEventsHealthIndicator(EventBroadcaster broadcaster, KubeEventsStatus status, int failuresInARow) {
		super("Kubernetes event recorder health check failed");
		this.broadcaster = Objects.requireNonNull(broadcaster, "broadcaster");
		this.status = Objects.requireNonNull(status, "status");
		if (failuresInARow < 1) {
			throw new IllegalArgumentException("failuresInARow must be at least 1, was " + failuresInARow);
		}
		this.failuresInARow = failuresInARow;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		RecorderStats stats = this.broadcaster.stats();
		switch (stats.state()) {
			case "running" -> builder.status(running(stats));
			case "starting" -> builder.status(new Status(DEGRADED_CODE, "starting: waiting for a thread the last stop"
					+ " abandoned at its deadline; events are queued until it has ended"))
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
			.withDetail("failedInARow", stats.failedInARow())
			.withDetail("rejectedInARow", stats.rejectedInARow());
		if (stats.lastWritten() != null) {
			builder.withDetail("lastWritten", stats.lastWritten());
		}
		RecorderStats.Failure failure = stats.lastFailure();
		if (failure != null) {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("at", failure.at());
			details.put("api", failure.api());
			details.put("verb", failure.verb());
			details.put("result", failure.result());
			details.put("error", failure.error());
			details.put("server", server(failure));
			details.put("givenUp", failure.givenUp());
			builder.withDetail("lastFailure", details);
		}
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

	/** The status while running: UP, or DEGRADED with what fails, or with what RBAC refuses. */
	private Status running(RecorderStats stats) {
		RecorderStats.Failure failure = stats.lastFailure();
		if (failure != null && failing(stats, failure)) {
			return new Status(DEGRADED_CODE, "writes to the API server " + server(failure) + " fail ("
					+ stats.failedInARow() + " failed attempt(s) in a row, the last one " + failure.result() + "): "
					+ failure.error() + "; see lastFailure");
		}
		// a refused get only costs deterministic names their fallback: events are written, so it is not a degradation
		List<RecorderStats.MissingAccess> writeVerbs = stats.missingAccess()
			.stream()
			.filter((missing) -> !"get".equals(missing.verb()))
			.toList();
		if (!writeVerbs.isEmpty()) {
			return new Status(DEGRADED_CODE, "RBAC refuses the recorder "
					+ String.join(", ", writeVerbs.stream().map(RecorderStats.MissingAccess::describe).toList())
					+ (writeVerbs.stream().anyMatch((missing) -> "create".equals(missing.verb()))
							? ": events are refused (rejected_by_server)"
							: ": repeats are written as new Events (written_without_patch)")
					+ "; see missingAccess");
		}
		return Status.UP;
	}

	/**
	 * Whether the writes fail: several failed attempts in a row, any before the first written event, or a write
	 * given up after its retries since the last written event.
	 */
	private boolean failing(RecorderStats stats, RecorderStats.Failure failure) {
		long written = stats.writes().created() + stats.writes().patched();
		return stats.failedInARow() >= this.failuresInARow || written == 0 || failure.givenUp();
	}

	/** The failing server as host:port, from its URL; the URL itself when it has no host. */
	private String server(RecorderStats.Failure failure) {
		String url = failure.server().isEmpty() && this.status.apiServer() != null ? this.status.apiServer()
				: failure.server();
		if (url == null || url.isEmpty()) {
			return "(unknown)";
		}
		try {
			URI uri = URI.create(url);
			if (uri.getHost() == null) {
				return url;
			}
			int port = (uri.getPort() >= 0) ? uri.getPort() : ("http".equalsIgnoreCase(uri.getScheme()) ? 80 : 443);
			return uri.getHost() + ":" + port;
		}
		catch (IllegalArgumentException ex) {
			return url;
		}
	}

}
