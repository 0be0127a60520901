package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;

/**
 * The parts of one {@link EventBroadcaster}, wired from its builder: the drop counters, the {@link Fanout} with the
 * incoming queue, what all its sinks share ({@link SinkSettings}), the subscription plumbing ({@link Subscriptions},
 * with the {@link SinkFactory}), and the options the broadcaster reads itself.
 *
 * <p>Immutable; every part is thread-safe.
 *
 * @param clock the builder's clock, for recorders and snapshots
 * @param maxMessageBytes the message limit of every recorder
 * @param shutdownTimeout the deadline of {@link EventBroadcaster#shutdown()}
 * @param counters accepted, dropped and truncated events, shared by every part
 * @param fanout the incoming queue and the distribution thread
 * @param sinkSettings what every sink shares (retries, writers, write budget)
 * @param subscriptions adds subscribers and sinks to the fan-out
 */
record BroadcasterParts(Clock clock, int maxMessageBytes, Duration shutdownTimeout, EventCounters counters,
		Fanout fanout, SinkSettings sinkSettings, Subscriptions subscriptions) {

	/**
	 * Builds the parts a builder describes; starts no thread.
	 * @param builder the builder
	 * @return the wired parts
	 */
	static BroadcasterParts of(EventBroadcasterBuilder builder) {
		SinkSettings sinkSettings = SinkSettings.of(builder);
		EventCounters counters = new EventCounters(builder.clock, builder.dropSummaryInterval);
		Fanout fanout = new Fanout(builder.incomingQueueCapacity, counters);
		Subscriptions subscriptions = new Subscriptions(fanout, counters, builder.subscriberOptions,
				new SinkFactory(builder, sinkSettings, counters));
		return new BroadcasterParts(builder.clock, builder.maxMessageBytes, builder.shutdownTimeout, counters, fanout,
				sinkSettings, subscriptions);
	}

}
