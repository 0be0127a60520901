package io.github.kubeevents.endpoint;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.github.kubeevents.introspect.RecorderSnapshot;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code kubeevents} Actuator endpoint. Read-only; it reads in-memory state only and never calls the API
 * server.
 * <ul>
 * <li>{@code GET /actuator/kubeevents[?limit=N]}: the reporting component and host, where events go and why, and
 * a {@link RecorderSnapshot} of the lifecycle, queues, counters, subscribers and sinks with up to {@code limit}
 * cache entries per list.</li>
 * <li>{@code GET /actuator/kubeevents/{namespace}/{name}} (or {@code /{name}} for a cluster-scoped object): what
 * the recorder remembers about one object; 404 when nothing.</li>
 * </ul>
 * Messages and notes can carry secrets from error strings, so they are shown as {@value #HIDDEN} unless
 * {@code management.endpoint.kubeevents.show-values} allows (Spring Boot's {@link Show} model, default
 * {@code never}).
 *
 * <p>Thread-safe.
 */
@Endpoint(id = "kubeevents", defaultAccess = Access.READ_ONLY)
public final class KubeEventsEndpoint {

	/** What a hidden message looks like. */
	public static final String HIDDEN = "******";

	private final EventBroadcaster broadcaster;

	private final KubeEventsStatus status;

	private final EventSource source;

	private final int defaultLimit;

	private final Show showValues;

	private final Set<String> roles;

	/**
	 * An endpoint over {@code broadcaster}.
	 * @param broadcaster the broadcaster to snapshot
	 * @param status where events go
	 * @param source the reporting component and host
	 * @param defaultLimit the maximum number of cache entries per list when no limit is requested
	 * @param showValues when messages are shown
	 * @param roles the roles that may see messages with {@link Show#WHEN_AUTHORIZED} (empty: any authenticated user)
	 */
	public KubeEventsEndpoint(EventBroadcaster broadcaster, KubeEventsStatus status, EventSource source,
			int defaultLimit, Show showValues, Collection<String> roles) {
		this.broadcaster = Objects.requireNonNull(broadcaster, "broadcaster");
		this.status = Objects.requireNonNull(status, "status");
		this.source = Objects.requireNonNull(source, "source");
		if (defaultLimit < 0) {
			throw new IllegalArgumentException("defaultLimit must be zero or positive, was " + defaultLimit);
		}
		this.defaultLimit = defaultLimit;
		this.showValues = Objects.requireNonNull(showValues, "showValues");
		this.roles = Set.copyOf(roles);
	}

	/**
	 * The recorder's state.
	 * @param securityContext who asks (decides whether messages are shown)
	 * @param limit the maximum number of cache entries per list (sizes are always reported in full);
	 * {@code null} for {@code management.endpoint.kubeevents.default-limit}
	 * @return the description
	 * @throws InvalidEndpointRequestException (HTTP 400) when {@code limit} is negative
	 */
	@ReadOperation
	public KubeEventsDescriptor kubeEvents(SecurityContext securityContext, @Nullable Integer limit) {
		int effectiveLimit = (limit != null) ? limit : this.defaultLimit;
		if (effectiveLimit < 0) {
			throw new InvalidEndpointRequestException("limit must be zero or positive, was " + effectiveLimit,
					"Invalid limit");
		}
		RecorderSnapshot snapshot = this.broadcaster.snapshot(effectiveLimit);
		return new KubeEventsDescriptor(this.source.component(), this.source.host(), SinkDescriptor.of(this.status),
				Redaction.apply(snapshot, shown(securityContext)), this.broadcaster.stats().naming());
	}

	/**
	 * What the recorder remembers about one object, over every sink: its correlator and series cache entries.
	 * @param securityContext who asks
	 * @param path {@code namespace/name}, or {@code name} for a cluster-scoped object
	 * @return the description, or {@code null} (HTTP 404) when the recorder remembers nothing about it
	 * @throws InvalidEndpointRequestException (HTTP 400) for more than two path segments
	 */
	@ReadOperation
	public @Nullable ObjectDescriptor object(SecurityContext securityContext, @Selector(match = Match.ALL_REMAINING) String[] path) {
		if (path.length < 1 || path.length > 2) {
			throw new InvalidEndpointRequestException("expected /{namespace}/{name} or /{name}, got "
					+ String.join("/", path), "Invalid object path");
		}
		String namespace = (path.length == 2) ? path[0] : null;
		String name = path[path.length - 1];
		RecorderSnapshot snapshot = this.broadcaster.snapshot(Integer.MAX_VALUE,
				(object) -> object.is(namespace, name));
		List<ObjectDescriptor.SinkEntries> sinks = ObjectDescriptor.entries(Redaction.apply(snapshot,
				shown(securityContext)));
		return sinks.isEmpty() ? null : new ObjectDescriptor(new ObjectRef(null, namespace, name), sinks);
	}

	private boolean shown(SecurityContext securityContext) {
		return this.showValues.isShown(securityContext, this.roles);
	}

	/**
	 * The endpoint's answer.
	 *
	 * @param component the reporting component of recorded events
	 * @param host the reporting host of recorded events
	 * @param sink where events go
	 * @param recorder the broadcaster's lifecycle, queues, counters, subscribers and sinks
	 * @param naming how Events are named: {@code client-go}, {@code deterministic}
	 * ({@code kubeevents.sink.deterministic-names}), or {@code client-go-fallback} with how many sinks fell back and
	 * why (the verb RBAC refuses)
	 */
	public record KubeEventsDescriptor(String component, String host, SinkDescriptor sink,
			RecorderSnapshot recorder, RecorderStats.Naming naming) implements OperationResponseBody {
	}

	/**
	 * Where events go.
	 *
	 * @param configured {@code kubeevents.sink.mode}: {@code auto}, {@code kubernetes}, {@code log} or {@code none}
	 * @param effective where events actually go: {@code kubernetes}, {@code log} or {@code none}
	 * @param reason why
	 * @param apiServer the API server URL, or {@code null}
	 * @param logEvents whether events are logged
	 * @param client the Kubernetes client events are written through ({@code official} or {@code fabric8}), or
	 * {@code null} when not writing to a cluster or writing to an application's sink bean
	 */
	public record SinkDescriptor(String configured, String effective, String reason, @Nullable String apiServer,
			boolean logEvents, @Nullable String client) {

		static SinkDescriptor of(KubeEventsStatus status) {
			return new SinkDescriptor(status.configured().tag(), status.sink().value(), status.reason(), status.apiServer(),
					status.logEvents(), status.client());
		}

	}

}
