package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.LastRejection;
import io.github.kubeevents.introspect.ObjectRef;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.SinkStats;
import io.github.kubeevents.introspect.WriteBudgetSnapshot;
import io.github.kubeevents.sink.ApiChoice;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.Sleeper;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Distributes recorded events to sinks and other subscribers: client-go's {@code record.EventBroadcaster}.
 *
 * <ul>
 * <li>{@link #newRecorder(EventSource)} gives a recorder for one component. Recording never blocks: events go into
 * a bounded incoming queue (default 1000) or are dropped and counted ({@code queue_full}; after shutdown
 * {@code shutdown}).</li>
 * <li>One distribution thread ({@code kubeevents-broadcaster}) hands each event to every subscriber's own
 * bounded queue (default 1000), in order; a subscriber whose queue is full misses the event (counted), or the
 * thread waits, per {@link FullQueuePolicy}. Each subscriber runs on its own daemon thread
 * ({@code kubeevents-subscriber-<name>}). A new subscriber sees exactly the events recorded after it subscribed;
 * subscribers added before {@link #start()} also get those recorded before the start.</li>
 * <li>{@link #startRecordingToSink(EventSink)} subscribes a sink with a correlator of its own;
 * {@link #startLogging()} subscribes the structured logger; {@link #subscribe} any {@link EventHandler}.</li>
 * <li>{@link #shutdown(Duration)} stops accepting events, distributes what was queued, gives each pending sink
 * write one more attempt, and waits for every thread until the deadline. Past it, requests in flight are
 * cancelled and what is left is counted as {@code shutdown} drops. The last log line gives every counter.</li>
 * </ul>
 *
 * <p>No thread runs before {@link #start()}. One clock (the builder's) drives timestamps, names, the
 * correlator's windows and buckets, and the pacing of drop summaries, unless the correlator options set their
 * own.
 *
 * <p>Thread-safe. Build with {@link #builder()}.
 */
public final class EventBroadcaster implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(EventBroadcaster.class);

	private final Clock clock;

	private final SubscriberOptions subscriberOptions;

	private final SinkSettings sinkSettings;

	private final SinkFactory sinkFactory;

	private final int maxMessageBytes;

	private final Duration shutdownTimeout;

	private final EventCounters counters;

	private final Fanout fanout;

	private volatile boolean drained;

	EventBroadcaster(EventBroadcasterBuilder builder) {
		this.clock = builder.clock;
		this.subscriberOptions = builder.subscriberOptions;
		this.sinkSettings = new SinkSettings(builder.retryPolicy,
				(builder.sleeper != null) ? builder.sleeper : Sleeper.cancellable(), builder.jitter,
				builder.requestListener, builder.sinkWriters, builder.subscriberOptions.queueCapacity(),
				(builder.writeBudgetQps > 0) ? new WriteBudget(builder.writeBudgetQps, builder.writeBudgetBurst,
						builder.clock) : null);
		this.maxMessageBytes = builder.maxMessageBytes;
		this.shutdownTimeout = builder.shutdownTimeout;
		this.counters = new EventCounters(builder.clock, builder.dropSummaryInterval);
		this.fanout = new Fanout(builder.incomingQueueCapacity, this.counters);
		this.sinkFactory = new SinkFactory(builder, this.sinkSettings, this.counters);
	}

	/**
	 * A builder with client-go's defaults.
	 * @return a new builder
	 */
	public static EventBroadcasterBuilder builder() {
		return new EventBroadcasterBuilder();
	}

	/**
	 * A recorder for one component. Recorders are cheap; they share this broadcaster's queue and subscribers.
	 * @param source the component and host written into every event
	 * @return the recorder
	 */
	public EventRecorder newRecorder(EventSource source) {
		return new BroadcastingEventRecorder(this, Objects.requireNonNull(source, "source"), this.clock,
				this.maxMessageBytes, this.counters);
	}

	boolean publish(RecordedEvent event) {
		return this.fanout.publish(event);
	}

	/**
	 * Subscribes a handler with the default subscriber options.
	 * @param name the subscriber's name (thread {@code kubeevents-subscriber-<name>})
	 * @param handler the handler
	 * @return the subscription; inactive when the broadcaster has shut down
	 */
	public Subscription subscribe(String name, EventHandler handler) {
		return subscribe(name, handler, this.subscriberOptions);
	}

	/**
	 * Subscribes a handler. It receives exactly the events recorded after this call returns (or, before
	 * {@link #start()}, everything recorded so far).
	 * @param name the subscriber's name
	 * @param handler the handler
	 * @param options its queue capacity and full-queue policy
	 * @return the subscription; inactive (and an ERROR logged) when the broadcaster has shut down
	 */
	public Subscription subscribe(String name, EventHandler handler, SubscriberOptions options) {
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

	/**
	 * Subscribes a core/v1 sink, with a new {@link EventCorrelator} of its own (two sinks never share caches).
	 * @param sink where to write events
	 * @return the subscription
	 */
	public Subscription startRecordingToSink(EventSink sink) {
		return subscribeSink(this.sinkFactory.coreV1(sink, new ApiChoice(EventsApi.CORE_V1, "configured")));
	}

	/**
	 * Subscribes an events.k8s.io/v1 sink, with a series cache of its own (bounded by the builder's
	 * {@code seriesCacheSize}) and, when the builder's events.k8s.io/v1 correlator options enable them,
	 * aggregation and the spam filter (off by default, as in client-go's {@code tools/events}).
	 * @param sink where to write events
	 * @return the subscription
	 */
	public Subscription startRecordingToSink(EventsV1Sink sink) {
		return subscribeSink(this.sinkFactory.eventsV1(sink, new ApiChoice(EventsApi.EVENTS_V1, "configured")));
	}

	/**
	 * Subscribes a sink writing through {@code client} with the builder's events API: for
	 * {@link EventsApi#AUTO} (the default) one discovery request decides between events.k8s.io/v1 (when served)
	 * and core/v1, as client-go's {@code NewEventBroadcasterAdapter} does. The choice and why are logged once and
	 * shown in {@link #snapshot(int)}.
	 * @param client the client of the cluster to write to
	 * @return the subscription
	 */
	public Subscription startRecordingTo(ApiClient client) {
		return subscribeSink(this.sinkFactory.forClient(client));
	}

	private Subscription subscribeSink(SinkFactory.Named sink) {
		return subscribe(sink.name(), sink.recording());
	}

	/**
	 * Subscribes the structured event logger ({@link EventLoggingHandler}).
	 * @return the subscription
	 */
	public Subscription startLogging() {
		return subscribe("logging", new EventLoggingHandler());
	}

	/**
	 * Starts distribution and every subscriber added so far. Idempotent; does nothing after shutdown.
	 */
	public void start() {
		this.fanout.start();
	}

	/**
	 * Whether events are being distributed.
	 * @return {@code true} between {@link #start()} and {@link #shutdown(Duration)}
	 */
	public boolean isRunning() {
		return this.fanout.state() == BroadcasterState.RUNNING;
	}

	/**
	 * Whether {@link #shutdown(Duration)} was called.
	 * @return {@code true} once shutdown began
	 */
	public boolean isShutdown() {
		BroadcasterState state = this.fanout.state();
		return state == BroadcasterState.DRAINING || state == BroadcasterState.TERMINATED;
	}

	/**
	 * Shuts down: no more events are accepted; what was queued is distributed; subscribers finish their queues
	 * (each pending sink write gets one attempt, retry sleeps end); all threads end. If the deadline passes first,
	 * requests in flight are cancelled, the threads are interrupted and every event still queued is counted as a
	 * {@code shutdown} drop; that takes at most about one second more. Only the first call waits: later calls
	 * return at once.
	 * @param timeout how long to wait for the drain
	 * @return {@code true} when everything was drained and every thread ended within the deadline
	 */
	public boolean shutdown(Duration timeout) {
		if (!this.fanout.beginShutdown()) {
			return this.drained;
		}
		boolean clean = this.fanout.drain(timeout, this.sinkSettings::cancel);
		this.drained = clean;
		SinkStats stats = sinkStats();
		this.counters.finalSummary("created " + stats.created() + ", patched " + stats.patched());
		return clean;
	}

	/**
	 * {@link #shutdown(Duration)} with the builder's shutdown timeout (default 10 s).
	 * @return {@code true} when everything was drained in time
	 */
	public boolean shutdown() {
		return shutdown(this.shutdownTimeout);
	}

	/**
	 * {@link #shutdown()}; returns at once when shutdown already happened.
	 */
	@Override
	public void close() {
		shutdown();
	}

	/**
	 * Events waiting in the incoming queue (cheap; for gauges).
	 * @return the depth
	 */
	public int queueDepth() {
		return this.fanout.depth();
	}

	/**
	 * The incoming queue's capacity.
	 * @return the capacity
	 */
	public int queueCapacity() {
		return this.fanout.capacity();
	}

	/**
	 * Events accepted into the incoming queue so far (cheap; for counters).
	 * @return the count
	 */
	public long acceptedCount() {
		return this.counters.acceptedCount();
	}

	/**
	 * Events dropped so far for one reason (cheap; for counters).
	 * @param reason the reason
	 * @return the count
	 */
	public long droppedCount(DropReason reason) {
		return this.counters.dropped(reason);
	}

	/**
	 * Every drop count, keyed by {@link DropReason#tag()}, every reason present.
	 * @return an unmodifiable map in {@link DropReason} order
	 */
	public Map<String, Long> droppedByReason() {
		return java.util.Collections.unmodifiableMap(this.counters.droppedByReason());
	}

	/**
	 * The latest event the API server refused, for health checks (cheap).
	 * @return the rejection, or {@code null} when none so far
	 */
	public @Nullable LastRejection lastRejection() {
		return this.counters.lastRejection();
	}

	/**
	 * The counters of every sink started on this broadcaster, summed (cheap; for counters).
	 * @return the totals
	 */
	public SinkStats sinkStats() {
		return this.sinkFactory.stats();
	}

	/**
	 * The write budget's counters (cheap; for meters).
	 * @return the budget, or {@code null} when none is set
	 */
	public @Nullable WriteBudgetSnapshot writeBudget() {
		return Snapshots.budget(this.sinkSettings.budget());
	}

	/**
	 * Events whose events.k8s.io/v1 note was cut to the API server's limit of 1024 bytes (cheap; for counters).
	 * @return the count
	 */
	public long truncatedNotes() {
		return this.counters.truncatedCount();
	}

	/**
	 * The active subscribers' queues (cheap; for gauges).
	 * @return one entry per active subscriber
	 */
	public List<RecorderSnapshot.SubscriberSnapshot> subscriberSnapshots() {
		return Snapshots.subscribers(this.fanout);
	}

	/**
	 * A read-only view of queues, counters, sinks and their correlation state.
	 * @param limit the maximum number of entries in each list of cache entries
	 * @return the snapshot
	 */
	public RecorderSnapshot snapshot(int limit) {
		return snapshot(limit, (object) -> true);
	}

	/**
	 * A read-only view restricted to the cache entries about some objects (for "what does the recorder know about
	 * {@code ns/name}?").
	 * @param limit the maximum number of entries in each list of cache entries
	 * @param filter which objects' entries to include
	 * @return the snapshot; cache sizes are always the full sizes
	 */
	public RecorderSnapshot snapshot(int limit, Predicate<ObjectRef> filter) {
		return Snapshots.recorder(this.clock.instant(), this.fanout, this.counters, this.sinkSettings.budget(), limit,
				filter);
	}

}
