package io.github.kubeevents.autoconfigure;

import java.time.Duration;

import io.github.kubeevents.FullQueuePolicy;
import io.github.kubeevents.SubscriberOptions;
import io.github.kubeevents.correlator.CorrelatorOptions;
import io.github.kubeevents.sink.RetryPolicy;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the kube-events recorder ({@code kubeevents.*}). Every default is client-go's.
 *
 * <p>Bound by constructor; nested groups are never {@code null}. Each compact constructor rejects invalid values
 * with an {@link IllegalArgumentException} naming the property, so a bad value fails startup.
 *
 * <p>Immutable and thread-safe.
 *
 * @param enabled Whether to auto-configure the event recorder.
 * @param component Reporting component written into every Event (source.component and reportingComponent).
 * Defaults to spring.application.name, or "kube-events" when that is not set.
 * @param host Reporting host written into every Event (source.host and reportingInstance). Defaults to the
 * POD_NAME environment variable, then HOSTNAME, else empty.
 * @param sink Where recorded events go: "auto" writes to the API server when a cluster configuration exists and
 * otherwise only logs, "kubernetes" requires a cluster, "log" only logs, "none" neither writes nor logs.
 * @param logEvents Whether to log every recorded event as one structured line (logger
 * "io.github.kubeevents.events"). Always on when the sink is "log", or "auto" without a cluster.
 * @param shutdownTimeout Maximum time to wait, on shutdown, for queued events to be written. Keep it below
 * spring.lifecycle.timeout-per-shutdown-phase.
 * @param maxMessageSize Maximum size of an event message in UTF-8 bytes; longer messages are dropped as invalid
 * input.
 * @param queue Queue settings.
 * @param retry Retry settings of API server writes.
 * @param correlator Correlator settings (aggregation and spam filter) of the API server sink.
 * @param endpoint Settings of the "kubeevents" Actuator endpoint.
 */
@ConfigurationProperties(KubeEventsProperties.PREFIX)
public record KubeEventsProperties(@DefaultValue("true") boolean enabled, @Nullable String component,
		@Nullable String host, @DefaultValue("auto") SinkMode sink, @DefaultValue("true") boolean logEvents,
		@DefaultValue("10s") Duration shutdownTimeout, @DefaultValue("1MB") DataSize maxMessageSize,
		@DefaultValue Queue queue, @DefaultValue Retry retry, @DefaultValue Correlator correlator,
		@DefaultValue Endpoint endpoint) {

	/** The prefix of every property. */
	public static final String PREFIX = "kubeevents";

	/**
	 * Validates the properties.
	 * @throws IllegalArgumentException naming the first invalid property
	 */
	public KubeEventsProperties {
		require(component == null || !component.isBlank(),
				"kubeevents.component must not be blank, was '" + component + "'");
		require(sink != null, "kubeevents.sink must be set");
		require(shutdownTimeout != null && isPositive(shutdownTimeout),
				"kubeevents.shutdown-timeout must be positive, was " + shutdownTimeout);
		require(maxMessageSize != null && maxMessageSize.toBytes() >= 1
				&& maxMessageSize.toBytes() <= Integer.MAX_VALUE,
				"kubeevents.max-message-size must be between 1B and " + Integer.MAX_VALUE + "B, was " + maxMessageSize);
	}

	/**
	 * {@link #maxMessageSize()} in bytes, for {@code EventBroadcaster.Builder#maxMessageBytes(int)}.
	 * @return the limit, between 1 and {@link Integer#MAX_VALUE}
	 */
	public int maxMessageBytes() {
		return Math.toIntExact(this.maxMessageSize.toBytes());
	}

	static void require(boolean condition, String message) {
		if (!condition) {
			throw new IllegalArgumentException(message);
		}
	}

	static boolean isPositive(Duration duration) {
		return !duration.isNegative() && !duration.isZero();
	}

	/**
	 * Queue settings ({@code kubeevents.queue.*}).
	 *
	 * @param capacity Maximum number of events waiting to be distributed to the subscribers; when it is full, new
	 * events are dropped (queue_full).
	 * @param subscriberCapacity Maximum number of events waiting for each subscriber (the API server sink, the
	 * logger).
	 * @param fullPolicy What to do when a subscriber's queue is full: "drop" the event for that subscriber, or
	 * "wait" for room (which delays every subscriber).
	 */
	public record Queue(@DefaultValue("1000") int capacity, @DefaultValue("1000") int subscriberCapacity,
			@DefaultValue("drop") FullQueuePolicy fullPolicy) {

		/**
		 * Validates the queue settings.
		 * @throws IllegalArgumentException naming the first invalid property
		 */
		public Queue {
			require(capacity >= 1, "kubeevents.queue.capacity must be at least 1, was " + capacity);
			require(subscriberCapacity >= 1,
					"kubeevents.queue.subscriber-capacity must be at least 1, was " + subscriberCapacity);
			require(fullPolicy != null, "kubeevents.queue.full-policy must be set");
		}

		/**
		 * The subscriber options these settings describe.
		 * @return the options
		 */
		public SubscriberOptions toSubscriberOptions() {
			return new SubscriberOptions(this.subscriberCapacity, this.fullPolicy);
		}

	}

	/**
	 * Retry settings of API server writes ({@code kubeevents.retry.*}). Only transport failures are retried;
	 * an HTTP error status drops the event at once.
	 *
	 * @param maxAttempts Maximum number of attempts per event, including the first.
	 * @param sleep Delay between attempts; the first retry waits a random fraction of it.
	 */
	public record Retry(@DefaultValue("12") int maxAttempts, @DefaultValue("10s") Duration sleep) {

		/**
		 * Validates the retry settings.
		 * @throws IllegalArgumentException naming the first invalid property
		 */
		public Retry {
			require(maxAttempts >= 1, "kubeevents.retry.max-attempts must be at least 1, was " + maxAttempts);
			require(sleep != null && !sleep.isNegative(),
					"kubeevents.retry.sleep must be zero or positive, was " + sleep);
		}

		/**
		 * The retry policy these settings describe.
		 * @return the policy
		 */
		public RetryPolicy toPolicy() {
			return new RetryPolicy(this.maxAttempts, this.sleep);
		}

	}

	/**
	 * Correlator settings ({@code kubeevents.correlator.*}).
	 *
	 * @param cacheSize Maximum number of entries in each correlator cache (aggregator, observer, spam filter).
	 * @param spamFilter Spam filter settings.
	 * @param aggregation Aggregation settings.
	 */
	public record Correlator(@DefaultValue("4096") int cacheSize, @DefaultValue SpamFilter spamFilter,
			@DefaultValue Aggregation aggregation) {

		/**
		 * Validates the correlator settings.
		 * @throws IllegalArgumentException naming the first invalid property
		 */
		public Correlator {
			require(cacheSize >= 1, "kubeevents.correlator.cache-size must be at least 1, was " + cacheSize);
		}

		/**
		 * A correlator options builder preset with these settings (clock and key functions keep their defaults).
		 * @return a new builder
		 */
		public CorrelatorOptions.Builder toOptionsBuilder() {
			return CorrelatorOptions.builder()
				.lruCacheSize(this.cacheSize)
				.spamFilterEnabled(this.spamFilter.enabled())
				.burst(this.spamFilter.burst())
				.qps(this.spamFilter.qps())
				.spamKeyFunction(this.spamFilter.key().function())
				.aggregationEnabled(this.aggregation.enabled())
				.aggregateMaxEvents(this.aggregation.maxEvents())
				.aggregateInterval(this.aggregation.interval())
				.messagePrefix(this.aggregation.messagePrefix());
		}

	}

	/**
	 * Spam filter settings ({@code kubeevents.correlator.spam-filter.*}): a token bucket per key; an event that
	 * finds its bucket empty is dropped (spam_filtered).
	 *
	 * @param enabled Whether to apply the spam filter.
	 * @param burst Capacity of each token bucket, which is also its initial fill.
	 * @param qps Refill rate of each token bucket, in tokens per second.
	 * @param key What shares one token bucket: "object" (client-go's default: source, object and type) or
	 * "object-and-reason" (one bucket per reason too).
	 */
	public record SpamFilter(@DefaultValue("true") boolean enabled, @DefaultValue("25") int burst,
			@DefaultValue("0.0033333333333333335") double qps, @DefaultValue("object") SpamKey key) {

		/**
		 * Validates the spam filter settings.
		 * @throws IllegalArgumentException naming the first invalid property
		 */
		public SpamFilter {
			require(burst >= 1, "kubeevents.correlator.spam-filter.burst must be at least 1, was " + burst);
			require(qps > 0 && Double.isFinite(qps),
					"kubeevents.correlator.spam-filter.qps must be a positive finite number, was " + qps);
			require(key != null, "kubeevents.correlator.spam-filter.key must be set");
		}

	}

	/**
	 * Aggregation settings ({@code kubeevents.correlator.aggregation.*}): when an object gets too many events of
	 * one reason with distinct messages within the interval, they are folded into one event whose count grows.
	 *
	 * @param enabled Whether to aggregate similar events.
	 * @param maxEvents Number of distinct messages of similar events, within the interval, that starts
	 * aggregation.
	 * @param interval Sliding window within which similar events count towards aggregation.
	 * @param messagePrefix Prefix of the message of an aggregated event.
	 */
	public record Aggregation(@DefaultValue("true") boolean enabled, @DefaultValue("10") int maxEvents,
			@DefaultValue("600s") Duration interval,
			@DefaultValue("(combined from similar events): ") String messagePrefix) {

		/**
		 * Validates the aggregation settings.
		 * @throws IllegalArgumentException naming the first invalid property
		 */
		public Aggregation {
			require(maxEvents >= 2,
					"kubeevents.correlator.aggregation.max-events must be at least 2, was " + maxEvents);
			require(interval != null && isPositive(interval),
					"kubeevents.correlator.aggregation.interval must be positive, was " + interval);
			require(messagePrefix != null, "kubeevents.correlator.aggregation.message-prefix must be set");
		}

	}

	/**
	 * Settings of the {@code kubeevents} Actuator endpoint ({@code kubeevents.endpoint.*}).
	 *
	 * @param defaultLimit Maximum number of entries in each correlator list of the endpoint's answer when the
	 * request has no "limit" parameter.
	 */
	public record Endpoint(@DefaultValue("100") int defaultLimit) {

		/**
		 * Validates the endpoint settings.
		 * @throws IllegalArgumentException naming the property when the limit is negative
		 */
		public Endpoint {
			require(defaultLimit >= 0,
					"kubeevents.endpoint.default-limit must be zero or positive, was " + defaultLimit);
		}

	}

}
