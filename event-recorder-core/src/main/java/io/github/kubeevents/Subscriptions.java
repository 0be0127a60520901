package io.github.kubeevents;

import io.github.kubeevents.introspect.SinkStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.ApiClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subscription plumbing of an {@link EventBroadcaster}: every handler gets a {@link SubscriberQueue} of its own
 * that is added to the broadcaster's {@link Fanout} (closing the subscription removes it through the fan-out
 * again); sinks are built, named and remembered by the {@link SinkFactory}. A subscriber refused because the
 * broadcaster has shut down is logged (ERROR) and returned inactive.
 *
 * <p>Thread-safe.
 */
final class Subscriptions {

	/** Subscribing is the broadcaster's, so are its log lines. */
	private static final Logger logger = LoggerFactory.getLogger(EventBroadcaster.class);

	private final Fanout fanout;

	private final EventCounters counters;

	private final SubscriberOptions defaultOptions;

	private final SinkFactory sinks;

	/**
	 * Subscriptions to one broadcaster's fan-out.
	 * @param fanout where subscribers are added
	 * @param counters the broadcaster's drop counters, also the subscribers'
	 * @param defaultOptions the builder's subscriber options
	 * @param sinks builds the sink subscribers
	 */
	Subscriptions(Fanout fanout, EventCounters counters, SubscriberOptions defaultOptions, SinkFactory sinks) {
		this.fanout = fanout;
		this.counters = counters;
		this.defaultOptions = defaultOptions;
		this.sinks = sinks;
	}

	/** Subscribes a handler with the default subscriber options. */
	Subscription subscribe(String name, EventHandler handler) {
		return subscribe(name, handler, this.defaultOptions);
	}

	/** Subscribes a handler; see {@link EventBroadcaster#subscribe(String, EventHandler, SubscriberOptions)}. */
	Subscription subscribe(String name, EventHandler handler, SubscriberOptions options) {
		SubscriberQueue[] self = new SubscriberQueue[1];
		SubscriberQueue subscriber = new SubscriberQueue(name, handler, options, this.counters,
				() -> this.fanout.unsubscribe(self[0]));
		self[0] = subscriber;
		if (!this.fanout.subscribe(subscriber)) {
			logger.error("Unable to start event subscriber '{}' (will not retry!): broadcaster already stopped", name);
			subscriber.closeInput();
		}
		return subscriber;
	}

	/** Subscribes a core/v1 sink with a correlator of its own. */
	Subscription coreV1(EventSink sink) {
		return subscribeSink(this.sinks.coreV1(sink, new ApiChoice(EventsApi.CORE_V1, "configured")));
	}

	/** Subscribes an events.k8s.io/v1 sink with a series cache of its own. */
	Subscription eventsV1(EventsV1Sink sink) {
		return subscribeSink(this.sinks.eventsV1(sink, new ApiChoice(EventsApi.EVENTS_V1, "configured")));
	}

	/** Subscribes a sink writing through {@code client} with the builder's events API. */
	Subscription forClient(ApiClient client) {
		return subscribeSink(this.sinks.forClient(client));
	}

	/** The counters of every sink subscribed so far, summed. */
	SinkStats sinkStats() {
		return this.sinks.stats();
	}

	private Subscription subscribeSink(SinkFactory.Named sink) {
		return subscribe(sink.name(), sink.recording());
	}

}
