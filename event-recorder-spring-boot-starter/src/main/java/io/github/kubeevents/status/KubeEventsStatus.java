package io.github.kubeevents.status;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Where the application's events go, as resolved once at startup from {@code kubeevents.sink.mode}, the
 * application's sink beans and the {@code KubeEventsConnectionDetails}: the effective sink and why. The
 * auto-configuration declares it as a bean, which the lifecycle (its startup line), the Actuator endpoint and the
 * health indicator read; inject it to see the decision.
 *
 * <p>A bean of this type declared by the application replaces the starter's decision. Applications build one with
 * {@link #discarding(String)}: it keeps the pipeline away from any cluster whatever the properties say (what
 * {@code @AutoConfigureFakeEventRecorder} uses). The constructor and {@link #target()} are public for the starter's
 * own packages (the status is shared by the auto-configuration, the endpoint and the health indicator).
 *
 * <p>Immutable and thread-safe (given a thread-safe sink or client).
 */
public final class KubeEventsStatus {

	private final SinkMode configured;

	private final EffectiveSink sink;

	private final String reason;

	private final @Nullable String apiServer;

	private final boolean logEvents;

	private final @Nullable SinkTarget target;

	private final @Nullable String clientReason;

	/**
	 * A status.
	 * @param configured the configured mode
	 * @param sink where events actually go
	 * @param reason why, in one line
	 * @param apiServer the API server URL events are written to, or {@code null} when unknown or not writing
	 * @param logEvents whether the structured logging subscriber is attached
	 * @param target what to subscribe; non-{@code null} exactly when {@code sink} is {@link EffectiveSink#KUBERNETES}
	 */
	public KubeEventsStatus(SinkMode configured, EffectiveSink sink, String reason, @Nullable String apiServer,
			boolean logEvents, @Nullable SinkTarget target) {
		this(configured, sink, reason, apiServer, logEvents, target, null);
	}

	/**
	 * A status that says why its client was chosen.
	 * @param configured the configured mode
	 * @param sink where events actually go
	 * @param reason why, in one line
	 * @param apiServer the API server URL events are written to, or {@code null} when unknown or not writing
	 * @param logEvents whether the structured logging subscriber is attached
	 * @param target what to subscribe; non-{@code null} exactly when {@code sink} is {@link EffectiveSink#KUBERNETES}
	 * @param clientReason why the target's client was chosen ({@code kubeevents.sink.client}), or {@code null}
	 */
	public KubeEventsStatus(SinkMode configured, EffectiveSink sink, String reason, @Nullable String apiServer,
			boolean logEvents, @Nullable SinkTarget target, @Nullable String clientReason) {
		this.clientReason = clientReason;
		this.configured = Objects.requireNonNull(configured, "configured");
		this.sink = Objects.requireNonNull(sink, "sink");
		this.reason = Objects.requireNonNull(reason, "reason");
		if ((sink == EffectiveSink.KUBERNETES) != (target != null)) {
			throw new IllegalArgumentException("a sink target is required exactly when the effective sink is kubernetes");
		}
		this.apiServer = apiServer;
		this.logEvents = logEvents;
		this.target = target;
	}

	/**
	 * A status that sends events nowhere and logs none (configured {@link SinkMode#NONE}), whatever the
	 * properties and beans say; nothing contacts a cluster.
	 * @param reason why, shown in the startup line, the endpoint and health
	 * @return the status
	 */
	public static KubeEventsStatus discarding(String reason) {
		return new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, reason, null, false, null);
	}

	/**
	 * The configured mode ({@code kubeevents.sink.mode}).
	 * @return the mode
	 */
	public SinkMode configured() {
		return this.configured;
	}

	/**
	 * Where events actually go.
	 * @return the effective sink
	 */
	public EffectiveSink sink() {
		return this.sink;
	}

	/**
	 * Why events go where they go, in one line.
	 * @return e.g. {@code "in-cluster service account /var/run/secrets/kubernetes.io/serviceaccount"} or
	 * {@code "not running in Kubernetes; ..."}
	 */
	public String reason() {
		return this.reason;
	}

	/**
	 * The API server events are written to.
	 * @return its URL, or {@code null} when unknown (an application's sink bean) or not writing
	 */
	public @Nullable String apiServer() {
		return this.apiServer;
	}

	/**
	 * Whether every recorded event is also logged as one structured line.
	 * @return {@code true} when the logging subscriber is attached
	 */
	public boolean logEvents() {
		return this.logEvents;
	}

	/**
	 * The Kubernetes client events are written through.
	 * @return {@code "official"}, {@code "fabric8"}, or {@code "application"} for an {@code EventsClient} bean of the
	 * application; {@code null} when not writing to a cluster or writing to an application's sink bean
	 */
	public @Nullable String client() {
		return (this.target != null) ? this.target.clientName() : null;
	}

	/**
	 * What the lifecycle subscribes.
	 * @return the target; non-{@code null} exactly when events are written to a cluster
	 */
	public @Nullable SinkTarget target() {
		return this.target;
	}

	/**
	 * The one line that tells where events go, logged at startup.
	 * @return e.g. {@code "writing Events to https://10.0.0.1:443 (in-cluster service account ...), logging events"}
	 */
	public String describe() {
		String where = switch (this.sink) {
			case KUBERNETES -> "writing Events to " + ((this.apiServer != null) ? this.apiServer : "the API server")
					+ " (" + this.reason + ")" + ((this.clientReason != null && client() != null)
							? " with the " + client() + " client (" + this.clientReason + ")" : "");
			case LOG -> "not writing to a cluster (" + this.reason + ")";
			case NONE -> "discarding events (" + this.reason + ")";
		};
		return where + ((this.logEvents && this.sink != EffectiveSink.NONE) ? ", logging events" : "");
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return this == other || (other instanceof KubeEventsStatus that && this.configured == that.configured
				&& this.sink == that.sink && this.reason.equals(that.reason)
				&& Objects.equals(this.apiServer, that.apiServer) && this.logEvents == that.logEvents
				&& Objects.equals(this.target, that.target) && Objects.equals(this.clientReason, that.clientReason));
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.configured, this.sink, this.reason, this.apiServer, this.logEvents, this.target,
				this.clientReason);
	}

	@Override
	public String toString() {
		return "KubeEventsStatus[configured=" + this.configured.tag() + ", " + describe() + "]";
	}

}
