package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkTarget;
import io.github.kubeevents.status.SinkMode;
import io.github.kubeevents.status.EffectiveSink;
import org.jspecify.annotations.Nullable;

/**
 * {@link KubeEventsStatus} values for tests outside this package (the endpoint, health and metrics tests), whose
 * constructor is package-private.
 */
public final class TestStatuses {

	private TestStatuses() {
	}

	/**
	 * Events written to {@code sink}.
	 * @param mode the configured mode
	 * @param sink the application's sink
	 * @param reason why
	 * @param apiServer the API server URL, or {@code null}
	 * @param logEvents whether events are logged too
	 * @return the status
	 */
	public static KubeEventsStatus writing(SinkMode mode, EventSink sink, String reason, @Nullable String apiServer,
			boolean logEvents) {
		return new KubeEventsStatus(mode, EffectiveSink.KUBERNETES, reason, apiServer, logEvents,
				new SinkTarget.CoreV1(sink));
	}

	/**
	 * Events only logged.
	 * @param mode the configured mode
	 * @param reason why
	 * @return the status
	 */
	public static KubeEventsStatus logging(SinkMode mode, String reason) {
		return new KubeEventsStatus(mode, EffectiveSink.LOG, reason, null, true, null);
	}

}
