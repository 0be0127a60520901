package io.github.kubeevents.sink;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A Kubernetes client the recorder writes events through: its sinks for both events APIs, and the two questions
 * the recorder asks the API server before and while writing (whether events.k8s.io/v1 is served, for
 * {@link EventsApi#AUTO}; which verbs RBAC allows on Events, for the RBAC probe and the fallback of {@code auto}).
 * {@code EventBroadcaster.startRecordingTo(EventsClient)} chooses the API, builds the sink and runs its writes
 * with the recorder's retries, exactly as for the official client ({@code startRecordingTo(ApiClient)}, which is
 * this interface over an {@code ApiClient}).
 *
 * <p>Implement this to write through another client (the {@code event-recorder-fabric8} module does, over a
 * fabric8 {@code KubernetesClient}). The sinks must classify failures as the official sinks do
 * ({@link EventSinkException}; {@code io.github.kubeevents.ApiAnswers} does it for a raw HTTP answer), and must not
 * retry on their own: the recorder retries.
 *
 * <p>Implementations must be thread-safe.
 */
public interface EventsClient {

	/**
	 * A new core/v1 sink writing through this client.
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for the client's own
	 * @return the sink
	 */
	EventSink coreV1Sink(Duration requestTimeout);

	/**
	 * A new events.k8s.io/v1 sink writing through this client.
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for the client's own
	 * @return the sink
	 */
	EventsV1Sink eventsV1Sink(Duration requestTimeout);

	/**
	 * Whether the API server serves events.k8s.io/v1: one discovery request ({@code GET /apis/events.k8s.io/v1},
	 * which every authenticated user may make).
	 * @param timeout the time limit of the request; {@link Duration#ZERO} for the client's own
	 * @return {@code true} when served, {@code false} when the server answers 404
	 * @throws EventSinkException when discovery failed otherwise (the recorder then writes core/v1 and says why)
	 */
	boolean servesEventsV1(Duration timeout) throws EventSinkException;

	/**
	 * Whether this client's identity may use {@code verb} on the resource {@code events} of {@code apiGroup} in
	 * {@code namespace}: one SelfSubjectAccessReview (which every authenticated user may make). The recorder asks
	 * it verb by verb ({@code create}, {@code patch}, and {@code get} for deterministic names) for both APIs, at
	 * start and after a refusal.
	 * @param apiGroup {@code ""} for core/v1, {@code events.k8s.io} for events.k8s.io/v1
	 * @param verb e.g. {@code create}
	 * @param namespace the namespace, or {@code null} for every namespace
	 * @param timeout the time limit of the request; {@link Duration#ZERO} for the client's own
	 * @return the review's answer
	 * @throws EventSinkException when the review itself failed (the recorder logs it and asks again later)
	 */
	boolean eventsAllowed(String apiGroup, String verb, @Nullable String namespace, Duration timeout)
			throws EventSinkException;

}
