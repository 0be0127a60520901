package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.Subscription;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.ApiClient;

/**
 * What the lifecycle subscribes to the broadcaster when events are written to a cluster: a client (the events API
 * is then chosen as configured, by discovery for {@code auto}), or an application's own sink of either API.
 *
 * <p>Immutable and thread-safe (given thread-safe clients and sinks).
 */
public sealed interface SinkTarget {

	/**
	 * Subscribes this target.
	 * @param broadcaster the broadcaster
	 * @return the subscription
	 */
	Subscription subscribe(EventBroadcaster broadcaster);

	/**
	 * A cluster's client; the broadcaster's {@code eventsApi} decides which API is written.
	 * @param client the client
	 */
	record Client(ApiClient client) implements SinkTarget {

		@Override
		public Subscription subscribe(EventBroadcaster broadcaster) {
			return broadcaster.startRecordingTo(this.client);
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

	}

}
