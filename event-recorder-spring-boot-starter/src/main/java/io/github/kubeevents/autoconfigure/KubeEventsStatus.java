package io.github.kubeevents.autoconfigure;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Where the application's events go, as resolved at startup: the effective sink, why, and the sink to subscribe.
 * Read by the lifecycle (its startup line), the Actuator endpoint and the health indicator.
 *
 * <p>Immutable and thread-safe (given a thread-safe sink).
 *
 * @param configured the configured mode ({@code kubeevents.sink.mode}): {@code auto}, {@code kubernetes}, {@code log}
 * or {@code none}
 * @param sink where events actually go
 * @param reason why, in one line (e.g. {@code "in-cluster service account"} or {@code "not running in
 * Kubernetes"})
 * @param apiServer the API server URL events are written to, or {@code null} when unknown or not writing
 * @param logEvents whether the structured logging subscriber is attached
 * @param target what to subscribe; non-{@code null} exactly when {@code sink} is {@link EffectiveSink#KUBERNETES}
 */
public record KubeEventsStatus(String configured, EffectiveSink sink, String reason, @Nullable String apiServer,
		boolean logEvents, @Nullable SinkTarget target) {

	/**
	 * Validates the status.
	 * @throws IllegalArgumentException when {@code target} does not match {@code sink}
	 */
	public KubeEventsStatus {
		Objects.requireNonNull(configured, "configured");
		Objects.requireNonNull(sink, "sink");
		Objects.requireNonNull(reason, "reason");
		if ((sink == EffectiveSink.KUBERNETES) != (target != null)) {
			throw new IllegalArgumentException("a sink target is required exactly when the effective sink is kubernetes");
		}
	}

	/**
	 * The one line that tells where events go, logged at startup.
	 * @return e.g. {@code "writing to https://10.0.0.1:443 (in-cluster service account), logging events"}
	 */
	public String describe() {
		String target = switch (this.sink) {
			case KUBERNETES -> "writing Events to " + ((this.apiServer != null) ? this.apiServer : "the API server")
					+ " (" + this.reason + ")";
			case LOG -> "not writing to a cluster (" + this.reason + ")";
			case NONE -> "discarding events (" + this.reason + ")";
		};
		return target + ((this.logEvents && this.sink != EffectiveSink.NONE) ? ", logging events" : "");
	}

}
