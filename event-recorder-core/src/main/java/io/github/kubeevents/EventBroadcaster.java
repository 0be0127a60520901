package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.DoubleSupplier;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * Distributes recorded events to sinks and other subscribers: client-go's {@code record.EventBroadcaster}.
 *
 * <ul>
 * <li>{@link #newRecorder(EventSource)} gives a recorder for one component. Recording never blocks: events go into
 * a bounded incoming queue (default 10,000) or are dropped and counted ({@code queue_full}; after shutdown
 * {@code shutdown}).</li>
 * <li>One distribution thread ({@code kubeevents-broadcaster}) runs each sink's correlation or series step itself
 * and hands the writes to the sink's writer threads ({@code kubeevents-writer-<sink>-<n>}) through the sink's own
 * bounded backlog (default 20,000), which never makes it wait: a full backlog drops the write for that sink alone
 * ({@code queue_full}), so a slow API server holds up no other subscriber. It hands
 * each event to every other subscriber's own bounded queue (default 10,000), in order; a subscriber whose queue is
 * full misses the event (counted), or the thread waits, per {@link Subscription.FullQueuePolicy}. Each such
 * subscriber runs on its own daemon thread ({@code kubeevents-subscriber-<name>}). A new subscriber sees exactly the
 * events recorded after it subscribed; subscribers added while not running also get what is queued when
 * distribution starts.</li>
 * <li>{@link #startRecordingToSink(EventSink)} subscribes a sink with a correlator of its own;
 * {@link #startRecordingTo(ApiClient)} a sink of the configured events API for a client
 * ({@link #startRecordingTo(EventsClient)} for another client, e.g. fabric8's);
 * {@link #startLogging()} the structured logger; {@link #subscribe} any {@link EventHandler}.</li>
 * <li><b>Restartable.</b> {@link #stop(Duration)} distributes and writes what was recorded before it (each pending
 * write gets one more attempt, final series counts are written), ends every thread within the deadline, and keeps
 * the subscribers, their caches and the counters; events recorded while stopped wait in the incoming queue and are
 * written after {@link #start()}, for any number of cycles (a paused test context, a checkpoint).</li>
 * <li>{@link #shutdown(Duration)} is the final stop: later events are refused; past the deadline requests in
 * flight are cancelled and what is left is counted as {@code shutdown} drops. The last log line gives every
 * counter.</li>
 * <li>{@link #stats()} gives every counter and gauge at once, cheaply; {@link #snapshot(int)} also the caches,
 * entry by entry.</li>
 * </ul>
 *
 * <p>No thread runs before {@link #start()}. One clock (the builder's) drives timestamps, names, the
 * correlator's windows and buckets, the series schedule and the pacing of drop summaries, unless the correlator
 * options set their own.
 *
 * <p>Thread-safe. Build with {@link #builder()}.
 */
public final class EventBroadcaster implements AutoCloseable {

	/** The subscriber name of {@link #startLogging()}: {@value}. */
	public static final String LOGGING_SUBSCRIBER = "logging";

	/**
	 * The subscriber name of the first sink a broadcaster subscribes: {@value}; later ones are {@code sink-2},
	 * {@code sink-3}, ...
	 */
	public static final String FIRST_SINK_SUBSCRIBER = SinkFactory.FIRST_SINK_SUBSCRIBER;

	/**
	 * The namespace whose RBAC a sink built for a client checks at startup unless told otherwise: {@value}, where
	 * events about cluster-scoped objects go.
	 */
	public static final String DEFAULT_ACCESS_CHECK_NAMESPACE = "default";

	private static final Logger logger = RecorderLog.LOGGER;

	private final Clock clock;

	private final int maxMessageBytes;

	private final Duration shutdownTimeout;

	private final Subscription.Options subscriberOptions;

	private final EventCounters counters;

	private final Fanout fanout;

	private final SinkSettings sinkSettings;

	private final SinkFactory sinks;

	private final RegisteredKinds kinds;

	private final AtomicBoolean shutdownBegun = new AtomicBoolean();

	private final TraceContext.Capture tracing;

	/** Whether a failing {@link TraceContext.Capture} was logged (once per broadcaster). */
	private final AtomicBoolean captureFailureLogged = new AtomicBoolean();

	private volatile boolean drained;

	private EventBroadcaster(Builder builder) {
		this.clock = builder.clock;
		this.maxMessageBytes = builder.maxMessageBytes;
		this.shutdownTimeout = builder.shutdownTimeout;
		this.subscriberOptions = builder.subscriberOptions;
		this.counters = new EventCounters(builder.clock, builder.dropSummaryInterval);
		this.fanout = new Fanout(builder.incomingQueueCapacity, this.counters);
		this.sinkSettings = new SinkSettings(builder.retryPolicy,
				(builder.sleeper != null) ? builder.sleeper : Sleeper.real(), builder.jitter, builder.requestListener,
				(builder.writeBudgetQps > 0)
						? new TokenBucket(builder.writeBudgetBurst, builder.writeBudgetQps, builder.clock.instant()) : null,
				builder.clock, builder.sinkWriters, builder.sinkBacklogCapacity, builder.eventsApi,
				builder.requestTimeout, builder.seriesCacheSize, builder.correlatorOptions.withDefaultClock(builder.clock),
				builder.eventsV1CorrelatorOptions.withDefaultClock(builder.clock), builder.deterministicNames,
				builder.eventShape, builder.tracing != TraceContext.Capture.NONE, builder.traceparentAnnotation, System::nanoTime);
		this.tracing = builder.tracing;
		this.sinks = new SinkFactory(this.sinkSettings, this.counters, builder.accessCheckNamespace);
		this.kinds = builder.kinds.build();
	}

	/**
	 * A builder with client-go's defaults.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * A recorder for one component. Recorders are cheap; they share this broadcaster's queue and subscribers.
	 * @param source the component and host written into every event
	 * @return the recorder
	 */
	public EventRecorder newRecorder(EventSource source) {
		return new BroadcastingEventRecorder(this.fanout, Objects.requireNonNull(source, "source"), this.clock,
				this.maxMessageBytes, this.counters, this.kinds, this.tracing, this.captureFailureLogged);
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
	 * Subscribes a handler. It receives exactly the events recorded after this call returns (or, while not running,
	 * what is queued when distribution starts).
	 * @param name the subscriber's name
	 * @param handler the handler
	 * @param options its queue capacity and full-queue policy
	 * @return the subscription; inactive (and an ERROR logged) when the broadcaster has shut down
	 */
	public Subscription subscribe(String name, EventHandler handler, Subscription.Options options) {
		return subscribe(new SubscriberQueue(name, handler, options, this.counters, this.fanout::unsubscribe));
	}

	private Subscription subscribe(Subscriber subscriber) {
		String name = subscriber.name();
		if (!this.fanout.subscribe(subscriber)) {
			logger.error("Unable to start event subscriber '{}' (will not retry!): broadcaster already stopped", name);
			// closed at once, so a sink's subscriber is retired (its counts kept) rather than kept for good
			subscriber.close();
		}
		return subscriber;
	}

	/**
	 * Subscribes a core/v1 sink, with a correlator of its own (two sinks never share caches).
	 * @param sink where to write events
	 * @return the subscription
	 */
	public Subscription startRecordingToSink(EventSink sink) {
		return subscribeSink(this.sinks.coreV1(Objects.requireNonNull(sink, "sink")));
	}

	/**
	 * Subscribes an events.k8s.io/v1 sink, with a series cache of its own (bounded by the builder's
	 * {@code seriesCacheSize}) and, when the builder's events.k8s.io/v1 correlator options enable them,
	 * aggregation and the spam filter (off by default, as in client-go's {@code tools/events}).
	 * @param sink where to write events
	 * @return the subscription
	 */
	public Subscription startRecordingToSink(EventsV1Sink sink) {
		return subscribeSink(this.sinks.eventsV1(Objects.requireNonNull(sink, "sink")));
	}

	/**
	 * Subscribes a sink writing through {@code client} with the builder's events API: for
	 * {@link EventsApi#AUTO} (the default) one discovery request decides between events.k8s.io/v1 (when served)
	 * and core/v1, as client-go's {@code NewEventBroadcasterAdapter} does, and an events.k8s.io/v1 sink switches to
	 * core/v1 for good when RBAC refuses events.k8s.io/v1 (HTTP 403) and allows core/v1 (client-go's adapter loses
	 * those events). RBAC is checked verb by verb ({@code create}, {@code patch}) for both APIs with
	 * SelfSubjectAccessReviews, at startup for the builder's {@code accessCheckNamespace} and after a refusal;
	 * where {@code patch} is refused and {@code create} allowed, repeats are written as new Events
	 * ({@code written_without_patch}). The choice, any switch, the missing verbs and why are logged and shown in
	 * {@link #stats()} and {@link #snapshot(int)}.
	 * @param client the client of the cluster to write to
	 * @return the subscription
	 */
	public Subscription startRecordingTo(ApiClient client) {
		return startRecordingTo(EventsClient.of(client));
	}

	/**
	 * Subscribes a sink writing through another client ({@code Fabric8EventsClient.of(kubernetesClient)} of the
	 * {@code event-recorder-fabric8} module, or an implementation of your own), with the builder's events API, the
	 * discovery of {@code auto} and its RBAC fallback to core/v1, and the same retries, exactly as
	 * {@link #startRecordingTo(ApiClient)}.
	 * @param client the client of the cluster to write to
	 * @return the subscription
	 */
	public Subscription startRecordingTo(EventsClient client) {
		Objects.requireNonNull(client, "client");
		if (isShutdown()) {
			// no discovery or access review for a sink that would never run
			return subscribe("kubernetes-sink", (event) -> {
			});
		}
		return subscribeSink(this.sinks.forClient(client));
	}

	/**
	 * Subscribes the structured event logger: one INFO line per event to the logger
	 * {@code io.github.kubeevents.events}, with the fields of client-go's {@code StartStructuredLogging}.
	 * @return the subscription
	 */
	public Subscription startLogging() {
		return subscribe(LOGGING_SUBSCRIBER, new EventLoggingHandler());
	}

	/** Publishes an event as a recorder does (for tests that record prepared events). */
	boolean publish(RecordedEvent event) {
		return this.fanout.publish(event);
	}

	/** Sinks kept (those whose subscription is open), for tests. */
	int sinkCount() {
		return this.sinks.size();
	}

	boolean isShutdown() {
		return this.fanout.state().isShutdown();
	}

	/** Subscribes a sink: it runs on the distribution thread, its writes on its own writer threads. */
	Subscription subscribeSink(SinkSubscriber sink) {
		return subscribe(new InlineSink(sink.name, sink, this.counters, this.clock, this.fanout::unsubscribe));
	}

	/**
	 * Starts distribution and every subscriber, the first time or again after {@link #stop(Duration)}. Idempotent
	 * while running; does nothing after shutdown. Drops not yet reported in a WARN summary (those before the start,
	 * or while stopped) are summarised at once. When the last stop abandoned a thread at its deadline (stuck in a
	 * call that ignores interrupts) and it still runs, the state is {@code starting} ({@code stats().running()} is
	 * {@code false}, events queue) until it ends; then distribution starts by itself, never beside it. A stop
	 * meanwhile cancels the start.
	 */
	public void start() {
		boolean wasRunning = isRunning();
		this.fanout.start();
		if (!wasRunning && isRunning()) {
			// what was dropped before the start (or while stopped) is reported now, not at the next tick
			this.counters.started();
		}
	}

	/** Whether events are being distributed: {@code stats().running()}, without building the stats. */
	boolean isRunning() {
		return this.fanout.state() == BroadcasterState.RUNNING;
	}

	/**
	 * Stops, for a later {@link #start()}: what was recorded before this call is distributed and written (each
	 * pending write gets one more attempt; every series whose count is ahead of the server gets its final
	 * write), then every thread ends, within {@code timeout}; past it, requests in flight are cancelled and what is
	 * left is counted as {@code shutdown} drops. Subscribers, caches and counters stay. While stopped, recording
	 * still never blocks: events wait in the incoming queue (or are dropped as {@code queue_full} when it is full)
	 * and are written after {@link #start()}; with no distribution thread, the recording thread that drops an event
	 * writes the drop summary itself, at most one line per {@code dropSummaryInterval} (10 s). Does nothing unless
	 * running.
	 * @param timeout how long to wait for the drain
	 * @return {@code true} when everything was written and every thread ended within the deadline
	 */
	public boolean stop(Duration timeout) {
		boolean clean = this.fanout.stop(timeout, false);
		this.counters.flush(true);
		if (this.fanout.state() == BroadcasterState.STOPPED) {
			this.counters.stopped();
		}
		return clean;
	}

	/**
	 * {@link #stop(Duration)} with the builder's shutdown timeout (default 10 s).
	 * @return {@code true} when everything was written in time
	 */
	public boolean stop() {
		return stop(this.shutdownTimeout);
	}

	/**
	 * Shuts down for good: no more events are accepted; what was queued is distributed; subscribers finish their
	 * queues (each pending sink write gets one attempt, retry waits end, final series counts are written); all
	 * threads end. If the deadline passes first, requests in flight are cancelled, the threads are interrupted and
	 * every event still queued is counted as a {@code shutdown} drop; that takes at most about one second more. The
	 * final log line gives every counter. Only the first call waits and logs it: later calls return at once, with the
	 * first call's result once it has finished ({@code false} before).
	 * @param timeout how long to wait for the drain
	 * @return {@code true} when everything was drained and every thread ended within the deadline
	 */
	public boolean shutdown(Duration timeout) {
		if (!this.shutdownBegun.compareAndSet(false, true)) {
			// another call shuts down (or did): it alone waits and writes the final summary
			return this.drained;
		}
		boolean clean = this.fanout.stop(timeout, true);
		this.drained = clean;
		RecorderStats.Writes writes = this.sinks.writes();
		this.counters.finalSummary("created " + writes.created() + ", patched " + writes.patched());
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
	 * Every counter and gauge at one moment: lifecycle state, queues, accepted and dropped events, writes,
	 * refusals, the write budget. Cheap (no cache is walked); for meters and health checks.
	 * @return the statistics
	 */
	public RecorderStats stats() {
		RecorderStats.Builder stats = RecorderStats.builder();
		this.sinks.health(stats);
		return stats.state(this.fanout.reportedState().tag())
			.queue(incomingQueue())
			.accepted(this.counters.acceptedCount())
			.dropped(this.counters.droppedByReason())
			.truncatedNotes(this.counters.truncatedCount())
			.formatFailures(this.counters.formatFailureCount())
			.writes(this.sinks.writes())
			.lastRejection(this.counters.lastRejection())
			.subscribers(subscriberStats())
			.writeBudget(writeBudget())
			.writtenWithoutPatch(this.counters.writtenWithoutPatchCount())
			.throttledByServer(this.counters.throttledBySource())
			.missingAccess(this.sinks.missingAccessNow())
			.naming(this.sinks.naming())
			.build();
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
	public RecorderSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
		List<RecorderSnapshot.SinkSnapshot> sinkViews = new ArrayList<>();
		for (Subscriber subscriber : this.fanout.subscribers()) {
			SinkSubscriber sink = subscriber.sink();
			if (sink != null) {
				sinkViews.add(sink.snapshot(limit, filter));
			}
		}
		return new RecorderSnapshot(this.clock.instant(), this.fanout.reportedState().tag(), incomingQueue(),
				this.counters.acceptedCount(), this.counters.droppedByReason(), subscriberStats(), sinkViews,
				writeBudget(), this.counters.writtenWithoutPatchCount(), this.counters.throttledBySource());
	}

	private RecorderStats.Queue incomingQueue() {
		return new RecorderStats.Queue(this.fanout.depth(), this.fanout.capacity());
	}

	private List<RecorderStats.Subscriber> subscriberStats() {
		return this.fanout.subscribers().stream().map(Subscriber::stats).toList();
	}

	private RecorderStats.@Nullable WriteBudget writeBudget() {
		TokenBucket budget = this.sinkSettings.writeBudget();
		return (budget != null) ? new RecorderStats.WriteBudget(budget.qps(), budget.burst(),
				budget.throttledCount(), budget.totalWait()) : null;
	}

	/**
	 * Builder of {@link EventBroadcaster}, preset with client-go's defaults. Get one with
	 * {@link EventBroadcaster#builder()}.
	 *
	 * <p>Not thread-safe.
	 */
	public static final class Builder {

		/**
		 * The default capacity of the incoming queue: 10,000, where client-go's holds 1000 ({@code maxQueuedEvents}).
		 * Measured at a steady 20,000 events/s from a cold JVM, 1000 slots (50 ms at that rate) overflow while a
		 * thread is descheduled on a busy machine; 10,000 (half a second) dropped nothing (docs/benchmarks.md). The
		 * queue's array costs 64 KB; events are held only while they wait.
		 */
		public static final int DEFAULT_INCOMING_QUEUE_CAPACITY = 10_000;

		/**
		 * The default capacity of a sink's backlog: 20,000 writes, 100 s of a 200 events/s stream of distinct objects
		 * while the API server is away (see {@link #sinkBacklogCapacity(int)}).
		 */
		public static final int DEFAULT_SINK_BACKLOG_CAPACITY = 20_000;

		/** The default limit of a message: 1 MiB of UTF-8 (see {@link #maxMessageBytes(int)}). */
		public static final int DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;

		/** The default time limit of one request to the API server: 5 s (client-go has none; {@link #requestTimeout}). */
		public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);

		int incomingQueueCapacity = DEFAULT_INCOMING_QUEUE_CAPACITY;

		Subscription.Options subscriberOptions = Subscription.Options.defaults();

		CorrelatorOptions correlatorOptions = CorrelatorOptions.defaults();

		RetryPolicy retryPolicy = RetryPolicy.defaults();

		Clock clock = Clock.systemUTC();

		@Nullable Sleeper sleeper;

		DoubleSupplier jitter = () -> ThreadLocalRandom.current().nextDouble();

		int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;

		final RegisteredKinds.Registrations kinds = new RegisteredKinds.Registrations();

		Duration shutdownTimeout = Duration.ofSeconds(10);

		Duration dropSummaryInterval = EventCounters.DEFAULT_SUMMARY_INTERVAL;

		Sink.RequestListener requestListener = Sink.RequestListener.NONE;

		int sinkWriters = 4;

		int sinkBacklogCapacity = DEFAULT_SINK_BACKLOG_CAPACITY;

		double writeBudgetQps;

		int writeBudgetBurst;

		EventsApi eventsApi = EventsApi.AUTO;

		EventShape eventShape = EventShape.READERS;

		Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;

		String accessCheckNamespace = DEFAULT_ACCESS_CHECK_NAMESPACE;

		int seriesCacheSize = 4096;

		boolean deterministicNames;

		CorrelatorOptions eventsV1CorrelatorOptions = CorrelatorOptions.builder()
			.aggregationEnabled(false)
			.spamFilterEnabled(false)
			.build();

		TraceContext.Capture tracing = TraceContext.Capture.NONE;

		@Nullable String traceparentAnnotation;

		private Builder() {
		}

		/**
		 * Captures the caller's trace context at every {@code record}/{@code eventf} call of this broadcaster's
		 * recorders (one call of {@code capture} on the caller's thread) and carries it with the event
		 * ({@link RecordedEvent#traceContext()}). The sinks' writer threads then make it current around each request of
		 * the event's write ({@link TraceContext#startRequest}), so the write joins the caller's trace instead of
		 * starting a trace of its own; with {@link #traceparentAnnotation(String)} it is also written on the Event.
		 * Default {@link TraceContext.Capture#NONE}: nothing is captured or called. Returns this builder.
		 */
		public Builder tracing(TraceContext.Capture capture) {
			this.tracing = Objects.requireNonNull(capture, "tracing");
			return this;
		}

		/**
		 * Writes the W3C {@code traceparent} of the captured trace context ({@link #tracing(TraceContext.Capture)}) as
		 * an annotation of each Event: on its CREATE, for both events APIs, and on every PATCH of a repeat (core/v1
		 * count, events.k8s.io/v1 series) the latest occurrence's, so {@code kubectl get event -o yaml} names the trace
		 * of the last occurrence. Events recorded with no current span get no annotation, and an annotation the caller
		 * passed under the same key is kept. A repeat merged into an Event by the correlator without a request (the
		 * spam filter's drops) writes nothing, as before. A sink of your own receives the annotation in the CREATE
		 * body's metadata and in {@link io.github.kubeevents.sink.EventSink.CountPatch#annotations()} /
		 * {@link io.github.kubeevents.sink.EventsV1Sink.SeriesPatch#annotations()} (which {@code toMap()} writes). The
		 * key is usually {@link TraceContext#TRACEPARENT_ANNOTATION}; {@code null} (the default) for none. Returns this
		 * builder.
		 * @throws IllegalArgumentException when {@code key} is blank
		 */
		public Builder traceparentAnnotation(@Nullable String key) {
			if (key != null && key.isBlank()) {
				throw new IllegalArgumentException("traceparentAnnotation must not be blank");
			}
			this.traceparentAnnotation = key;
			return this;
		}

		/**
		 * Sets the incoming queue's capacity (default {@value #DEFAULT_INCOMING_QUEUE_CAPACITY}, at most
		 * {@value Subscription.Options#MAX_QUEUE_CAPACITY}); when it is full, new events are dropped
		 * ({@code queue_full}). Returns this builder.
		 */
		public Builder incomingQueueCapacity(int capacity) {
			if (capacity < 1 || capacity > Subscription.Options.MAX_QUEUE_CAPACITY) {
				throw new IllegalArgumentException("incoming queue capacity must be between 1 and "
						+ Subscription.Options.MAX_QUEUE_CAPACITY + ", was " + capacity);
			}
			this.incomingQueueCapacity = capacity;
			return this;
		}

		/**
		 * Sets the default queue options of subscribers ({@link #subscribe(String, EventHandler)},
		 * {@link #startLogging()}; default {@value Subscription.Options#DEFAULT_QUEUE_CAPACITY} events, drop when
		 * full). Sinks have no subscriber queue: they run on the distribution thread, and their bound is
		 * {@link #sinkBacklogCapacity(int)}. Returns this builder.
		 */
		public Builder subscriberOptions(Subscription.Options options) {
			this.subscriberOptions = Objects.requireNonNull(options, "subscriberOptions");
			return this;
		}

		/**
		 * Sets the options of each core/v1 sink's correlator (default client-go's; their clock, when unset, is this
		 * builder's); returns this builder.
		 */
		public Builder correlatorOptions(CorrelatorOptions options) {
			this.correlatorOptions = Objects.requireNonNull(options, "correlatorOptions");
			return this;
		}

		/**
		 * Sets how writes failing with transport errors are retried (default 12 attempts, 10 s); returns this builder.
		 */
		public Builder retryPolicy(RetryPolicy policy) {
			this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
			return this;
		}

		/**
		 * Sets the one clock of the recorder (default {@link Clock#systemUTC()}): event timestamps and names, the
		 * correlator's window and token buckets (unless its options set another), the pacing of drop summaries. Returns
		 * this builder.
		 */
		public Builder clock(Clock clock) {
			this.clock = Objects.requireNonNull(clock, "clock");
			return this;
		}

		/** Sets what waits between attempts (default a real sleeper that stop and shutdown wake; tests record it). */
		Builder sleeper(Sleeper sleeper) {
			this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
			return this;
		}

		/** Sets the uniform random numbers in [0, 1) of the retry jitter (default ThreadLocalRandom; tests fix it). */
		Builder jitter(DoubleSupplier jitter) {
			this.jitter = Objects.requireNonNull(jitter, "jitter");
			return this;
		}

		/**
		 * Registers the apiVersion and kind of a model class for this broadcaster's recorders, for custom resources
		 * whose objects arrive without them (informers and list calls often leave them out), as client-go hands its
		 * recorder a {@code runtime.Scheme}. Objects with kind and apiVersion are used as they are; for the rest a
		 * class registered here wins over the deprecated global {@link InvolvedObject#registerKind} and the built-in
		 * model table. Applies to the regarding and related objects of every recorder of the broadcaster (not to
		 * calls with an {@link InvolvedObject.Adapter}). A later registration of the same class replaces the earlier.
		 * @param type the model class, e.g. {@code V1Widget.class}
		 * @param apiVersion e.g. {@code example.com/v1}
		 * @param kind e.g. {@code Widget}
		 * @return this builder
		 * @throws IllegalArgumentException when {@code apiVersion} or {@code kind} is empty
		 */
		public Builder registerKind(Class<? extends KubernetesObject> type, String apiVersion, String kind) {
			this.kinds.add(type, apiVersion, kind);
			return this;
		}

		/**
		 * Sets the largest message accepted, in UTF-8 bytes as sent (default 1 MiB; an unpaired surrogate counts as
		 * the 3 bytes of the U+FFFD it is sent as); longer messages are dropped as invalid input (client-go has no
		 * limit for core/v1; the API server and etcd refuse objects over about 1.5 MiB). Returns this builder.
		 */
		public Builder maxMessageBytes(int maxMessageBytes) {
			if (maxMessageBytes < 1) {
				throw new IllegalArgumentException("maxMessageBytes must be at least 1, was " + maxMessageBytes);
			}
			this.maxMessageBytes = maxMessageBytes;
			return this;
		}

		/**
		 * Sets the deadline of {@link EventBroadcaster#stop()}, {@link EventBroadcaster#shutdown()} and
		 * {@link EventBroadcaster#close()} (default 10 s); returns this builder.
		 */
		public Builder shutdownTimeout(Duration timeout) {
			Objects.requireNonNull(timeout, "shutdownTimeout");
			if (timeout.isNegative()) {
				throw new IllegalArgumentException("shutdownTimeout must not be negative, was " + timeout);
			}
			this.shutdownTimeout = timeout;
			return this;
		}

		/**
		 * Sets the shortest time between two WARN summaries of one flood-prone drop reason (default 10 s); returns this
		 * builder.
		 */
		public Builder dropSummaryInterval(Duration interval) {
			Objects.requireNonNull(interval, "dropSummaryInterval");
			if (interval.isNegative()) {
				throw new IllegalArgumentException("dropSummaryInterval must not be negative, was " + interval);
			}
			this.dropSummaryInterval = interval;
			return this;
		}

		/**
		 * Sets the listener told about every request of the sinks, for latency metrics (default none); returns this
		 * builder.
		 */
		public Builder requestListener(Sink.RequestListener listener) {
			this.requestListener = Objects.requireNonNull(listener, "requestListener");
			return this;
		}

		/**
		 * Sets how many threads write each sink's events, 1 to 64 (default 4). Writes are sharded by involved object,
		 * so one object's writes stay in order (a PATCH never overtakes its CREATE) while different objects are written
		 * in parallel; they share the sink's backlog ({@link #sinkBacklogCapacity(int)}).
		 *
		 * <p>Differs from client-go deliberately: client-go writes every event from one goroutine, in recording order.
		 * A write mostly waits for the API server (about 85% of its time measured against a local kube-apiserver), so
		 * four writers drain a burst of events about as fast as client-go's lighter client or faster; use {@code 1} for
		 * client-go's single global write order. Returns this builder.
		 */
		public Builder sinkWriters(int writers) {
			if (writers < 1 || writers > 64) {
				throw new IllegalArgumentException("sinkWriters must be between 1 and 64, was " + writers);
			}
			this.sinkWriters = writers;
			return this;
		}

		/**
		 * Sets how many writes each sink holds for its writer threads (its backlog, over all of them; default
		 * {@value #DEFAULT_SINK_BACKLOG_CAPACITY}, at most {@value Subscription.Options#MAX_QUEUE_CAPACITY}). When it
		 * is full (the API server is away or answers slowly, a writer sleeps before a retry), a new write of that sink
		 * is dropped at once and counted as {@code queue_full}: the distribution thread never waits for a sink, so the
		 * logging handler, user handlers and other sinks go on at full speed (each watcher of client-go's broadcaster
		 * drops its own events when its channel is full). What the backlog holds is written once the server answers
		 * again; at a stop it is written within the deadline, past it counted as {@code shutdown}. A snapshot shows it
		 * as the sink's depth and capacity. Memory: a held core/v1 write takes about 1.5 KB (the Event built for it),
		 * so the default costs about 30 MB at most, only while the server cannot keep up. Returns this builder.
		 */
		public Builder sinkBacklogCapacity(int capacity) {
			if (capacity < 1 || capacity > Subscription.Options.MAX_QUEUE_CAPACITY) {
				throw new IllegalArgumentException("sinkBacklogCapacity must be between 1 and "
						+ Subscription.Options.MAX_QUEUE_CAPACITY + ", was " + capacity);
			}
			this.sinkBacklogCapacity = capacity;
			return this;
		}

		/**
		 * Limits the API server requests of all sinks together to {@code qps} requests per second, sustained, and
		 * {@code burst} at once after a quiet period (default: no limit), like client-go's clientset rate limiter (5
		 * QPS, burst 10 by default there; the official Java client has none). Writers wait for a token before each
		 * request; while they wait, writes queue up in each sink's backlog, and a full backlog drops as usual
		 * ({@code queue_full}, for that sink). Returns this builder.
		 */
		public Builder writeBudget(double qps, int burst) {
			if (!(qps > 0) || Double.isInfinite(qps) || burst < 1) {
				throw new IllegalArgumentException("write budget needs qps > 0 and burst >= 1, was " + qps + "/" + burst);
			}
			this.writeBudgetQps = qps;
			this.writeBudgetBurst = burst;
			return this;
		}

		/**
		 * Sets the events API of {@link EventBroadcaster#startRecordingTo(io.kubernetes.client.openapi.ApiClient)}:
		 * {@link EventsApi#AUTO} (default: events.k8s.io/v1 when the server serves it, else core/v1),
		 * {@link EventsApi#EVENTS_V1} or {@link EventsApi#CORE_V1}; returns this builder.
		 */
		public Builder eventsApi(EventsApi api) {
			this.eventsApi = Objects.requireNonNull(api, "eventsApi");
			return this;
		}

		/**
		 * Sets which fields core/v1 writes carry: {@link EventShape#READERS} (default: client-go's fields plus
		 * {@code eventTime} on a first occurrence and a series on each repeat, so kubectl, the OpenTelemetry collector,
		 * Grafana Alloy, event exporters and events.k8s.io/v1 readers all show the right count and last-seen time; with
		 * {@link EventsApi#AUTO}, core/v1 where RBAC allows its create and patch in every namespace) or
		 * {@link EventShape#CLIENT_GO} (exactly client-go's request bodies, and {@code auto} as client-go's adapter
		 * chooses); returns this builder.
		 */
		public Builder eventShape(EventShape shape) {
			this.eventShape = Objects.requireNonNull(shape, "eventShape");
			return this;
		}

		/**
		 * Sets the namespace whose RBAC the sinks built by
		 * {@link EventBroadcaster#startRecordingTo(io.kubernetes.client.openapi.ApiClient)} check at startup, verb by
		 * verb and for both events APIs (one SelfSubjectAccessReview per verb and API): the recorder's own namespace,
		 * where most of its events go (default {@value EventBroadcaster#DEFAULT_ACCESS_CHECK_NAMESPACE}, where events
		 * about cluster-scoped objects go; a running Pod's own is in
		 * {@code /var/run/secrets/kubernetes.io/serviceaccount/namespace}). The answers decide the API of {@code auto}
		 * before the first write, and a missing verb is logged at WARN and shown in {@link EventBroadcaster#stats()}
		 * and {@link EventBroadcaster#snapshot(int)}. Other namespaces are checked after their first refusal. Returns
		 * this builder.
		 */
		public Builder accessCheckNamespace(String namespace) {
			Objects.requireNonNull(namespace, "accessCheckNamespace");
			if (namespace.isBlank()) {
				throw new IllegalArgumentException("accessCheckNamespace must not be blank");
			}
			this.accessCheckNamespace = namespace;
			return this;
		}

		/**
		 * Sets the time limit of one request of the sinks built by
		 * {@link EventBroadcaster#startRecordingTo(io.kubernetes.client.openapi.ApiClient)} (default
		 * {@link #DEFAULT_REQUEST_TIMEOUT}, 5 s; {@link Duration#ZERO} for none); returns this builder.
		 */
		public Builder requestTimeout(Duration timeout) {
			Objects.requireNonNull(timeout, "requestTimeout");
			if (timeout.isNegative()) {
				throw new IllegalArgumentException("requestTimeout must not be negative, was " + timeout);
			}
			this.requestTimeout = timeout;
			return this;
		}

		/**
		 * Sets how many Events an events.k8s.io/v1 sink remembers for its series (default 4096; client-go's cache is
		 * unbounded). When full, the least recently seen one is forgotten after its final count is written. Returns
		 * this builder.
		 */
		public Builder seriesCacheSize(int size) {
			if (size < 1) {
				throw new IllegalArgumentException("seriesCacheSize must be at least 1, was " + size);
			}
			this.seriesCacheSize = size;
			return this;
		}

		/**
		 * Turns on deterministic Event names (default {@code false}: client-go's names and behaviour). Each
		 * occurrence stream (object with its uid, reason, type, message or series key, reporting component; never
		 * the reporting instance, resourceVersion or a time) gets the same name in every process, so after a
		 * restart, and from a second replica, its occurrences continue the one Event: a CREATE that finds the Event
		 * (409 AlreadyExists) reads it and PATCHes the server's count plus the new occurrences with the
		 * resourceVersion as a precondition, re-reading after a 409 Conflict at most 10 times. The correlator's
		 * decisions (aggregation, repeats, spam filter) and the queues are unchanged; steady state costs no extra
		 * request, the first write of a stream after a restart a GET and a PATCH more. Needs {@code get} on Events:
		 * a sink for a client asks per namespace, with the write verbs (SelfSubjectAccessReviews, answers kept 5
		 * minutes), and where RBAC refuses it (or the server refuses a read) names that namespace's Events with
		 * client-go's names, with one WARN naming the verb ({@code stats().naming()}), until the answer
		 * expired and RBAC allows {@code get}; a custom sink whose {@code supportsGet()} is {@code false} keeps
		 * client-go's names for good. Returns this builder.
		 */
		public Builder deterministicNames(boolean enabled) {
			this.deterministicNames = enabled;
			return this;
		}

		/**
		 * Sets the correlation of events.k8s.io/v1 sinks: series are always on; aggregation and the spam filter only
		 * when these options enable them (default: both off, as in client-go's {@code tools/events}; their clock, when
		 * unset, is this builder's). Returns this builder.
		 */
		public Builder eventsV1CorrelatorOptions(CorrelatorOptions options) {
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

}
