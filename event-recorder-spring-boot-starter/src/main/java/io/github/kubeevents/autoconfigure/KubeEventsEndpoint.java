package io.github.kubeevents.autoconfigure;

import java.util.Locale;
import java.util.Objects;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.introspect.RecorderSnapshot;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code kubeevents} Actuator endpoint ({@code GET /actuator/kubeevents[?limit=N]}): the reporting
 * component and host, the resolved sink, and a {@link RecorderSnapshot} of queues, drops, sinks and correlator
 * caches. Read-only by default; it reads in-memory state only and never calls the API server.
 *
 * <p>Thread-safe.
 */
@Endpoint(id = "kubeevents", defaultAccess = Access.READ_ONLY)
public final class KubeEventsEndpoint {

	private final EventBroadcaster broadcaster;

	private final KubeEventsStatus status;

	private final EventSource source;

	private final int defaultLimit;

	/**
	 * An endpoint over {@code broadcaster}.
	 * @param broadcaster the broadcaster to snapshot
	 * @param status the resolved sink
	 * @param source the reporting component and host
	 * @param defaultLimit the maximum number of entries per correlator list when no limit is requested
	 */
	public KubeEventsEndpoint(EventBroadcaster broadcaster, KubeEventsStatus status, EventSource source,
			int defaultLimit) {
		this.broadcaster = Objects.requireNonNull(broadcaster, "broadcaster");
		this.status = Objects.requireNonNull(status, "status");
		this.source = Objects.requireNonNull(source, "source");
		if (defaultLimit < 0) {
			throw new IllegalArgumentException("defaultLimit must be zero or positive, was " + defaultLimit);
		}
		this.defaultLimit = defaultLimit;
	}

	/**
	 * The recorder's state.
	 * @param limit the maximum number of entries in each correlator list (sizes are always reported in full);
	 * {@code null} for {@code kubeevents.endpoint.default-limit}
	 * @return the description
	 * @throws InvalidEndpointRequestException (HTTP 400) when {@code limit} is negative
	 */
	@ReadOperation
	public KubeEventsDescriptor kubeEvents(@Nullable Integer limit) {
		int effectiveLimit = (limit != null) ? limit : this.defaultLimit;
		if (effectiveLimit < 0) {
			throw new InvalidEndpointRequestException("limit must be zero or positive, was " + effectiveLimit,
					"Invalid limit");
		}
		SinkDescriptor sink = new SinkDescriptor(this.status.configured().name().toLowerCase(Locale.ROOT),
				this.status.sink().value(), this.status.reason(), this.status.apiServer(), this.status.logEvents());
		return new KubeEventsDescriptor(this.source.component(), this.source.host(), sink,
				this.broadcaster.snapshot(effectiveLimit));
	}

	/**
	 * The endpoint's answer.
	 *
	 * @param component the reporting component of recorded events
	 * @param host the reporting host of recorded events
	 * @param sink where events go
	 * @param recorder the broadcaster's queues, drops, subscribers and sinks
	 */
	public record KubeEventsDescriptor(String component, String host, SinkDescriptor sink, RecorderSnapshot recorder) {
	}

	/**
	 * Where events go.
	 *
	 * @param configured {@code kubeevents.sink}: {@code auto}, {@code kubernetes}, {@code log} or {@code none}
	 * @param effective where events actually go: {@code kubernetes}, {@code log} or {@code none}
	 * @param reason why
	 * @param apiServer the API server URL, or {@code null}
	 * @param logEvents whether events are logged
	 */
	public record SinkDescriptor(String configured, String effective, String reason, @Nullable String apiServer,
			boolean logEvents) {
	}

}
