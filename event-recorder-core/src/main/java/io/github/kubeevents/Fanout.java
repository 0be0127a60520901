package io.github.kubeevents;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-process fan-out (apimachinery's {@code watch.Broadcaster}) and its lifecycle: one bounded incoming queue
 * ({@link IncomingQueue}: a recording thread does not wake the distribution thread for each event) and one
 * distribution thread ({@code kubeevents-broadcaster}) that hands each event, in publish order, to every
 * {@link Subscriber}: into the queue of each user's handler ({@link SubscriberQueue}, which has a thread of its
 * own), and through the step of each sink ({@link InlineSink}: correlation or series, run on this thread, which
 * hands the writes to the sink's writer threads). So an event from a caller to a sink's writer crosses two queues
 * (the incoming queue and the sink's backlog) and one thread between them.
 *
 * <p><b>The cost of running sinks here:</b> the distribution thread does a sink's step for every event (about 1-2 µs
 * for a core/v1 correlator) and never waits for a sink: a sink's backlog that is full drops the write for that sink
 * alone ({@code queue_full}, {@link SinkWriters}), so a slow or frozen API server holds up neither user handlers nor
 * other sinks.
 *
 * <p>Changes to the subscriber set travel through the incoming queue as commands, so they are serialised with
 * distribution (apimachinery's {@code blockQueue}): a subscriber added while running receives exactly the events
 * published after it was added, no history and no gaps. While not running, subscribers are added directly and
 * receive what is queued when distribution starts.
 *
 * <p><b>Lifecycle</b> ({@link BroadcasterState}): {@link #start()} runs the distribution thread and every
 * subscriber's threads (a handler's thread, a sink's writers); {@link #stop(Duration, boolean)} puts a marker into
 * the incoming queue, lets the threads distribute and handle everything queued before it (a sink submits its final
 * writes at the marker, and the sink's ending thread waits for its writers, not the distribution thread), then ends
 * them, within the deadline; events published while stopped wait in the incoming queue (bounded) for the next start.
 * A final stop (shutdown) also refuses every later event. Past the deadline the threads are interrupted and their
 * sinks' requests in flight cancelled; what is left is counted as {@code shutdown} drops, and threads that still
 * have not ended {@link #ABORT_GRACE} later are abandoned with their queues counted.
 *
 * <p>The distribution thread also flushes the drop summaries and runs the sinks' periodic work
 * ({@link Subscriber#tick()}) at least once a second of real time, events or not.
 *
 * <p>Thread-safe.
 */
final class Fanout {

	private static final Logger logger = LoggerFactory.getLogger(Fanout.class);

	/** Stopping and shutting down are the broadcaster's, so are their log lines. */
	private static final Logger lifecycleLogger = RecorderLog.LOGGER;

	/** The end of what a stop distributes; what follows waits for the next start. */
	private static final Object STOP = new Object();

	/** The end of everything: what follows is refused. */
	private static final Object SHUTDOWN = new Object();

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

	/** How long threads that ignored the deadline get after their requests were cancelled. */
	private static final Duration ABORT_GRACE = Duration.ofSeconds(1);

	private static final long FLUSH_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final EventCounters counters;

	private final IncomingQueue incoming;

	private final AtomicReference<BroadcasterState> state = new AtomicReference<>(BroadcasterState.NEW);

	/** Subscribers receiving events; changed on the distribution thread, or under the lock while not running. */
	private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();

	/** Every subscriber whose thread was started and may still run, so stopping can wait for all of them. */
	private final List<Subscriber> started = new CopyOnWriteArrayList<>();

	/** Serialises start, stop and subscribe. */
	private final Object lock = new Object();

	/** The current distribution thread; guarded by {@link #lock}. */
	private @Nullable Thread distributor;

	/**
	 * What waits for the distribution thread the last stop abandoned: {@code "start"} or {@code "shutdown"} (its
	 * drain), or {@code null}; guarded by {@link #lock}. Two distribution threads on the single-consumer incoming
	 * queue would corrupt it, and a new one would meet the stop marker the old one has not taken yet.
	 */
	private @Nullable String pending;

	/** The deadline of a shutdown that waits for the abandoned thread; guarded by {@link #lock}. */
	private Duration pendingTimeout = Duration.ZERO;

	Fanout(int capacity, EventCounters counters) {
		this.incoming = new IncomingQueue(capacity);
		this.counters = counters;
	}

	BroadcasterState state() {
		return this.state.get();
	}

	/**
	 * The state as stats and health report it: {@link BroadcasterState#STARTING} also while running when a
	 * subscriber's start waits for the thread the last stop abandoned (that subscriber handles nothing yet).
	 */
	BroadcasterState reportedState() {
		BroadcasterState current = this.state.get();
		if (current == BroadcasterState.RUNNING) {
			for (Subscriber subscriber : this.subscribers) {
				if (subscriber.restartPending()) {
					return BroadcasterState.STARTING;
				}
			}
		}
		return current;
	}

	/**
	 * Enqueues without blocking and, in the common case, without a system call; counts a drop when shut down or
	 * full. Events wait while not running. An event that races the end of the final distribution is accepted and
	 * then counted as a {@code shutdown} drop, like any event left at shutdown.
	 */
	boolean publish(RecordedEvent event) {
		if (this.state.get().isShutdown()) {
			this.counters.dropAfterShutdown(event);
			return false;
		}
		if (!this.incoming.offer(event)) {
			this.counters.drop(DropReason.QUEUE_FULL, event);
			return false;
		}
		this.counters.accepted();
		return true;
	}

	/**
	 * Adds a subscriber. Returns once it is registered; while not running, its thread starts with the next start.
	 * @return {@code false} when the fan-out has shut down (the subscriber is then never started)
	 */
	boolean subscribe(Subscriber subscriber) {
		if (this.state.get().isShutdown()) {
			return false;
		}
		FutureTask<Void> command;
		synchronized (this.lock) {
			BroadcasterState current = this.state.get();
			if (current.isShutdown()) {
				return false;
			}
			if (current != BroadcasterState.RUNNING) {
				this.subscribers.add(subscriber);
				return true;
			}
			command = new FutureTask<>(() -> startSubscriber(subscriber), null);
			if (putCommand(command)) {
				await(command);
			}
			else {
				command.cancel(false);
			}
		}
		if (command.isCancelled()) {
			subscriber.closeInput(true);
			return false;
		}
		return true;
	}

	/**
	 * Removes a subscriber; it finishes its queue, then its thread ends (a sink: its final writes, then its writers
	 * end). Does not wait for the removal (a full incoming queue leaves room for commands, so this waits only if
	 * dozens of commands queue beside it).
	 */
	void unsubscribe(Subscriber subscriber) {
		FutureTask<Void> removal = new FutureTask<>(() -> {
			this.subscribers.remove(subscriber);
			subscriber.removed(true);
		}, null);
		if (this.state.get() == BroadcasterState.RUNNING && putCommand(removal)) {
			return;
		}
		this.subscribers.remove(subscriber);
		subscriber.removed(false);
	}

	/**
	 * Starts the distribution thread and every subscriber's thread. Idempotent; nothing after shutdown (returns at
	 * once, even while the shutdown still drains); after a stop that is still under way, once it is done. When the
	 * last stop abandoned its distribution thread and that thread still runs, the state is
	 * {@link BroadcasterState#STARTING} and distribution starts as soon as that thread ends.
	 */
	void start() {
		if (this.state.get().isShutdown()) {
			return;
		}
		synchronized (this.lock) {
			BroadcasterState current = this.state.get();
			if (current == BroadcasterState.NEW || current == BroadcasterState.STOPPED) {
				if (waitForAbandoned("start", Duration.ZERO)) {
					this.state.set(BroadcasterState.STARTING);
					lifecycleLogger.warn("Event broadcaster starts once its distribution thread, abandoned by the last"
							+ " stop at its deadline, has ended; events are queued until then");
					return;
				}
				startThreads();
				this.state.set(BroadcasterState.RUNNING);
			}
		}
	}

	/**
	 * Whether the distribution thread the last stop abandoned still runs; if so, {@code what} waits for it (a
	 * daemon thread joins it, then carries it out). Called under the lock.
	 */
	private boolean waitForAbandoned(String what, Duration timeout) {
		Thread previous = this.distributor;
		if (previous == null || !previous.isAlive()) {
			return false;
		}
		boolean waiting = this.pending != null;
		this.pending = what;
		this.pendingTimeout = timeout;
		if (!waiting) {
			Thread waiter = new Thread(() -> {
				try {
					previous.join();
				}
				catch (InterruptedException ex) {
					return;
				}
				resumePending();
			}, "kubeevents-broadcaster-resume");
			waiter.setDaemon(true);
			waiter.start();
		}
		return true;
	}

	/** The abandoned distribution thread ended: what waited for it (a start, or a shutdown's drain) runs now. */
	private void resumePending() {
		synchronized (this.lock) {
			String what = this.pending;
			this.pending = null;
			if ("start".equals(what) && this.state.get() == BroadcasterState.STARTING) {
				startThreads();
				this.state.set(BroadcasterState.RUNNING);
				this.counters.started();
				lifecycleLogger.info("Event broadcaster started: the distribution thread abandoned by the last stop"
						+ " has ended");
			}
			else if ("shutdown".equals(what) && this.state.get() == BroadcasterState.DRAINING) {
				startThreads();
				drain(this.pendingTimeout);
				this.state.set(BroadcasterState.TERMINATED);
			}
		}
	}

	/**
	 * Stops: distributes and handles what was queued before this call (each pending sink write gets one attempt,
	 * waits between retries end), then ends every thread, within {@code timeout}. A stop that is not final keeps
	 * the subscribers, their caches and what is published meanwhile for the next {@link #start()}.
	 * @param shutdown whether this is the final stop (later events are refused, subscriptions end)
	 * @return {@code true} when everything was handled and every thread ended within the deadline, or when a
	 * stop that is not final finds it already stopped; {@code false} when the deadline passed, or when shutdown
	 * had begun before this call
	 */
	boolean stop(Duration timeout, boolean shutdown) {
		if (this.state.get().isShutdown()) {
			return false;
		}
		synchronized (this.lock) {
			BroadcasterState previous = this.state.get();
			if (previous == BroadcasterState.STARTING && !shutdown) {
				// the start never happened: nothing to stop
				this.pending = null;
				this.state.set(BroadcasterState.STOPPED);
				return true;
			}
			if (previous.isShutdown() || (!shutdown && previous != BroadcasterState.RUNNING)) {
				return previous == BroadcasterState.STOPPED;
			}
			this.state.set(shutdown ? BroadcasterState.DRAINING : BroadcasterState.STOPPING);
			if (previous != BroadcasterState.RUNNING) {
				// shutting down while not running: distribute what is queued to the subscribers first, once the
				// distribution thread a stop abandoned has ended
				long deadline = System.nanoTime() + timeout.toNanos();
				Thread abandoned = this.distributor;
				if (abandoned != null && !Threads.join(abandoned, deadline)) {
					putCommand(SHUTDOWN);
					waitForAbandoned("shutdown", timeout);
					lifecycleLogger.warn("Event broadcaster could not shut down within {}: the distribution thread"
							+ " abandoned by the last stop still runs; what is queued is handled once it has ended",
							timeout);
					return false;
				}
				this.pending = null;
				timeout = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
				startThreads();
			}
			putCommand(shutdown ? SHUTDOWN : STOP);
			boolean clean = drain(timeout);
			this.state.set(shutdown ? BroadcasterState.TERMINATED : BroadcasterState.STOPPED);
			return clean;
		}
	}

	List<Subscriber> subscribers() {
		return this.subscribers;
	}

	/** Events (and commands) waiting in the incoming queue. */
	int depth() {
		return this.incoming.size();
	}

	int capacity() {
		return this.incoming.capacity();
	}

	/** Queues a command behind the events, using the headroom above the capacity (so a full queue delays it). */
	private boolean putCommand(Object command) {
		try {
			return this.incoming.putCommand(command, COMMAND_TIMEOUT.toNanos());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private void startThreads() {
		this.started.removeIf((subscriber) -> !subscriber.isAlive());
		for (Subscriber subscriber : this.subscribers) {
			subscriber.start();
			this.started.add(subscriber);
		}
		Thread thread = new Thread(this::distribute, "kubeevents-broadcaster");
		thread.setDaemon(true);
		this.distributor = thread;
		thread.start();
	}

	private void startSubscriber(Subscriber subscriber) {
		this.subscribers.add(subscriber);
		this.started.removeIf((s) -> !s.isAlive());
		subscriber.start();
		this.started.add(subscriber);
	}

	/**
	 * Waits for the distribution thread and every subscriber thread, escalating at the deadline as described in the
	 * class comment.
	 */
	private boolean drain(Duration timeout) {
		for (Subscriber subscriber : this.started) {
			subscriber.cancel();
		}
		boolean clean = awaitTermination(System.nanoTime() + timeout.toNanos());
		if (!clean) {
			lifecycleLogger.warn("Event broadcaster did not drain within {}; cancelling requests in flight", timeout);
			abort();
			if (!awaitTermination(System.nanoTime() + ABORT_GRACE.toNanos())) {
				lifecycleLogger.warn("Event threads still running {} after the deadline; abandoning them", ABORT_GRACE);
				for (Subscriber subscriber : this.started) {
					if (subscriber.isAlive()) {
						subscriber.drainAbandoned();
					}
				}
			}
		}
		return clean;
	}

	private boolean awaitTermination(long deadlineNanos) {
		boolean clean = (this.distributor == null) || Threads.join(this.distributor, deadlineNanos);
		for (Subscriber subscriber : this.started) {
			clean &= subscriber.join(deadlineNanos);
		}
		return clean;
	}

	private void abort() {
		if (this.distributor != null) {
			this.distributor.interrupt();
		}
		for (Subscriber subscriber : this.started) {
			subscriber.abort();
		}
	}

	private void distribute() {
		long lastFlush = System.nanoTime();
		Object end = null;
		try {
			while (true) {
				// wakes for the periodic work when no event comes: at most a second after the last
				long wait = FLUSH_INTERVAL_NANOS - (System.nanoTime() - lastFlush);
				Object item = this.incoming.poll(Math.max(wait, 1));
				long now = System.nanoTime();
				if (now - lastFlush >= FLUSH_INTERVAL_NANOS) {
					lastFlush = now;
					this.counters.flush(false);
					for (Subscriber subscriber : this.subscribers) {
						subscriber.tick();
					}
				}
				if (item == null) {
					continue;
				}
				if (item == STOP || item == SHUTDOWN) {
					end = item;
					break;
				}
				if (item instanceof FutureTask<?> command) {
					command.run();
					continue;
				}
				offerToAll((RecordedEvent) item);
			}
		}
		catch (InterruptedException ex) {
			lifecycleLogger.warn("Event distribution interrupted by the stop deadline");
			end = dropUntilEnd();
		}
		finally {
			boolean shutdown = (end != STOP);
			if (shutdown) {
				// what raced in after the final distribution is refused, commands are cancelled
				this.incoming.close(this::leftOver);
			}
			for (Subscriber subscriber : this.subscribers) {
				subscriber.closeInput(shutdown);
			}
			for (Subscriber subscriber : this.started) {
				if (subscriber.sink() != null && !this.subscribers.contains(subscriber)) {
					// a sink closed during this stop, whose run ends here
					subscriber.closeInput(shutdown);
				}
			}
		}
	}

	/** The deadline interrupted distribution: count the events before the end marker as {@code shutdown} drops. */
	private @Nullable Object dropUntilEnd() {
		Object item;
		while ((item = this.incoming.pollNow()) != null) {
			if (item == STOP || item == SHUTDOWN) {
				return item;
			}
			leftOver(item);
		}
		return null;
	}

	/** An item that will not be distributed: an event is a {@code shutdown} drop, a command is cancelled. */
	private void leftOver(Object item) {
		if (item instanceof FutureTask<?> command) {
			command.cancel(false);
		}
		else if (item != STOP && item != SHUTDOWN) {
			this.counters.drop(DropReason.SHUTDOWN, (RecordedEvent) item);
		}
	}

	private void offerToAll(RecordedEvent event) throws InterruptedException {
		Iterator<Subscriber> all = this.subscribers.iterator();
		while (all.hasNext()) {
			try {
				all.next().offer(event);
			}
			catch (InterruptedException ex) {
				// the deadline passed while waiting for room (FullQueuePolicy.WAIT): the event is lost for this
				// subscriber and for those not reached yet
				this.counters.drop(DropReason.SHUTDOWN, event);
				while (all.hasNext()) {
					all.next();
					this.counters.drop(DropReason.SHUTDOWN, event);
				}
				throw ex;
			}
		}
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

}
