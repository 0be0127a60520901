package io.github.kubeevents;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-process fan-out (apimachinery's {@code watch.Broadcaster}): one bounded incoming queue and one
 * distribution thread ({@code kubeevents-broadcaster}) that hands each event, in publish order, to every
 * {@link SubscriberQueue}.
 *
 * <p>Changes to the subscriber set travel through the incoming queue as commands, so they are serialised with
 * distribution (apimachinery's {@code blockQueue}): a subscriber added now receives exactly the events
 * published after it was added, no history and no gaps. Before {@link #start()} subscribers are added directly
 * and receive everything published before the start.
 *
 * <p>The distribution thread also flushes the drop summaries at least once a second.
 *
 * <p>Thread-safe.
 */
final class Fanout {

	private static final Logger logger = LoggerFactory.getLogger(Fanout.class);

	private static final Object SHUTDOWN = new Object();

	private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

	private static final long FLUSH_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final int capacity;

	private final EventCounters counters;

	private final LinkedBlockingQueue<Object> incoming = new LinkedBlockingQueue<>();

	private final AtomicInteger queued = new AtomicInteger();

	private final AtomicReference<BroadcasterState> state = new AtomicReference<>(BroadcasterState.NEW);

	/** Subscribers receiving events; changed on the distribution thread (or under the lock before start). */
	private final List<SubscriberQueue> subscribers = new CopyOnWriteArrayList<>();

	/** Every subscriber whose thread was started and may still run, so shutdown can wait for all of them. */
	private final List<SubscriberQueue> started = new CopyOnWriteArrayList<>();

	private final Object lock = new Object();

	private final Thread distributor;

	private volatile boolean distributionDone;

	Fanout(int capacity, EventCounters counters) {
		this.capacity = capacity;
		this.counters = counters;
		this.distributor = new Thread(this::distribute, "kubeevents-broadcaster");
		this.distributor.setDaemon(true);
	}

	BroadcasterState state() {
		return this.state.get();
	}

	/** Enqueues without blocking; counts a drop when stopped or full. */
	boolean publish(RecordedEvent event) {
		BroadcasterState current = this.state.get();
		if (current.isShutdown()) {
			this.counters.drop(DropReason.SHUTDOWN, event);
			if (current == BroadcasterState.TERMINATED) {
				// no distribution thread is left to write the summary
				this.counters.flush(false);
			}
			return false;
		}
		if (this.queued.incrementAndGet() > this.capacity) {
			this.queued.decrementAndGet();
			this.counters.drop(DropReason.QUEUE_FULL, event);
			return false;
		}
		this.counters.accepted();
		this.incoming.add(event);
		if (this.distributionDone && this.incoming.remove(event)) {
			// lost the race with shutdown: the distribution thread has already left
			this.queued.decrementAndGet();
			this.counters.unaccepted();
			this.counters.drop(DropReason.SHUTDOWN, event);
			return false;
		}
		return true;
	}

	/**
	 * Adds a subscriber. Returns once it is registered; before {@link #start()} its thread starts with the
	 * fan-out.
	 * @return {@code false} when the fan-out has shut down (the subscriber is then never started)
	 */
	boolean subscribe(SubscriberQueue subscriber) {
		FutureTask<Void> command;
		synchronized (this.lock) {
			BroadcasterState current = this.state.get();
			if (current.isShutdown()) {
				return false;
			}
			if (current == BroadcasterState.NEW) {
				this.subscribers.add(subscriber);
				return true;
			}
			command = new FutureTask<>(() -> startSubscriber(subscriber), null);
			this.incoming.add(command);
		}
		await(command);
		if (command.isCancelled()) {
			subscriber.closeInput();
			return false;
		}
		return true;
	}

	/** Removes a subscriber; it finishes its queue, then its thread ends. */
	void unsubscribe(SubscriberQueue subscriber) {
		synchronized (this.lock) {
			BroadcasterState current = this.state.get();
			if (current == BroadcasterState.NEW) {
				this.subscribers.remove(subscriber);
				subscriber.closeInput();
			}
			else if (current == BroadcasterState.RUNNING) {
				this.incoming.add(new FutureTask<>(() -> {
					this.subscribers.remove(subscriber);
					subscriber.closeInput();
				}, null));
			}
		}
	}

	/** Starts the distribution thread and every subscriber added so far. Idempotent. */
	void start() {
		synchronized (this.lock) {
			if (this.state.compareAndSet(BroadcasterState.NEW, BroadcasterState.RUNNING)) {
				startThreads();
			}
		}
	}

	/**
	 * Stops accepting events and lets the distribution thread drain. Returns {@code false} when shutdown had
	 * already begun (the caller then must not wait again).
	 */
	boolean beginShutdown() {
		synchronized (this.lock) {
			BroadcasterState previous = this.state.get();
			if (previous.isShutdown()) {
				return false;
			}
			this.state.set(BroadcasterState.DRAINING);
			this.incoming.add(SHUTDOWN);
			if (previous == BroadcasterState.NEW) {
				// drain what was published before start to the subscribers added before start
				startThreads();
			}
			return true;
		}
	}

	/**
	 * The rest of a shutdown that {@link #beginShutdown()} began: subscribers stop waiting between retries, the
	 * queues drain until the deadline; past it the threads are interrupted and requests in flight cancelled, and
	 * threads that still have not ended a second later are abandoned with their queues counted ({@link FanoutDrain}).
	 * @param timeout the deadline
	 * @param cancelWaits ends every wait between retries
	 * @return {@code true} when everything drained in time
	 */
	boolean drain(Duration timeout, Runnable cancelWaits) {
		boolean clean = new FanoutDrain(this.distributor, this.started).drain(timeout, cancelWaits);
		this.state.set(BroadcasterState.TERMINATED);
		return clean;
	}

	List<SubscriberQueue> subscribers() {
		return this.subscribers;
	}

	List<SubscriberQueue> startedSubscribers() {
		return this.started;
	}

	int depth() {
		return Math.max(0, this.queued.get());
	}

	int capacity() {
		return this.capacity;
	}

	private void startThreads() {
		this.distributor.start();
		for (SubscriberQueue subscriber : this.subscribers) {
			this.started.add(subscriber);
			subscriber.start();
		}
	}

	private void startSubscriber(SubscriberQueue subscriber) {
		this.subscribers.add(subscriber);
		this.started.removeIf((s) -> !s.isAlive());
		this.started.add(subscriber);
		subscriber.start();
	}

	private void distribute() {
		long lastFlush = System.nanoTime();
		try {
			while (true) {
				Object item = this.incoming.poll(FLUSH_INTERVAL_NANOS, TimeUnit.NANOSECONDS);
				long now = System.nanoTime();
				if (item == null || now - lastFlush >= FLUSH_INTERVAL_NANOS) {
					lastFlush = now;
					this.counters.flush(false);
				}
				if (item == null) {
					continue;
				}
				if (item == SHUTDOWN) {
					break;
				}
				if (item instanceof FutureTask<?> command) {
					command.run();
					continue;
				}
				this.queued.decrementAndGet();
				offerToAll((RecordedEvent) item);
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
					this.queued.decrementAndGet();
					this.counters.drop(DropReason.SHUTDOWN, (RecordedEvent) left);
				}
			}
			for (SubscriberQueue subscriber : this.subscribers) {
				subscriber.closeInput();
			}
		}
	}

	private void offerToAll(RecordedEvent event) throws InterruptedException {
		Iterator<SubscriberQueue> subscribers = this.subscribers.iterator();
		while (subscribers.hasNext()) {
			try {
				subscribers.next().offer(event);
			}
			catch (InterruptedException ex) {
				// the deadline passed while waiting for room (FullQueuePolicy.WAIT): the event is lost for this
				// subscriber and for those not reached yet
				this.counters.drop(DropReason.SHUTDOWN, event);
				while (subscribers.hasNext()) {
					subscribers.next();
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
