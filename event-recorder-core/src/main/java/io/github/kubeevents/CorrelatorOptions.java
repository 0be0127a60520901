package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

import io.github.kubeevents.EventKeys.AggregateKey;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.jspecify.annotations.Nullable;

/**
 * Settings of an {@link EventCorrelator}, with client-go's defaults ({@code CorrelatorOptions}).
 *
 * <p>Unlike client-go, where 0 means "use the default" and nothing can be switched off, every value here is
 * explicit: invalid values are rejected, and aggregation and the spam filter each have an on/off switch.
 *
 * <p>Immutable and thread-safe (given thread-safe functions and clock). Build with {@link #builder()}.
 *
 * @param cacheSize entries per cache (aggregator, observer, spam filter); default 4096. The caches are Caffeine's
 * size-bounded caches (frequency-aware, near-LRU), not strict LRUs as in client-go
 * @param spamFilterEnabled whether the per-object token bucket is applied; default {@code true}
 * @param burst token bucket capacity, also its initial fill; default 25
 * @param qps token refill rate per second; default 1/300 (one token every 5 minutes)
 * @param spamKeyFunction the bucket key; default {@link EventKeys#SPAM_KEY}
 * ({@link EventKeys#spamKey(CoreV1Event)})
 * @param warningLane whether Warnings draw from a lane of buckets of their own; default {@code false} (client-go's
 * filter). With it on, each Warning takes its token from a bucket keyed by its spam key <em>and its reason</em>, with
 * {@code warningBurst} and {@code warningQps}; Normal events keep {@code spamKeyFunction}'s buckets. So no number of
 * Normal events, and no flood of Warnings of another reason, can drop a Warning its own budget lets through. Not in
 * client-go (whose default key separates the types since 1.32, but shares one budget across an object's reasons)
 * @param warningBurst capacity of each Warning-lane bucket; default the same as {@code burst}
 * @param warningQps refill rate of each Warning-lane bucket; default the same as {@code qps}
 * @param aggregationEnabled whether similar events are folded into one; default {@code true}
 * @param aggregateMaxEvents distinct messages within the window that trigger aggregation; default 10
 * @param aggregateInterval the sliding aggregation window; default 600 s
 * @param aggregateKeyFunction what makes events similar; default {@link EventKeys#AGGREGATE_BY_REASON}
 * ({@link EventKeys#aggregateByReason(CoreV1Event)})
 * @param messagePrefix prefix of an aggregate event's message; default {@value #DEFAULT_MESSAGE_PREFIX}
 * @param messageFunction the aggregate event's message; default {@code messagePrefix + latest message}
 * @param minUpdateInterval the least time between two writes of one core/v1 Event; default {@link Duration#ZERO}
 * (client-go: every repeat is a PATCH at once). When positive, repeats that come within the interval of the Event's
 * last write are held and coalesced: one PATCH carries their count and the latest occurrence's timestamp and
 * message, written when the interval ends, and at a stop or shutdown before the recorder ends (a PATCH that fails is
 * counted once per occurrence it carried). Only core/v1 sinks use it: events.k8s.io/v1 series already write at most
 * every 30 minutes
 * @param clock the time source for the window and the token bucket; {@code null} (the default) means the clock of
 * the broadcaster the correlator runs in ({@link Clock#systemUTC()} for a correlator built on its own)
 */
public record CorrelatorOptions(int cacheSize, boolean spamFilterEnabled, int burst, double qps,
		Function<CoreV1Event, String> spamKeyFunction, boolean warningLane, int warningBurst, double warningQps,
		boolean aggregationEnabled, int aggregateMaxEvents, Duration aggregateInterval,
		Function<CoreV1Event, AggregateKey> aggregateKeyFunction, String messagePrefix,
		Function<CoreV1Event, String> messageFunction, Duration minUpdateInterval, @Nullable Clock clock) {

	/** client-go's {@code maxLruCacheEntries}. */
	public static final int DEFAULT_CACHE_SIZE = 4096;

	/** client-go's {@code defaultSpamBurst}. */
	public static final int DEFAULT_BURST = 25;

	/** client-go's {@code defaultSpamQPS}: one token every 300 s. */
	public static final double DEFAULT_QPS = 1.0 / 300.0;

	/** client-go's {@code defaultAggregateMaxEvents}. */
	public static final int DEFAULT_AGGREGATE_MAX_EVENTS = 10;

	/** client-go's {@code defaultAggregateIntervalInSeconds}. */
	public static final Duration DEFAULT_AGGREGATE_INTERVAL = Duration.ofSeconds(600);

	/** The prefix of {@code EventAggregatorByReasonMessageFunc}. */
	public static final String DEFAULT_MESSAGE_PREFIX = "(combined from similar events): ";

	/**
	 * Validates the options.
	 * @throws IllegalArgumentException naming the first invalid option
	 */
	public CorrelatorOptions {
		require(cacheSize >= 1, "cacheSize must be at least 1, was " + cacheSize);
		require(burst >= 1, "burst must be at least 1, was " + burst);
		require(qps > 0 && Double.isFinite(qps), "qps must be a positive finite number, was " + qps);
		require(warningBurst >= 1, "warningBurst must be at least 1, was " + warningBurst);
		require(warningQps > 0 && Double.isFinite(warningQps),
				"warningQps must be a positive finite number, was " + warningQps);
		require(minUpdateInterval != null && !minUpdateInterval.isNegative(),
				"minUpdateInterval must be zero or positive, was " + minUpdateInterval);
		require(aggregateMaxEvents >= 2, "aggregateMaxEvents must be at least 2, was " + aggregateMaxEvents);
		require(aggregateInterval != null && !aggregateInterval.isNegative() && !aggregateInterval.isZero(),
				"aggregateInterval must be positive, was " + aggregateInterval);
		Objects.requireNonNull(spamKeyFunction, "spamKeyFunction");
		Objects.requireNonNull(aggregateKeyFunction, "aggregateKeyFunction");
		Objects.requireNonNull(messagePrefix, "messagePrefix");
		if (messageFunction == null) {
			String prefix = messagePrefix;
			messageFunction = (event) -> prefix + ((event.getMessage() != null) ? event.getMessage() : "");
		}
	}

	/**
	 * client-go's defaults.
	 * @return the default options
	 */
	public static CorrelatorOptions defaults() {
		return builder().build();
	}

	/**
	 * A builder preset with client-go's defaults.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * These options with {@code clock} when none was set.
	 * @param fallback the clock to use when {@link #clock()} is {@code null}
	 * @return these options, or a copy with the clock
	 */
	public CorrelatorOptions withDefaultClock(Clock fallback) {
		return (this.clock != null) ? this : toBuilder().clock(fallback).build();
	}

	/**
	 * A builder preset with these options.
	 * @return a new builder
	 */
	public Builder toBuilder() {
		Builder builder = new Builder();
		builder.cacheSize = this.cacheSize;
		builder.spamFilterEnabled = this.spamFilterEnabled;
		builder.burst = this.burst;
		builder.qps = this.qps;
		builder.spamKeyFunction = this.spamKeyFunction;
		builder.warningLane = this.warningLane;
		// a lane value equal to the filter's stays "the same as the filter's", so it follows a later burst or qps
		builder.warningBurst = (this.warningBurst != this.burst) ? this.warningBurst : null;
		builder.warningQps = (this.warningQps != this.qps) ? this.warningQps : null;
		builder.aggregationEnabled = this.aggregationEnabled;
		builder.aggregateMaxEvents = this.aggregateMaxEvents;
		builder.aggregateInterval = this.aggregateInterval;
		builder.aggregateKeyFunction = this.aggregateKeyFunction;
		builder.messagePrefix = this.messagePrefix;
		builder.messageFunction = this.messageFunction;
		builder.minUpdateInterval = this.minUpdateInterval;
		builder.clock = this.clock;
		return builder;
	}

	private static void require(boolean condition, String message) {
		if (!condition) {
			throw new IllegalArgumentException(message);
		}
	}

	/** Builder of {@link CorrelatorOptions}; not thread-safe. */
	public static final class Builder {

		private int cacheSize = DEFAULT_CACHE_SIZE;

		private boolean spamFilterEnabled = true;

		private int burst = DEFAULT_BURST;

		private double qps = DEFAULT_QPS;

		private Function<CoreV1Event, String> spamKeyFunction = EventKeys.SPAM_KEY;

		private boolean warningLane;

		private @Nullable Integer warningBurst;

		private @Nullable Double warningQps;

		private boolean aggregationEnabled = true;

		private int aggregateMaxEvents = DEFAULT_AGGREGATE_MAX_EVENTS;

		private Duration aggregateInterval = DEFAULT_AGGREGATE_INTERVAL;

		private Function<CoreV1Event, AggregateKey> aggregateKeyFunction = EventKeys.AGGREGATE_BY_REASON;

		private String messagePrefix = DEFAULT_MESSAGE_PREFIX;

		private Function<CoreV1Event, String> messageFunction;

		private Duration minUpdateInterval = Duration.ZERO;

		private @Nullable Clock clock;

		private Builder() {
		}

		/** Sets the entries per cache (aggregator, observer, spam filter; default 4096); returns this builder. */
		public Builder cacheSize(int size) {
			this.cacheSize = size;
			return this;
		}

		/** Sets whether the spam filter applies (default true); returns this builder. */
		public Builder spamFilterEnabled(boolean enabled) {
			this.spamFilterEnabled = enabled;
			return this;
		}

		/** Sets the token bucket capacity, also its initial fill (default 25); returns this builder. */
		public Builder burst(int burst) {
			this.burst = burst;
			return this;
		}

		/** Sets the token refill rate, in tokens per second (default 1/300); returns this builder. */
		public Builder qps(double qps) {
			this.qps = qps;
			return this;
		}

		/**
		 * Sets what shares one token bucket: the spam key (default {@link EventKeys#SPAM_KEY}); returns this builder.
		 */
		public Builder spamKeyFunction(Function<CoreV1Event, String> function) {
			this.spamKeyFunction = function;
			return this;
		}

		/**
		 * Sets whether Warnings draw from a lane of buckets of their own, one per spam key and reason (default false:
		 * client-go's filter); returns this builder.
		 */
		public Builder warningLane(boolean enabled) {
			this.warningLane = enabled;
			return this;
		}

		/**
		 * Sets the capacity of each Warning-lane bucket, also its initial fill: {@code null} (default) for the same as
		 * {@link #burst(int)}; returns this builder.
		 */
		public Builder warningBurst(@Nullable Integer burst) {
			this.warningBurst = burst;
			return this;
		}

		/**
		 * Sets the refill rate of each Warning-lane bucket, in tokens per second: {@code null} (default) for the same
		 * as {@link #qps(double)}; returns this builder.
		 */
		public Builder warningQps(@Nullable Double qps) {
			this.warningQps = qps;
			return this;
		}

		/** Sets whether similar events are aggregated (default true); returns this builder. */
		public Builder aggregationEnabled(boolean enabled) {
			this.aggregationEnabled = enabled;
			return this;
		}

		/** Sets how many distinct messages within the window trigger aggregation (default 10); returns this builder. */
		public Builder aggregateMaxEvents(int maxEvents) {
			this.aggregateMaxEvents = maxEvents;
			return this;
		}

		/** Sets the sliding aggregation window (default 600 s); returns this builder. */
		public Builder aggregateInterval(Duration interval) {
			this.aggregateInterval = interval;
			return this;
		}

		/**
		 * Sets what makes events similar: the aggregate key (default {@link EventKeys#AGGREGATE_BY_REASON}); returns
		 * this builder.
		 */
		public Builder aggregateKeyFunction(Function<CoreV1Event, AggregateKey> function) {
			this.aggregateKeyFunction = function;
			return this;
		}

		/**
		 * Sets the prefix of an aggregate event's message (default {@value CorrelatorOptions#DEFAULT_MESSAGE_PREFIX});
		 * returns this builder.
		 */
		public Builder messagePrefix(String prefix) {
			this.messagePrefix = prefix;
			return this;
		}

		/**
		 * Sets the aggregate event's message: {@code null} (default) for the prefix plus the latest message; returns
		 * this builder.
		 */
		public Builder messageFunction(Function<CoreV1Event, String> function) {
			this.messageFunction = function;
			return this;
		}

		/**
		 * Sets the least time between two writes of one core/v1 Event; repeats within it are coalesced into one PATCH
		 * (default {@link Duration#ZERO}: every repeat is written at once). Returns this builder.
		 */
		public Builder minUpdateInterval(Duration interval) {
			this.minUpdateInterval = interval;
			return this;
		}

		/**
		 * Sets the time source of the window and the token buckets: {@code null} (default) for the broadcaster's clock;
		 * returns this builder.
		 */
		public Builder clock(@Nullable Clock clock) {
			this.clock = clock;
			return this;
		}

		/**
		 * Builds the options.
		 * @return the options
		 * @throws IllegalArgumentException naming the first invalid option
		 */
		public CorrelatorOptions build() {
			return new CorrelatorOptions(this.cacheSize, this.spamFilterEnabled, this.burst, this.qps,
					this.spamKeyFunction, this.warningLane, (this.warningBurst != null) ? this.warningBurst : this.burst,
					(this.warningQps != null) ? this.warningQps : this.qps, this.aggregationEnabled,
					this.aggregateMaxEvents, this.aggregateInterval, this.aggregateKeyFunction, this.messagePrefix,
					this.messageFunction, this.minUpdateInterval, this.clock);
		}

	}

}
