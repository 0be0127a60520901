package io.github.kubeevents;

import java.time.Duration;
import java.util.Objects;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsClient;

/**
 * The events API a recorder writes, and why: the configured one, or what discovery found for
 * {@link EventsApi#AUTO} (client-go's {@code NewEventBroadcasterAdapter}: events.k8s.io/v1 when the server
 * serves it, else core/v1).
 *
 * <p>Immutable and thread-safe.
 *
 * @param api {@link EventsApi#EVENTS_V1} or {@link EventsApi#CORE_V1}, never {@link EventsApi#AUTO}
 * @param reason why, e.g. {@code "auto: the API server serves events.k8s.io/v1"}
 */
record ApiChoice(EventsApi api, String reason) {

	/**
	 * Checks the choice.
	 * @throws IllegalArgumentException when {@code api} is {@link EventsApi#AUTO}
	 */
	public ApiChoice {
		Objects.requireNonNull(api, "api");
		Objects.requireNonNull(reason, "reason");
		if (api == EventsApi.AUTO) {
			throw new IllegalArgumentException("a choice is events.k8s.io/v1 or core/v1");
		}
	}

	/**
	 * Chooses the API. For {@link EventsApi#AUTO} one discovery request ({@code GET /apis/events.k8s.io/v1},
	 * which every authenticated user may make) decides: served → events.k8s.io/v1; 404 → core/v1; any other
	 * failure → core/v1, with the failure in the reason.
	 * @param client the client to ask, for {@link EventsApi#AUTO}
	 * @param timeout the time limit of the discovery request; {@link Duration#ZERO} for the client's own
	 */
	static ApiChoice choose(EventsApi requested, EventsClient client, Duration timeout) {
		if (requested != EventsApi.AUTO) {
			return new ApiChoice(requested, "configured");
		}
		try {
			return client.servesEventsV1(timeout)
					? new ApiChoice(EventsApi.EVENTS_V1, "auto: the API server serves events.k8s.io/v1")
					: new ApiChoice(EventsApi.CORE_V1, "auto: the API server does not serve events.k8s.io/v1");
		}
		catch (EventSinkException | RuntimeException ex) {
			return new ApiChoice(EventsApi.CORE_V1, "auto: discovery of events.k8s.io/v1 failed ("
					+ ((ex instanceof EventSinkException) ? ex.getMessage() : ex) + "), using core/v1");
		}
	}

}
