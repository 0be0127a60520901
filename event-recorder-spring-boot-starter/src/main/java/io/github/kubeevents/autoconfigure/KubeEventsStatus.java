package io.github.kubeevents.autoconfigure;

import java.util.Objects;

import io.github.kubeevents.sink.EventSink;
import org.jspecify.annotations.Nullable;

/**
 * How the starter resolved {@code kubeevents.sink} at startup: where events go, why, and the sink to subscribe.
 * Read by the lifecycle, the endpoint and the health indicator.
 *
 * <p>Immutable and thread-safe (given a thread-safe sink).
 *
 * @param configured the configured mode ({@code kubeevents.sink})
 * @param sink where events actually go
 * @param reason why, in one line (e.g. {@code "kubeconfig /home/me/.kube/config"})
 * @param apiServer the API server URL events are written to, or {@code null} when unknown or not writing
 * @param logEvents whether the structured logging subscriber is attached
 * @param eventSink the sink to subscribe; non-{@code null} exactly when {@code sink} is
 * {@link EffectiveSink#KUBERNETES}
 */
public record KubeEventsStatus(SinkMode configured, EffectiveSink sink, String reason, @Nullable String apiServer,
		boolean logEvents, @Nullable EventSink eventSink) {

	/**
	 * Validates the status.
	 * @throws IllegalArgumentException when {@code eventSink} does not match {@code sink}
	 */
	public KubeEventsStatus {
		Objects.requireNonNull(configured, "configured");
		Objects.requireNonNull(sink, "sink");
		Objects.requireNonNull(reason, "reason");
		if ((sink == EffectiveSink.KUBERNETES) != (eventSink != null)) {
			throw new IllegalArgumentException("an event sink is required exactly when the effective sink is kubernetes");
		}
	}

}
