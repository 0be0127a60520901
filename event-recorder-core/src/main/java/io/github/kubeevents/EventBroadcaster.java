package io.github.kubeevents;

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
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

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

	private final BroadcasterParts parts;

	private volatile boolean drained;

	EventBroadcaster(EventBroadcasterBuilder builder) {
		this.parts = BroadcasterParts.of(builder);
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
		return new BroadcastingEventRecorder(this, Objects.requireNonNull(source, "source"), this.parts.clock(),
				this.parts.maxMessageBytes(), this.parts.counters());
	}

	boolean publish(RecordedEvent event) {
		return this.parts.fanout().publish(event);
	}

	/**
	 * Subscribes a handler with the default subscriber options.
	 * @param name the subscriber's name (thread {@code kubeevents-subscriber-<name>})
	 * @param handler the handler
	 * @return the subscription; inactive when the broadcaster has shut down
	 */
	public Subscription subscribe(String name, EventHandler handler) {
		return this.parts.subscriptions().subscribe(name, handler);
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
		return this.parts.subscriptions().subscribe(name, handler, options);
	}

	/**
	 * Subscribes a core/v1 sink, with a new {@link io.github.kubeevents.EventCorrelator} of its own (two sinks never share caches).
	 * @param sink where to write events
	 * @return the subscription
	 */
	public Subscription startRecordingToSink(EventSink sink) {
		return this.parts.subscriptions().coreV1(sink);
	}

	/**
	 * Subscribes an events.k8s.io/v1 sink, with a series cache of its own (bounded by the builder's
	 * {@code seriesCacheSize}) and, when the builder's events.k8s.io/v1 correlator options enable them,
	 * aggregation and the spam filter (off by default, as in client-go's {@code tools/events}).
	 * @param sink where to write events
	 * @return the subscription
	 */
	public Subscription startRecordingToSink(EventsV1Sink sink) {
		return this.parts.subscriptions().eventsV1(sink);
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
		return this.parts.subscriptions().forClient(client);
	}

	/**
	 * Subscribes the structured event logger ({@link EventLoggingHandler}).
	 * @return the subscription
	 */
	public Subscription startLogging() {
		return this.parts.subscriptions().subscribe("logging", new EventLoggingHandler());
	}

	/**
	 * Starts distribution and every subscriber added so far. Idempotent; does nothing after shutdown.
	 */
	public void start() {
		this.parts.fanout().start();
	}

	/**
	 * Whether events are being distributed.
	 * @return {@code true} between {@link #start()} and {@link #shutdown(Duration)}
	 */
	public boolean isRunning() {
		return this.parts.fanout().state() == BroadcasterState.RUNNING;
	}

	/**
	 * Whether {@link #shutdown(Duration)} was called.
	 * @return {@code true} once shutdown began
	 */
	public boolean isShutdown() {
		return this.parts.fanout().state().isShutdown();
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
		if (!this.parts.fanout().beginShutdown()) {
			return this.drained;
		}
		boolean clean = this.parts.fanout().drain(timeout, this.parts.sinkSettings()::cancel);
		this.drained = clean;
		SinkStats stats = sinkStats();
		this.parts.counters().finalSummary("created " + stats.created() + ", patched " + stats.patched());
		return clean;
	}

	/**
	 * {@link #shutdown(Duration)} with the builder's shutdown timeout (default 10 s).
	 * @return {@code true} when everything was drained in time
	 */
	public boolean shutdown() {
		return shutdown(this.parts.shutdownTimeout());
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
		return this.parts.fanout().depth();
	}

	/**
	 * The incoming queue's capacity.
	 * @return the capacity
	 */
	public int queueCapacity() {
		return this.parts.fanout().capacity();
	}

	/**
	 * Events accepted into the incoming queue so far (cheap; for counters).
	 * @return the count
	 */
	public long acceptedCount() {
		return this.parts.counters().acceptedCount();
	}

	/**
	 * Events dropped so far for one reason (cheap; for counters).
	 * @param reason the reason
	 * @return the count
	 */
	public long droppedCount(DropReason reason) {
		return this.parts.counters().dropped(reason);
	}

	/**
	 * Every drop count, keyed by {@link DropReason#tag()}, every reason present.
	 * @return an unmodifiable map in {@link DropReason} order
	 */
	public Map<String, Long> droppedByReason() {
		return java.util.Collections.unmodifiableMap(this.parts.counters().droppedByReason());
	}

	/**
	 * The latest event the API server refused, for health checks (cheap).
	 * @return the rejection, or {@code null} when none so far
	 */
	public @Nullable LastRejection lastRejection() {
		return this.parts.counters().lastRejection();
	}

	/**
	 * The counters of every sink started on this broadcaster, summed (cheap; for counters).
	 * @return the totals
	 */
	public SinkStats sinkStats() {
		return this.parts.subscriptions().sinkStats();
	}

	/**
	 * The write budget's counters (cheap; for meters).
	 * @return the budget, or {@code null} when none is set
	 */
	public @Nullable WriteBudgetSnapshot writeBudget() {
		return Snapshots.budget(this.parts.sinkSettings().budget());
	}

	/**
	 * Events whose events.k8s.io/v1 note was cut to the API server's limit of 1024 bytes (cheap; for counters).
	 * @return the count
	 */
	public long truncatedNotes() {
		return this.parts.counters().truncatedCount();
	}

	/**
	 * The active subscribers' queues (cheap; for gauges).
	 * @return one entry per active subscriber
	 */
	public List<RecorderSnapshot.SubscriberSnapshot> subscriberSnapshots() {
		return Snapshots.subscribers(this.parts.fanout());
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
		return Snapshots.recorder(this.parts, limit, filter);
	}

}
