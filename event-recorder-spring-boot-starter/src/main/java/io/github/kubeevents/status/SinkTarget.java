package io.github.kubeevents.status;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.Subscription;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

/**
 * What the lifecycle subscribes to the broadcaster when events are written to a cluster: a client (the events API
 * is then chosen as configured, by discovery for {@code auto}), or an application's own sink of either API.
 *
 * <p>Immutable and thread-safe (given thread-safe clients and sinks).
 */
public sealed interface SinkTarget {

	/**
	 * The application's own sink, if it has one: with beans of both APIs, the one of the configured API
	 * ({@code kubeevents.sink.api}; the events.k8s.io/v1 one for {@code auto}).
	 * @param coreV1 its core/v1 sink bean
	 * @param eventsV1 its events.k8s.io/v1 sink bean
	 * @param api the configured events API
	 * @return the target, or {@code null} without sink beans
	 */
	static @Nullable SinkTarget applicationSink(@Nullable EventSink coreV1, @Nullable EventsV1Sink eventsV1,
			EventsApi api) {
		if (eventsV1 != null && (coreV1 == null || api != EventsApi.CORE_V1)) {
			return new EventsV1(eventsV1);
		}
		return (coreV1 != null) ? new CoreV1(coreV1) : null;
	}

	/**
	 * Subscribes this target.
	 * @param broadcaster the broadcaster
	 * @return the subscription
	 */
	Subscription subscribe(EventBroadcaster broadcaster);

	/**
	 * What this target is, for the startup line and the endpoint.
	 * @return e.g. {@code "EventSink bean"}
	 */
	String description();

	/**
	 * The client events are written through, for the endpoint and the startup line.
	 * @return {@code "official"}, {@code "fabric8"}, {@code "application"} for an {@code EventsClient} bean of the
	 * application, or {@code null} for an application's own sink
	 */
	default @Nullable String clientName() {
		return null;
	}

	/**
	 * A cluster's client; the broadcaster's {@code eventsApi} decides which API is written.
	 * @param client the client
	 */
	record Client(ApiClient client) implements SinkTarget {

		@Override
		public String clientName() {
			return SinkClient.OFFICIAL.tag();
		}

		@Override
		public Subscription subscribe(EventBroadcaster broadcaster) {
			return broadcaster.startRecordingTo(this.client);
		}

		@Override
		public String description() {
			return "client of " + this.client.getBasePath();
		}

	}

	/**
	 * Another client of a cluster (the application's fabric8 {@code KubernetesClient}, or an {@code EventsClient}
	 * bean of the application); the broadcaster's {@code eventsApi} decides which API is written.
	 * @param eventsClient the client as the recorder writes through it
	 * @param clientName the client's name, e.g. {@code "fabric8"}, or {@code "application"} for an
	 * {@code EventsClient} bean of the application
	 * @param apiServer the API server's URL, or {@code null} when the client does not say
	 * @param source where the client comes from, e.g. {@code "KubernetesClient bean"}
	 */
	record OtherClient(EventsClient eventsClient, String clientName, @Nullable String apiServer,
			String source) implements SinkTarget {

		@Override
		public Subscription subscribe(EventBroadcaster broadcaster) {
			return broadcaster.startRecordingTo(this.eventsClient);
		}

		@Override
		public String description() {
			return this.source;
		}

	}

	/**
	 * An application's core/v1 sink.
	 * @param sink the sink
	 */
	record CoreV1(EventSink sink) implements SinkTarget {

		@Override
		public Subscription subscribe(EventBroadcaster broadcaster) {
			return broadcaster.startRecordingToSink(this.sink);
		}

		@Override
		public String description() {
			return "EventSink bean";
		}

	}

	/**
	 * An application's events.k8s.io/v1 sink.
	 * @param sink the sink
	 */
	record EventsV1(EventsV1Sink sink) implements SinkTarget {

		@Override
		public Subscription subscribe(EventBroadcaster broadcaster) {
			return broadcaster.startRecordingToSink(this.sink);
		}

		@Override
		public String description() {
			return "EventsV1Sink bean";
		}

	}

}
