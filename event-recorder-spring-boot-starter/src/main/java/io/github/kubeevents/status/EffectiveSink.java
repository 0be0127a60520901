package io.github.kubeevents.status;

import java.util.Locale;

/**
 * Where recorded events actually go, once {@link SinkMode} has been resolved against the environment.
 *
 * <p>Immutable and thread-safe.
 */
public enum EffectiveSink {

	/** Events are written to the API server (and logged too when {@code kubeevents.log-events} is true). */
	KUBERNETES,

	/** Events are only logged. */
	LOG,

	/** Events are neither written nor logged. */
	NONE;

	/**
	 * The lower-case name shown by the endpoint, the health indicator and the logs.
	 * @return {@code "kubernetes"}, {@code "log"} or {@code "none"}
	 */
	public String value() {
		return name().toLowerCase(Locale.ROOT);
	}

}
