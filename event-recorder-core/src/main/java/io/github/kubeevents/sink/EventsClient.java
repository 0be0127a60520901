package io.github.kubeevents.sink;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
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
 * ({@link EventSinkException}; {@link #read}, {@link #namespaceOf}, {@link #nameOf} and
 * {@link EventSinkException#of(io.kubernetes.client.openapi.ApiException)} do it for a raw HTTP answer, exactly as
 * the recorder's sinks over the official client, so every client's failures take the same path through the
 * recorder's retries), and must not retry on their own: the recorder retries.
 *
 * <p>Implementations must be thread-safe.
 */
public interface EventsClient {

	/**
	 * The official Kubernetes Java client as an events client: what
	 * {@code EventBroadcaster.startRecordingTo(ApiClient)} writes through, for an application that wants to decorate
	 * it or hand it over as a bean. Its sinks make each request with a time limit (an OkHttp call timeout covering
	 * connect, TLS, write and read), send a repeat as a strategic-merge PATCH, cancel requests in flight when the
	 * recorder aborts at a stop or shutdown deadline, and classify every failure as
	 * {@link EventSinkException#of(ApiException)} does.
	 * @param client the client (its base path, authentication and timeouts are used as they are)
	 * @return the events client; thread-safe as far as {@code client} is
	 */
	static EventsClient of(ApiClient client) {
		return new OfficialEventsClient(client);
	}

	/**
	 * A new core/v1 sink writing through this client.
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for the client's own
	 * @return the sink
	 */
	Sink<CoreV1Event, EventSink.CountPatch> coreV1Sink(Duration requestTimeout);

	/**
	 * A new events.k8s.io/v1 sink writing through this client.
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for the client's own
	 * @return the sink
	 */
	Sink<EventsV1Event, EventsV1Sink.SeriesPatch> eventsV1Sink(Duration requestTimeout);

	/**
	 * The API server this client writes to, as health and stats name it when writes fail ({@code lastFailure}).
	 * The default is empty (unknown).
	 * @return e.g. {@code https://10.0.0.1:443}
	 */
	default String server() {
		return "";
	}

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

	/**
	 * The object an API server's answer carries, or the classified failure it stands for, as the recorder's sinks
	 * over the official client read it: a 2xx answer is read leniently (unknown fields ignored,
	 * {@code managedFields} skipped, like client-go's decoder), and one that is not a {@code type} with a name is
	 * {@link EventSinkException.Kind#UNEXPECTED_RESPONSE} (retried); any other status is classified by
	 * {@link EventSinkException#of(io.kubernetes.client.openapi.ApiException)}.
	 * @param <T> the expected type, a client-java model such as {@code CoreV1Event}
	 * @param verb what the request did ({@code create}, {@code patch}), for the message of an unexpected answer
	 * @param status the HTTP status code
	 * @param statusMessage the HTTP status line's message, may be empty
	 * @param headers the answer's headers (for {@code Retry-After}), any case
	 * @param body the answer's body, may be empty
	 * @param type the expected type
	 * @return the object of a 2xx answer
	 * @throws EventSinkException for any other status, or a 2xx answer that is not a {@code type} with a name
	 */
	static <T> T read(String verb, int status, String statusMessage, Map<String, List<String>> headers, String body,
			Class<T> type) throws EventSinkException {
		if (status < 200 || status >= 300) {
			throw ApiAnswers.classify(new ApiException(statusMessage, status, headers, body));
		}
		try {
			return ApiAnswers.parse(body, type);
		}
		catch (RuntimeException ex) {
			throw EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
					"Unexpected response to " + verb + ": " + ex, ex);
		}
	}

	/**
	 * The namespace an Event is written to, checked before anything is sent.
	 * @param metadata the Event's metadata, may be {@code null}
	 * @return the namespace
	 * @throws EventSinkException ({@link EventSinkException.Kind#REQUEST_CONSTRUCTION}) when there is none
	 */
	static String namespaceOf(@Nullable V1ObjectMeta metadata) throws EventSinkException {
		String namespace = (metadata != null) ? metadata.getNamespace() : null;
		if (namespace == null || namespace.isEmpty()) {
			throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
					"Unable to construct request: event has no namespace", null);
		}
		return namespace;
	}

	/**
	 * The name of the Event a patch or read is for, checked before anything is sent.
	 * @param metadata the Event's metadata, may be {@code null}
	 * @return the name
	 * @throws EventSinkException ({@link EventSinkException.Kind#REQUEST_CONSTRUCTION}) when there is none
	 */
	static String nameOf(@Nullable V1ObjectMeta metadata) throws EventSinkException {
		String name = (metadata != null) ? metadata.getName() : null;
		if (name == null || name.isEmpty()) {
			throw EventSinkException.of(EventSinkException.Kind.REQUEST_CONSTRUCTION,
					"Unable to construct patch request: event has no name", null);
		}
		return name;
	}

}
