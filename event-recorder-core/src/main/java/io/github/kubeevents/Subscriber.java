package io.github.kubeevents;

import java.util.Objects;
import java.util.function.Consumer;

import io.github.kubeevents.introspect.RecorderStats;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

/**
 * One subscriber of the {@link Fanout}, as the distribution thread sees it: a user's handler behind a queue and a
 * thread of its own ({@link SubscriberQueue}), or a sink run on the distribution thread itself ({@link InlineSink}).
 *
 * <p>The fan-out calls {@link #start()} under its lock before the distribution thread runs (or, for a subscriber
 * added while running, on that thread); {@link #offer}, {@link #tick()} and {@link #closeInput(boolean)} on the
 * distribution thread; {@link #removed(boolean)} when the subscription was closed; {@link #cancel()},
 * {@link #abort()}, {@link #join(long)} and {@link #drainAbandoned()} from the stopping thread.
 *
 * <p>This class owns the subscription's end: {@link #close()} unsubscribes once, and whichever of the close and the
 * end of a run comes second finishes what a closed subscriber leaves ({@link #closedWhileIdle()}), decided under
 * the subscriber's monitor.
 *
 * <p>Thread-safe.
 */
abstract class Subscriber implements Subscription {

	private final String name;

	/** Takes this subscriber out of its fan-out ({@link Fanout#unsubscribe}). */
	private final Consumer<Subscriber> unsubscribe;

	final EventCounters counters;

	/** Whether {@link #close()} was called. */
	volatile boolean closedByUser;

	/** Whether the broadcaster shut down while this subscriber was in it. */
	volatile boolean terminated;

	Subscriber(String name, Consumer<Subscriber> unsubscribe, EventCounters counters) {
		this.name = Objects.requireNonNull(name, "name");
		this.unsubscribe = unsubscribe;
		this.counters = counters;
	}

	/** Starts receiving, the first time or again after a stop. Does nothing once closed or shut down. */
	abstract void start();

	/** Hands one event over; distribution thread only. */
	abstract void offer(RecordedEvent event) throws InterruptedException;

	/** Periodic work, at least once a second of real time; distribution thread only. */
	abstract void tick();

	/**
	 * No more events for now (the end marker of a stop or shutdown); distribution thread only.
	 * @param shutdown whether the broadcaster shuts down for good
	 */
	abstract void closeInput(boolean shutdown);

	/**
	 * The subscription was closed and is out of the subscriber list.
	 * @param onDistributor whether on the running distribution thread (serialised with its events), or on the
	 * closing thread while nothing distributes or a stop is under way
	 */
	abstract void removed(boolean onDistributor);

	/** A stop or shutdown began: nothing waits any more. Any thread. */
	abstract void cancel();

	/** The stop or shutdown deadline passed: stop handling and count what is left. Any thread. */
	abstract void abort();

	/**
	 * Waits for the subscriber's threads until the deadline.
	 * @param deadlineNanos the {@link System#nanoTime()} deadline
	 * @return {@code true} when they all ended
	 */
	abstract boolean join(long deadlineNanos);

	/** Whether the deadline of the current stop passed; cleared by the next start. */
	abstract boolean aborted();

	/** Whether a thread of this subscriber may still run. */
	abstract boolean isAlive();

	/** Its threads ignored the abort and are abandoned: count what is left now. */
	abstract void drainAbandoned();

	/** Whether a start waits for a thread the last stop abandoned. */
	abstract boolean restartPending();

	/** Its queues, for stats and the endpoint. */
	abstract RecorderStats.Subscriber stats();

	/** The sink it writes to, or {@code null} for a user's handler. */
	abstract @Nullable SinkSubscriber sink();

	/**
	 * Whether a run is under way that will finish what a closed subscriber leaves; called under this subscriber's
	 * monitor.
	 */
	abstract boolean runsLocked();

	/** Closed while no run is under way: finish what a closed subscriber leaves, from the closing thread. */
	abstract void closedWhileIdle();

	/**
	 * Hands one event to a handler, unless the deadline passed ({@code shutdown} drop); a handler that throws drops
	 * the event ({@code invalid_input}).
	 */
	final void handle(EventHandler handler, RecordedEvent event) {
		if (aborted()) {
			this.counters.drop(DropReason.SHUTDOWN, event);
			return;
		}
		try {
			handler.onEvent(event);
		}
		catch (Throwable ex) {
			this.counters.drop(DropReason.INVALID_INPUT, event);
			LoggerFactory.getLogger(getClass())
				.error("Event subscriber '{}' failed on {} (dropped, counted as invalid_input)", this.name,
						event.describe(), ex);
		}
	}

	@Override
	public final String name() {
		return this.name;
	}

	@Override
	public final boolean isActive() {
		return !this.closedByUser && !this.terminated;
	}

	@Override
	public final void close() {
		boolean idle;
		synchronized (this) {
			if (this.closedByUser) {
				return;
			}
			this.closedByUser = true;
			idle = !runsLocked();
		}
		this.unsubscribe.accept(this);
		if (idle) {
			closedWhileIdle();
		}
	}

}
