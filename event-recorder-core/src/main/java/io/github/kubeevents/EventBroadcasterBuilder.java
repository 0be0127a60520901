package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

import io.github.kubeevents.correlator.CorrelatorOptions;
import io.github.kubeevents.sink.CoreV1EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.SinkRequestListener;
import io.github.kubeevents.sink.Sleeper;
import org.jspecify.annotations.Nullable;

/**
 * Builder of {@link EventBroadcaster}, preset with client-go's defaults. Get one with
 * {@link EventBroadcaster#builder()}.
 *
 * <p>Not thread-safe.
 */
public final class EventBroadcasterBuilder {

	int incomingQueueCapacity = 1000;

	SubscriberOptions subscriberOptions = SubscriberOptions.defaults();

	CorrelatorOptions correlatorOptions = CorrelatorOptions.defaults();

	RetryPolicy retryPolicy = RetryPolicy.defaults();

	Clock clock = Clock.systemUTC();

	@Nullable Sleeper sleeper;

	DoubleSupplier jitter = () -> ThreadLocalRandom.current().nextDouble();

	int maxMessageBytes = 1024 * 1024;

	Duration shutdownTimeout = Duration.ofSeconds(10);

	Duration dropSummaryInterval = EventCounters.DEFAULT_SUMMARY_INTERVAL;

	SinkRequestListener requestListener = SinkRequestListener.NONE;

	int sinkWriters = 4;

	int writerQueueCapacity = 1000;

	double writeBudgetQps;

	int writeBudgetBurst;

	EventsApi eventsApi = EventsApi.AUTO;

	Duration requestTimeout = CoreV1EventSink.DEFAULT_REQUEST_TIMEOUT;

	int seriesCacheSize = 4096;

	CorrelatorOptions eventsV1CorrelatorOptions = CorrelatorOptions.builder()
		.aggregationEnabled(false)
		.spamFilterEnabled(false)
		.build();

	EventBroadcasterBuilder() {
	}

	/**
	 * Sets the incoming queue's capacity; when it is full, new events are dropped ({@code queue_full}).
	 * @param capacity the capacity (default 1000, client-go's {@code maxQueuedEvents})
	 * @return this builder
	 */
	public EventBroadcasterBuilder incomingQueueCapacity(int capacity) {
		if (capacity < 1) {
			throw new IllegalArgumentException("incoming queue capacity must be at least 1, was " + capacity);
		}
		this.incomingQueueCapacity = capacity;
		return this;
	}

	/**
	 * Sets the default queue options of subscribers and sinks.
	 * @param options the options (default 1000 events, drop when full)
	 * @return this builder
	 */
	public EventBroadcasterBuilder subscriberOptions(SubscriberOptions options) {
		this.subscriberOptions = Objects.requireNonNull(options, "subscriberOptions");
		return this;
	}

	/**
	 * Sets the options of each core/v1 sink's correlator.
	 * @param options the options (default client-go's; their clock, when unset, is this builder's)
	 * @return this builder
	 */
	public EventBroadcasterBuilder correlatorOptions(CorrelatorOptions options) {
		this.correlatorOptions = Objects.requireNonNull(options, "correlatorOptions");
		return this;
	}

	/**
	 * Sets how writes failing with transport errors are retried.
	 * @param policy attempts and delay (default 12 attempts, 10 s)
	 * @return this builder
	 */
	public EventBroadcasterBuilder retryPolicy(RetryPolicy policy) {
		this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
		return this;
	}

	/**
	 * Sets the one clock of the recorder: event timestamps and names, the correlator's window and token buckets
	 * (unless its options set another), the pacing of drop summaries.
	 * @param clock the clock (default {@link Clock#systemUTC()})
	 * @return this builder
	 */
	public EventBroadcasterBuilder clock(Clock clock) {
		this.clock = Objects.requireNonNull(clock, "clock");
		return this;
	}

	/**
	 * Sets what waits between retries.
	 * @param sleeper the sleeper (default a real sleeper that shutdown wakes up)
	 * @return this builder
	 */
	public EventBroadcasterBuilder sleeper(Sleeper sleeper) {
		this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
		return this;
	}

	/**
	 * Sets the source of uniform random numbers in [0, 1) for the retry jitter.
	 * @param jitter the source (default {@link ThreadLocalRandom})
	 * @return this builder
	 */
	public EventBroadcasterBuilder jitter(DoubleSupplier jitter) {
		this.jitter = Objects.requireNonNull(jitter, "jitter");
		return this;
	}

	/**
	 * Sets the largest message accepted, in UTF-8 bytes; longer messages are dropped as invalid input
	 * (client-go has no limit for core/v1; the API server and etcd refuse objects over about 1.5 MiB).
	 * @param maxMessageBytes the limit (default 1 MiB)
	 * @return this builder
	 */
	public EventBroadcasterBuilder maxMessageBytes(int maxMessageBytes) {
		if (maxMessageBytes < 1) {
			throw new IllegalArgumentException("maxMessageBytes must be at least 1, was " + maxMessageBytes);
		}
		this.maxMessageBytes = maxMessageBytes;
		return this;
	}

	/**
	 * Sets the deadline of {@link EventBroadcaster#shutdown()} and {@link EventBroadcaster#close()}.
	 * @param timeout the deadline (default 10 s)
	 * @return this builder
	 */
	public EventBroadcasterBuilder shutdownTimeout(Duration timeout) {
		Objects.requireNonNull(timeout, "shutdownTimeout");
		if (timeout.isNegative()) {
			throw new IllegalArgumentException("shutdownTimeout must not be negative, was " + timeout);
		}
		this.shutdownTimeout = timeout;
		return this;
	}

	/**
	 * Sets the shortest time between two WARN summaries of one flood-prone drop reason.
	 * @param interval the interval (default 10 s)
	 * @return this builder
	 */
	public EventBroadcasterBuilder dropSummaryInterval(Duration interval) {
		Objects.requireNonNull(interval, "dropSummaryInterval");
		if (interval.isNegative()) {
			throw new IllegalArgumentException("dropSummaryInterval must not be negative, was " + interval);
		}
		this.dropSummaryInterval = interval;
		return this;
	}

	/**
	 * Sets the listener told about every request of the sinks (for latency metrics).
	 * @param listener the listener (default none)
	 * @return this builder
	 */
	public EventBroadcasterBuilder requestListener(SinkRequestListener listener) {
		this.requestListener = Objects.requireNonNull(listener, "requestListener");
		return this;
	}

	/**
	 * Sets how many threads write each sink's events. Writes are sharded by involved object, so one object's
	 * writes stay in order (a PATCH never overtakes its CREATE) while different objects are written in parallel;
	 * each thread has a queue of {@link #writerQueueCapacity(int)}.
	 *
	 * <p>Differs from client-go deliberately: client-go writes every event from one goroutine, in recording
	 * order. A write mostly waits for the API server (about 85% of its time measured against a local
	 * kube-apiserver), so four writers drain a burst of events about as fast as client-go's lighter client or
	 * faster; use {@code 1} for client-go's single global write order.
	 * @param writers the number of threads, 1 to 64 (default 4)
	 * @return this builder
	 */
	public EventBroadcasterBuilder sinkWriters(int writers) {
		if (writers < 1 || writers > 64) {
			throw new IllegalArgumentException("sinkWriters must be between 1 and 64, was " + writers);
		}
		this.sinkWriters = writers;
		return this;
	}

	/**
	 * Sets the capacity of each sink writer thread's queue; when it is full, the write is dropped
	 * ({@code queue_full}). A sink's events wait in its subscriber queue, then in one writer queue, so a snapshot
	 * shows a sink's capacity as the subscriber capacity plus {@code sinkWriters} times this one.
	 * @param capacity the capacity of each writer's queue (default 1000, client-go's {@code maxQueuedEvents})
	 * @return this builder
	 */
	public EventBroadcasterBuilder writerQueueCapacity(int capacity) {
		if (capacity < 1) {
			throw new IllegalArgumentException("writer queue capacity must be at least 1, was " + capacity);
		}
		this.writerQueueCapacity = capacity;
		return this;
	}

	/**
	 * Limits the API server requests of all sinks together, like client-go's clientset rate limiter (5 QPS, burst
	 * 10 by default there; the official Java client has none). Writers wait for a token before each request;
	 * while they wait, events queue up and a full queue drops as usual ({@code queue_full}).
	 * @param qps requests per second, sustained
	 * @param burst requests that may be made at once after a quiet period
	 * @return this builder (default: no limit)
	 */
	public EventBroadcasterBuilder writeBudget(double qps, int burst) {
		if (!(qps > 0) || Double.isInfinite(qps) || burst < 1) {
			throw new IllegalArgumentException("write budget needs qps > 0 and burst >= 1, was " + qps + "/" + burst);
		}
		this.writeBudgetQps = qps;
		this.writeBudgetBurst = burst;
		return this;
	}

	/**
	 * Sets the events API of {@link EventBroadcaster#startRecordingTo(io.kubernetes.client.openapi.ApiClient)}.
	 * @param api {@link EventsApi#AUTO} (default: events.k8s.io/v1 when the server serves it, else core/v1),
	 * {@link EventsApi#EVENTS_V1} or {@link EventsApi#CORE_V1}
	 * @return this builder
	 */
	public EventBroadcasterBuilder eventsApi(EventsApi api) {
		this.eventsApi = Objects.requireNonNull(api, "eventsApi");
		return this;
	}

	/**
	 * Sets the time limit of one request of the sinks built by
	 * {@link EventBroadcaster#startRecordingTo(io.kubernetes.client.openapi.ApiClient)}.
	 * @param timeout the limit (default 5 s); {@link Duration#ZERO} for none
	 * @return this builder
	 */
	public EventBroadcasterBuilder requestTimeout(Duration timeout) {
		Objects.requireNonNull(timeout, "requestTimeout");
		if (timeout.isNegative()) {
			throw new IllegalArgumentException("requestTimeout must not be negative, was " + timeout);
		}
		this.requestTimeout = timeout;
		return this;
	}

	/**
	 * Sets how many Events an events.k8s.io/v1 sink remembers for its series (client-go's cache is unbounded).
	 * When full, the least recently seen one is forgotten after its final count is written.
	 * @param size the bound (default 4096)
	 * @return this builder
	 */
	public EventBroadcasterBuilder seriesCacheSize(int size) {
		if (size < 1) {
			throw new IllegalArgumentException("seriesCacheSize must be at least 1, was " + size);
		}
		this.seriesCacheSize = size;
		return this;
	}

	/**
	 * Sets the correlation of events.k8s.io/v1 sinks: series are always on; aggregation and the spam filter only
	 * when these options enable them.
	 * @param options the options (default: aggregation and spam filter off, as in client-go's
	 * {@code tools/events}; their clock, when unset, is this builder's)
	 * @return this builder
	 */
	public EventBroadcasterBuilder eventsV1CorrelatorOptions(CorrelatorOptions options) {
		this.eventsV1CorrelatorOptions = Objects.requireNonNull(options, "eventsV1CorrelatorOptions");
		return this;
	}

	/**
	 * Builds the broadcaster. No thread runs until {@link EventBroadcaster#start()}.
	 * @return the broadcaster
	 */
	public EventBroadcaster build() {
		return new EventBroadcaster(this);
	}


}
