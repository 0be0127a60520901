package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;

import io.github.kubeevents.correlator.CorrelatorOptions;
import io.github.kubeevents.correlator.EventCorrelator;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.SinkRecordingHandler;
import io.github.kubeevents.sink.SinkStats;
import io.github.kubeevents.sink.Sleeper;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-process fan-out of events (client-go's {@code record.EventBroadcaster} over apimachinery's
 * {@code watch.Broadcaster}).
 *
 * <ul>
 * <li>{@link #publish(CoreV1Event)} never blocks: it enqueues into a bounded incoming queue (default 1000) or
 * drops and counts ({@code queue_full}; after shutdown {@code shutdown}).</li>
 * <li>One distribution thread ({@code kubeevents-broadcaster}) hands each event to every subscriber's own bounded
 * queue (default 1000), in publish order, dropping for that subscriber alone when its queue is full (or waiting,
 * per {@link FullQueuePolicy}).</li>
 * <li>Each subscriber runs on its own daemon thread ({@code kubeevents-subscriber-<name>}). Subscribing and
 * unsubscribing are serialised with distribution, so a new subscriber sees no history and no gaps: exactly the
 * events distributed after it was added. Subscribers added before {@link #start()} receive everything published
 * before the start.</li>
 * <li>{@link #startRecordingToSink(EventSink)} subscribes a sink with its own {@link EventCorrelator};
 * {@link #startLogging()} subscribes the structured logger; {@link #newRecorder(EventSource)} gives one recorder
 * per component.</li>
 * <li>{@link #shutdown(Duration)} drains what was queued, closes the subscribers (which finish their queues, each
 * pending sink write getting one attempt), cancels retry sleeps, and waits for every thread to end, up to the
 * deadline.</li>
 * </ul>
 *
 * <p>Thread-safe. Build with {@link #builder()}.
 */
public final class EventBroadcaster implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(EventBroadcaster.class);

	private static final Object SHUTDOWN = new Object();

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

	private final int incomingCapacity;

	private final SubscriberOptions defaultSubscriberOptions;

	private final CorrelatorOptions correlatorOptions;

	private final RetryPolicy retryPolicy;

	private final Clock clock;

	private final Sleeper sleeper;

	private final DoubleSupplier jitter;

	private final int maxMessageBytes;

	private final EventCounters counters;

	private final LinkedBlockingQueue<Object> incoming = new LinkedBlockingQueue<>();

	private final AtomicInteger queuedEvents = new AtomicInteger();

	private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();

	private final List<Subscriber> sinkSubscribers = new CopyOnWriteArrayList<>();

	/** Every subscriber whose thread was started, including closed ones, so shutdown can wait for all of them. */
	private final List<Subscriber> startedSubscribers = new CopyOnWriteArrayList<>();

	private final Object lifecycleLock = new Object();

	private final Thread distributor;

	private final AtomicInteger sinkCount = new AtomicInteger();

	/** Every sink ever started, closed ones included, so counters never go backwards. */
	private final List<Subscriber> allSinks = new CopyOnWriteArrayList<>();

	private final LongAdder accepted = new LongAdder();

	private volatile boolean started;

	private volatile boolean stopped;

	private volatile boolean distributionDone;

	private EventBroadcaster(Builder builder) {
		this.incomingCapacity = builder.incomingQueueCapacity;
		this.defaultSubscriberOptions = builder.subscriberOptions;
		this.correlatorOptions = builder.correlatorOptions;
		this.retryPolicy = builder.retryPolicy;
		this.clock = builder.clock;
		this.sleeper = (builder.sleeper != null) ? builder.sleeper : Sleeper.cancellable();
		this.jitter = builder.jitter;
		this.maxMessageBytes = builder.maxMessageBytes;
		this.counters = new EventCounters(builder.clock);
		this.distributor = new Thread(this::distribute, "kubeevents-broadcaster");
		this.distributor.setDaemon(true);
	}

	/**
	 * A builder with client-go's defaults.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Starts distribution. Idempotent; does nothing after shutdown.
	 */
	public void start() {
		synchronized (this.lifecycleLock) {
			if (!this.started && !this.stopped) {
				this.started = true;
				this.distributor.start();
			}
		}
	}

	/**
	 * Whether events are being distributed.
	 * @return {@code true} between {@link #start()} and {@link #shutdown(Duration)}
	 */
	public boolean isRunning() {
		return this.started && !this.stopped;
	}

	/**
	 * A recorder for one component. Recorders are cheap; they share this broadcaster's queue and sinks.
	 * @param source the component and host written into every event
	 * @return the recorder
	 */
	public EventRecorder newRecorder(EventSource source) {
		return new BroadcastingEventRecorder(this, Objects.requireNonNull(source, "source"), this.clock,
				this.counters, this.maxMessageBytes);
	}

	/**
	 * Enqueues an event without blocking. Used by the recorders; callers may publish ready-made Events too.
	 * @param event the event (not copied; do not change it afterwards)
	 * @return {@code true} when queued; {@code false} when dropped and counted
	 */
	public boolean publish(CoreV1Event event) {
		if (this.stopped) {
			this.counters.drop(DropReason.SHUTDOWN,
					"Unable to record event (broadcaster already stopped, will not retry!): " + Events.describe(event));
			return false;
		}
		if (this.queuedEvents.incrementAndGet() > this.incomingCapacity) {
			this.queuedEvents.decrementAndGet();
			this.counters.drop(DropReason.QUEUE_FULL,
					"Unable to record event: too many queued events (" + this.incomingCapacity + "): "
							+ Events.describe(event));
			return false;
		}
		this.incoming.add(event);
		if (this.distributionDone && this.incoming.remove(event)) {
			this.queuedEvents.decrementAndGet();
			this.counters.drop(DropReason.SHUTDOWN, "Unable to record event (broadcaster already stopped): "
					+ Events.describe(event));
			return false;
		}
		this.accepted.increment();
		return true;
	}

	/**
	 * Subscribes a handler with the default subscriber options.
	 * @param name the subscriber's name (thread {@code kubeevents-subscriber-<name>})
	 * @param handler the handler
	 * @return the subscription; inactive when the broadcaster has shut down
	 */
	public Subscription subscribe(String name, EventHandler handler) {
		return subscribe(name, handler, this.defaultSubscriberOptions);
	}

	/**
	 * Subscribes a handler. It receives exactly the events distributed after this call returns (or, before
	 * {@link #start()}, everything published so far).
	 * @param name the subscriber's name
	 * @param handler the handler
	 * @param options its queue capacity and full-queue policy
	 * @return the subscription; inactive (and an ERROR logged) when the broadcaster has shut down
	 */
	public Subscription subscribe(String name, EventHandler handler, SubscriberOptions options) {
		return register(new Subscriber(name, handler, options, null));
	}

	/**
	 * Subscribes a sink, with a new {@link EventCorrelator} of its own (so two sinks never share caches).
	 * @param sink where to write events
	 * @return the subscription
	 */
	public Subscription startRecordingToSink(EventSink sink) {
		SinkRecordingHandler handler = new SinkRecordingHandler(sink, new EventCorrelator(this.correlatorOptions),
				this.retryPolicy, this.sleeper, this.jitter, this.counters);
		int n = this.sinkCount.incrementAndGet();
		String name = (n == 1) ? "sink" : "sink-" + n;
		return register(new Subscriber(name, handler, this.defaultSubscriberOptions, handler));
	}

	/**
	 * Subscribes the structured event logger ({@link EventLoggingHandler}).
	 * @return the subscription
	 */
	public Subscription startLogging() {
		return subscribe("logging", new EventLoggingHandler());
	}

	private Subscription register(Subscriber subscriber) {
		FutureTask<Void> command;
		synchronized (this.lifecycleLock) {
			if (this.stopped) {
				logger.error("Unable to start event subscriber '{}' (will not retry!): broadcaster already stopped",
						subscriber.name);
				subscriber.closed = true;
				return subscriber;
			}
			if (!this.started) {
				add(subscriber);
				return subscriber;
			}
			command = new FutureTask<>(() -> add(subscriber), null);
			this.incoming.add(command);
		}
		await(command);
		return subscriber;
	}

	private void add(Subscriber subscriber) {
		this.subscribers.add(subscriber);
		if (subscriber.sinkHandler != null) {
			this.sinkSubscribers.add(subscriber);
			this.allSinks.add(subscriber);
		}
		this.startedSubscribers.removeIf((s) -> !s.thread.isAlive());
		this.startedSubscribers.add(subscriber);
		subscriber.thread.start();
	}

	private void unsubscribe(Subscriber subscriber) {
		synchronized (this.lifecycleLock) {
			if (this.stopped) {
				return;
			}
			if (!this.started) {
				remove(subscriber);
				return;
			}
			this.incoming.add(new FutureTask<>(() -> remove(subscriber), null));
		}
	}

	private void remove(Subscriber subscriber) {
		this.subscribers.remove(subscriber);
		this.sinkSubscribers.remove(subscriber);
		subscriber.closeInput();
	}

	private static void await(FutureTask<Void> command) {
		try {
			command.get(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException | CancellationException ex) {
			logger.warn("Subscription change did not complete: {}", ex.toString());
		}
	}

	private void distribute() {
		try {
			while (true) {
				Object item = this.incoming.take();
				if (item == SHUTDOWN) {
					break;
				}
				if (item instanceof FutureTask<?> command) {
					command.run();
					continue;
				}
				this.queuedEvents.decrementAndGet();
				CoreV1Event event = (CoreV1Event) item;
				for (Subscriber subscriber : this.subscribers) {
					subscriber.offer(event);
				}
			}
		}
		catch (InterruptedException ex) {
			logger.warn("Event distribution interrupted by the shutdown deadline");
		}
		finally {
			this.distributionDone = true;
			Object left;
			while ((left = this.incoming.poll()) != null) {
				if (left instanceof FutureTask<?> command) {
					command.cancel(false);
				}
				else if (left != SHUTDOWN) {
					this.queuedEvents.decrementAndGet();
					this.counters.drop(DropReason.SHUTDOWN, "Still queued at the shutdown deadline: "
							+ Events.describe((CoreV1Event) left));
				}
			}
			for (Subscriber subscriber : this.subscribers) {
				subscriber.closeInput();
			}
		}
	}

	/**
	 * Shuts down: no more events are accepted; what was queued is distributed; subscribers finish their queues
	 * (each pending sink write gets one attempt, retry sleeps are cancelled); all threads end. If the deadline
	 * passes first, the threads are interrupted and every event still queued is counted as a {@code shutdown}
	 * drop. Idempotent.
	 * @param timeout how long to wait for the drain
	 * @return {@code true} when everything was drained and every thread ended within the deadline
	 */
	public boolean shutdown(Duration timeout) {
		synchronized (this.lifecycleLock) {
			if (!this.stopped) {
				this.stopped = true;
				this.incoming.add(SHUTDOWN);
				if (!this.started) {
					this.started = true;
					this.distributor.start();
				}
			}
		}
		for (Subscriber subscriber : this.sinkSubscribers) {
			subscriber.sinkHandler.cancel();
		}
		this.sleeper.cancel();
		long deadline = System.nanoTime() + timeout.toNanos();
		boolean clean = join(this.distributor, deadline);
		for (Subscriber subscriber : this.startedSubscribers) {
			clean &= join(subscriber.thread, deadline);
		}
		if (!clean) {
			logger.warn("Event broadcaster did not drain within {}; interrupting", timeout);
			this.distributor.interrupt();
			for (Subscriber subscriber : this.startedSubscribers) {
				subscriber.abort();
			}
			long grace = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
			join(this.distributor, grace);
			for (Subscriber subscriber : this.startedSubscribers) {
				join(subscriber.thread, grace);
			}
		}
		return clean;
	}

	/**
	 * {@link #shutdown(Duration)} with a 10 s deadline.
	 */
	@Override
	public void close() {
		shutdown(Duration.ofSeconds(10));
	}

	private static boolean join(Thread thread, long deadlineNanos) {
		if (thread.getState() == Thread.State.NEW) {
			return true;
		}
		try {
			long remaining = deadlineNanos - System.nanoTime();
			if (remaining > 0) {
				TimeUnit.NANOSECONDS.timedJoin(thread, remaining);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return !thread.isAlive();
	}

	/**
	 * Whether {@link #shutdown(Duration)} was called.
	 * @return {@code true} once shutdown began
	 */
	public boolean isShutdown() {
		return this.stopped;
	}

	/**
	 * Events waiting in the incoming queue (cheap; for gauges).
	 * @return the depth
	 */
	public int queueDepth() {
		return Math.max(0, this.queuedEvents.get());
	}

	/**
	 * The incoming queue's capacity.
	 * @return the capacity
	 */
	public int queueCapacity() {
		return this.incomingCapacity;
	}

	/**
	 * Events accepted into the incoming queue so far (cheap; for counters).
	 * @return the count
	 */
	public long acceptedCount() {
		return this.accepted.sum();
	}

	/**
	 * The counters of every sink started on this broadcaster, summed (cheap; for counters).
	 * @return the totals
	 */
	public SinkStats sinkStats() {
		long created = 0;
		long patched = 0;
		long retried = 0;
		long failed = 0;
		for (Subscriber subscriber : this.allSinks) {
			SinkStats stats = subscriber.sinkHandler.stats();
			created += stats.created();
			patched += stats.patched();
			retried += stats.retried();
			failed += stats.failed();
		}
		return new SinkStats(created, patched, retried, failed);
	}

	/**
	 * The drop counters shared by this broadcaster, its recorders and sinks.
	 * @return the counters
	 */
	public EventCounters counters() {
		return this.counters;
	}

	/**
	 * A read-only view of queues, drops, sinks and correlators.
	 * @param limit the maximum number of entries in each correlator list
	 * @return the snapshot
	 */
	public RecorderSnapshot snapshot(int limit) {
		List<RecorderSnapshot.SubscriberSnapshot> subscriberViews = new ArrayList<>();
		List<RecorderSnapshot.SinkSnapshot> sinkViews = new ArrayList<>();
		for (Subscriber subscriber : this.subscribers) {
			subscriberViews.add(new RecorderSnapshot.SubscriberSnapshot(subscriber.name, subscriber.depth(),
					subscriber.options.queueCapacity(), subscriber.options.fullQueuePolicy(),
					subscriber.dropped.get()));
			if (subscriber.sinkHandler != null) {
				sinkViews.add(new RecorderSnapshot.SinkSnapshot(subscriber.name, subscriber.sinkHandler.stats(),
						subscriber.sinkHandler.correlator().snapshot(limit)));
			}
		}
		Map<String, Long> dropped = this.counters.droppedByReason();
		return new RecorderSnapshot(this.clock.instant(), isRunning(),
				new RecorderSnapshot.QueueSnapshot(Math.max(0, this.queuedEvents.get()), this.incomingCapacity),
				dropped, subscriberViews, sinkViews);
	}

	/** One subscriber: a bounded queue and a thread. */
	private final class Subscriber implements Subscription {

		private final String name;

		private final EventHandler handler;

		private final SubscriberOptions options;

		private final SinkRecordingHandler sinkHandler;

		private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();

		private final Semaphore permits;

		private final AtomicInteger dropped = new AtomicInteger();

		private final AtomicBoolean inputClosed = new AtomicBoolean();

		private final Thread thread;

		private volatile boolean closed;

		private volatile boolean aborted;

		Subscriber(String name, EventHandler handler, SubscriberOptions options, SinkRecordingHandler sinkHandler) {
			this.name = Objects.requireNonNull(name, "name");
			this.handler = Objects.requireNonNull(handler, "handler");
			this.options = Objects.requireNonNull(options, "options");
			this.sinkHandler = sinkHandler;
			this.permits = new Semaphore(options.queueCapacity());
			this.thread = new Thread(this::consume, "kubeevents-subscriber-" + name);
			this.thread.setDaemon(true);
		}

		/** Called by the distribution thread only. */
		void offer(CoreV1Event event) throws InterruptedException {
			if (this.closed) {
				return;
			}
			boolean admitted = this.permits.tryAcquire();
			if (!admitted && this.options.fullQueuePolicy() == FullQueuePolicy.WAIT) {
				while (!admitted && !this.closed && !this.aborted) {
					admitted = this.permits.tryAcquire(50, TimeUnit.MILLISECONDS);
				}
			}
			if (!admitted) {
				this.dropped.incrementAndGet();
				EventBroadcaster.this.counters.drop(DropReason.QUEUE_FULL,
						"subscriber '" + this.name + "' queue is full (" + this.options.queueCapacity() + "): "
								+ Events.describe(event));
				return;
			}
			this.queue.add(event);
		}

		void closeInput() {
			if (this.inputClosed.compareAndSet(false, true)) {
				this.queue.add(SHUTDOWN);
			}
		}

		void abort() {
			this.aborted = true;
			this.closed = true;
			this.thread.interrupt();
		}

		int depth() {
			return this.options.queueCapacity() - this.permits.availablePermits();
		}

		private void consume() {
			try {
				while (true) {
					Object item = this.queue.take();
					if (item == SHUTDOWN) {
						break;
					}
					this.permits.release();
					if (this.aborted) {
						EventBroadcaster.this.counters.drop(DropReason.SHUTDOWN,
								"Still queued for subscriber '" + this.name + "' at the shutdown deadline: "
										+ Events.describe((CoreV1Event) item));
						continue;
					}
					try {
						this.handler.onEvent((CoreV1Event) item);
					}
					catch (Throwable ex) {
						logger.error("Event subscriber '{}' failed on {}", this.name, Events.describe((CoreV1Event) item), ex);
					}
				}
			}
			catch (InterruptedException ex) {
				Object left;
				while ((left = this.queue.poll()) != null) {
					if (left != SHUTDOWN) {
						EventBroadcaster.this.counters.drop(DropReason.SHUTDOWN,
								"Still queued for subscriber '" + this.name + "' at the shutdown deadline: "
										+ Events.describe((CoreV1Event) left));
					}
				}
			}
			finally {
				this.closed = true;
			}
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public boolean isActive() {
			return !this.closed && !this.inputClosed.get();
		}

		@Override
		public void close() {
			if (!this.closed) {
				this.closed = true;
				unsubscribe(this);
			}
		}

	}

	/** Builder of {@link EventBroadcaster}; not thread-safe. */
	public static final class Builder {

		private int incomingQueueCapacity = 1000;

		private SubscriberOptions subscriberOptions = SubscriberOptions.defaults();

		private CorrelatorOptions correlatorOptions = CorrelatorOptions.defaults();

		private RetryPolicy retryPolicy = RetryPolicy.defaults();

		private Clock clock = Clock.systemUTC();

		private Sleeper sleeper;

		private DoubleSupplier jitter = () -> ThreadLocalRandom.current().nextDouble();

		private int maxMessageBytes = 1024 * 1024;

		private Builder() {
		}

		/** @param capacity incoming queue capacity (default 1000) @return this builder */
		public Builder incomingQueueCapacity(int capacity) {
			if (capacity < 1) {
				throw new IllegalArgumentException("incoming queue capacity must be at least 1, was " + capacity);
			}
			this.incomingQueueCapacity = capacity;
			return this;
		}

		/** @param options default options of subscribers and sinks (default 1000, drop) @return this builder */
		public Builder subscriberOptions(SubscriberOptions options) {
			this.subscriberOptions = Objects.requireNonNull(options, "subscriberOptions");
			return this;
		}

		/** @param options options of each sink's correlator (default client-go's) @return this builder */
		public Builder correlatorOptions(CorrelatorOptions options) {
			this.correlatorOptions = Objects.requireNonNull(options, "correlatorOptions");
			return this;
		}

		/** @param policy retry attempts and delay (default 12, 10 s) @return this builder */
		public Builder retryPolicy(RetryPolicy policy) {
			this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
			return this;
		}

		/**
		 * The clock for event timestamps and names (the correlator has its own, in {@link CorrelatorOptions}).
		 * @param clock the clock (default system UTC)
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = Objects.requireNonNull(clock, "clock");
			return this;
		}

		/** @param sleeper waits between retries (default a real, cancellable sleeper) @return this builder */
		public Builder sleeper(Sleeper sleeper) {
			this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
			return this;
		}

		/** @param jitter uniform numbers in [0,1) for the first retry (default random) @return this builder */
		public Builder jitter(DoubleSupplier jitter) {
			this.jitter = Objects.requireNonNull(jitter, "jitter");
			return this;
		}

		/**
		 * Messages longer than this many UTF-8 bytes are dropped as invalid input (client-go has no limit for
		 * core/v1; the API server and etcd refuse objects over about 1.5 MiB).
		 * @param maxMessageBytes the limit (default 1 MiB)
		 * @return this builder
		 */
		public Builder maxMessageBytes(int maxMessageBytes) {
			if (maxMessageBytes < 1) {
				throw new IllegalArgumentException("maxMessageBytes must be at least 1, was " + maxMessageBytes);
			}
			this.maxMessageBytes = maxMessageBytes;
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
