package io.github.kubeevents.fabric8;

import java.time.Duration;
import java.util.Objects;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import io.kubernetes.client.openapi.models.V1ResourceAttributes;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReview;
import io.kubernetes.client.openapi.models.V1SelfSubjectAccessReviewSpec;

/**
 * A fabric8 {@link KubernetesClient} as the client the recorder writes events through: the recorder then needs no
 * second client, kubeconfig or HTTP stack next to the one an operator (Java Operator SDK, Quarkus) already has.
 *
 * <pre>{@code
 * EventBroadcaster broadcaster = EventBroadcaster.builder().build();
 * broadcaster.startRecordingTo(Fabric8EventsClient.of(kubernetesClient));
 * EventRecorder recorder = broadcaster.newRecorder(EventSource.of("my-operator"));
 * }</pre>
 *
 * <p>Everything is the recorder's, as over the official client ({@link EventBroadcaster#startRecordingTo(EventsClient)}):
 * the events API chosen by discovery for {@code auto} and the RBAC fallback to core/v1, the correlator, the
 * retries and the drop counters. The requests are the official sinks' requests, body for body: client-java models
 * serialised with client-java's JSON, sent with the client's own HTTP client (its authentication, TLS and
 * interceptors), without fabric8's own retries (the recorder retries), each with the recorder's request time
 * limit. The client is not closed by the recorder, and its connections stay open while the recorder is stopped
 * (they are the application's; the official sinks close their own idle ones). Works with the fabric8 7.x and 8.x
 * lines.
 *
 * <p>Immutable and thread-safe.
 */
public final class Fabric8EventsClient implements EventsClient {

	private final KubernetesClient client;

	private Fabric8EventsClient(KubernetesClient client) {
		this.client = client;
	}

	/**
	 * The recorder's view of {@code client}.
	 * @param client the fabric8 client (its master URL, credentials and HTTP client are used as they are)
	 * @return the events client
	 */
	public static Fabric8EventsClient of(KubernetesClient client) {
		return new Fabric8EventsClient(Objects.requireNonNull(client, "client"));
	}

	/** The client's master URL: failures in health and stats name it. */
	@Override
	public String server() {
		return String.valueOf(this.client.getMasterUrl());
	}

	/**
	 * A new core/v1 sink over the client.
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for none of the recorder's
	 * @return the sink
	 */
	@Override
	public Sink<CoreV1Event, EventSink.CountPatch> coreV1Sink(Duration requestTimeout) {
		return new Fabric8Sink<>(new Fabric8Requests(this.client, requestTimeout), Fabric8Sink.CORE_V1,
				CoreV1Event.class);
	}

	/**
	 * A new events.k8s.io/v1 sink over the client.
	 * @param requestTimeout the time limit of one request; {@link Duration#ZERO} for none of the recorder's
	 * @return the sink
	 */
	@Override
	public Sink<EventsV1Event, EventsV1Sink.SeriesPatch> eventsV1Sink(Duration requestTimeout) {
		return new Fabric8Sink<>(new Fabric8Requests(this.client, requestTimeout), Fabric8Sink.EVENTS_V1,
				EventsV1Event.class);
	}

	/**
	 * {@code GET /apis/events.k8s.io/v1/} through the client (the official client's discovery request).
	 * @param timeout the time limit of the request
	 * @return {@code true} when served, {@code false} on 404
	 * @throws EventSinkException when discovery failed otherwise
	 */
	@Override
	public boolean servesEventsV1(Duration timeout) throws EventSinkException {
		try {
			new Fabric8Requests(this.client, timeout).get("/apis/events.k8s.io/v1/", V1APIResourceList.class);
			return true;
		}
		catch (EventSinkException ex) {
			if (ex.kind() == EventSinkException.Kind.HTTP_STATUS && ex.statusCode() == 404) {
				return false;
			}
			throw ex;
		}
	}

	/**
	 * A SelfSubjectAccessReview of {@code verb} on {@code events} of {@code apiGroup} in {@code namespace}, through
	 * the client.
	 * @param apiGroup {@code ""} (core/v1) or {@code events.k8s.io}
	 * @param verb e.g. {@code patch}
	 * @param namespace the namespace
	 * @param timeout the time limit of the request
	 * @return the review's answer
	 * @throws EventSinkException when the review failed
	 */
	@Override
	public boolean eventsAllowed(String apiGroup, String verb, @org.jspecify.annotations.Nullable String namespace,
			Duration timeout)
			throws EventSinkException {
		V1SelfSubjectAccessReview review = new V1SelfSubjectAccessReview().spec(new V1SelfSubjectAccessReviewSpec().resourceAttributes(
					new V1ResourceAttributes().group(apiGroup).resource("events").verb(verb).namespace(namespace)));
		AccessReviewAnswer answer = new Fabric8Requests(this.client, timeout).post(
				"/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", review, AccessReviewAnswer.class, "create");
		return answer.status != null && Boolean.TRUE.equals(answer.status.allowed);
	}

	/** The part of a SelfSubjectAccessReview answer that is read (it has no name, which an Event answer must have). */
	private static final class AccessReviewAnswer {

		@org.jspecify.annotations.Nullable AccessReviewStatus status;

	}

	private static final class AccessReviewStatus {

		@org.jspecify.annotations.Nullable Boolean allowed;

	}

	/**
	 * The client written through.
	 * @return the client
	 */
	public KubernetesClient client() {
		return this.client;
	}

}
