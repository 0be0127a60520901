package io.github.kubeevents;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.Sink;

import org.slf4j.LoggerFactory;

/**
 * A subscriber that writes events to a sink (client-go's {@code StartRecordingToSink} watcher), for either events
 * API: on the broadcaster's distribution thread ({@link InlineSink}; it has no queue and no thread of its own) it
 * decides what to write (correlation, series) and hands the writes to its {@link SinkWriters}, which run them with
 * the sink's {@link WriteAttempts}; when the writer queue of a write is full, the distribution thread waits for room
 * there (backpressure; see {@link SinkWriters}). So {@link #onEvent} and {@link #tick} must never wait for anything
 * else: every subscriber of the broadcaster waits with them.
 *
 * <p>Its {@link InlineSink} calls, in this order, from the distribution thread unless said otherwise:
 * {@link #resume()} and {@link #started()} at every start (the starting thread, before the distribution thread
 * runs); {@link #onEvent} per event and {@link #tick(Instant)} at least once a second of real time;
 * {@link #cancel()} (any thread) when a stop or shutdown begins; {@link #beforeStop(boolean)} at the stop marker,
 * once the events before the stop are handled (not after the deadline); {@link #stopped(boolean)} right after it,
 * which waits for the writers (on a short-lived thread of its own when the subscription is closed while running);
 * {@link #abort()} (any thread) if the deadline passes; {@link #closed()} once, when its subscription was closed.
 *
 * <p>Thread-safe.
 */
abstract class SinkSubscriber implements EventHandler {

	protected final String name;

	protected final SinkWriters writers;

	protected final WriteAttempts attempts;

	protected final EventCounters counters;

	protected final EventNaming naming;

	/** The SPI sink written to, for its lifecycle calls. */
	private final Sink<?, ?> sink;

	private volatile ApiChoice choice;

	private volatile Runnable whenClosed = () -> {
	};

	/** Whether the deadline of the current stop passed ({@link #abort()}) ; cleared by {@link #resume()}. */
	private volatile boolean aborted;

	SinkSubscriber(String name, ApiChoice choice, Sink<?, ?> sink, SinkSettings settings, EventCounters counters,
			EventNaming naming) {
		this.name = name;
		this.naming = naming;
		this.choice = choice;
		this.sink = sink;
		this.counters = counters;
		this.writers = new SinkWriters(name, settings.writers(), settings.writerQueueCapacity());
		this.attempts = new WriteAttempts(choice.api(), settings, counters);
	}

	/**
	 * A subscriber that writes through {@code primary}'s writers and attempts (the {@link SwitchingSinkSubscriber},
	 * which builds none of its own): its {@link #writers()} are {@code primary}'s.
	 */
	SinkSubscriber(ApiChoice choice, SinkSubscriber primary) {
		this.name = primary.name;
		this.naming = primary.naming;
		this.choice = choice;
		this.sink = primary.sink;
		this.counters = primary.counters;
		this.writers = primary.writers;
		this.attempts = primary.attempts;
	}

	/** A start: start the writer threads. */
	void started() {
		this.writers.start();
	}

	/**
	 * Periodic work, at least once a second of real time (and before events, as the subclass decides).
	 * @param now the broadcaster's clock
	 */
	void tick(Instant now) {
	}

	/** A stop or shutdown began: nothing waits any more; each pending write gets one attempt. Any thread. */
	void cancel() {
		this.attempts.cancel();
		this.sink.cancel();
	}

	/**
	 * The events before a stop or shutdown are handled: submit what must be written before the writers end.
	 * @param shutdown whether the broadcaster shuts down for good
	 */
	void beforeStop(boolean shutdown) {
	}

	/**
	 * The run ends: the writers finish their queues, then the sink releases what is idle.
	 * @param shutdown whether the broadcaster shuts down for good (what the subscriber still holds is then lost, and
	 * counted as {@code shutdown} drops)
	 */
	void stopped(boolean shutdown) {
		this.writers.closeAndJoin();
		this.sink.stopped();
	}

	/**
	 * A stop: writes what each stream of {@code streams} carries (occurrences that lost the precondition race and had
	 * no later write of their stream to ride on). A write that fails leaves them carried: counted at shutdown by
	 * {@link #countCarried}, kept for the next start at a stop.
	 */
	<W> void submitCarried(StreamWriter<W, ?> streams) {
		if (!this.naming.requested()) {
			// only the deterministic-names mode writes through the streams
			return;
		}
		// on every writer thread, behind the writes queued before: one of those may still lose its race and carry
		this.writers.submitToEach((thread) -> new SinkWriters.Write() {

			@Override
			public void run() {
				for (StreamWriter.Carried<W> carried : streams.carried()) {
					if (SinkSubscriber.this.writers.threadOf(SinkWriters.shard(carried.recorded())) == thread) {
						SinkSubscriber.this.attempts.write(carried.recorded(), 0,
								(requests) -> streams.writeCarried(carried, requests));
					}
				}
			}

			@Override
			public void dropped(DropReason reason) {
				// what stays carried is counted by countCarried at shutdown
			}

		});
	}

	/** At shutdown: the occurrences {@code streams} still carry become {@code shutdown} drops. */
	<W> void countCarried(StreamWriter<W, ?> streams) {
		List<StreamWriter.Carried<W>> carried = streams.carried();
		countUnwritten(carried, StreamWriter.Carried::recorded, StreamWriter.Carried::occurrences,
				"occurrence(s) that lost the race for their Event to another writer were");
		carried.forEach(streams::forget);
	}

	/**
	 * At shutdown: what a subscriber still holds and no write will carry becomes {@code shutdown} drops, each item
	 * counted once per occurrence it stands for, with one WARN line for all of them ({@code "<n> <what> not written
	 * before the shutdown ended"}).
	 */
	<T> void countUnwritten(Iterable<T> held, Function<T, RecordedEvent> recorded, ToIntFunction<T> occurrences,
			String what) {
		int unwritten = 0;
		for (T item : held) {
			int count = occurrences.applyAsInt(item);
			this.counters.drop(DropReason.SHUTDOWN, recorded.apply(item), count);
			unwritten += count;
		}
		if (unwritten > 0) {
			LoggerFactory.getLogger(getClass())
				.warn("{} {} not written before the shutdown ended (counted as shutdown drops)", unwritten, what);
		}
	}

	/** Whether the deadline of the current stop passed. */
	boolean aborted() {
		return this.aborted;
	}

	/**
	 * Sets what to do once the subscription was closed and the subscriber is done for good.
	 * @param action the action
	 */
	void whenClosed(Runnable action) {
		this.whenClosed = action;
	}

	/** The subscription was closed and its writers are done (or never ran again): no call follows. */
	void closed() {
		this.whenClosed.run();
	}

	/** The deadline passed: cancel the requests in flight and count what is left. Any thread. */
	void abort() {
		this.aborted = true;
		cancel();
		this.writers.abort();
		this.sink.abort();
	}

	/** The recorder starts again after a stop: writes wait and retry as usual again. Any thread. */
	void resume() {
		this.aborted = false;
		this.attempts.resume();
		this.sink.resume();
	}

	/**
	 * Waits for the writer threads until the deadline.
	 * @param deadlineNanos the {@link System#nanoTime()} deadline
	 * @return {@code true} when they all ended
	 */
	boolean awaitTermination(long deadlineNanos) {
		return this.writers.join(deadlineNanos);
	}

	/** The API it writes and why. */
	ApiChoice choice() {
		return this.choice;
	}

	void choice(ApiChoice choice) {
		this.choice = choice;
	}

	/** How it names its Events. */
	EventNaming naming() {
		return this.naming;
	}

	/** Its writes so far. */
	RecorderStats.Writes writes() {
		return this.attempts.stats();
	}

	/** Refusals since its last written event. */
	long rejectedInARow() {
		return this.attempts.rejectedInARow();
	}

	/**
	 * The verbs RBAC refuses on the API this sink writes now, as its access probe found them (empty without a
	 * probe, or when none is known refused).
	 */
	List<RecorderStats.MissingAccess> missingAccessNow() {
		return List.of();
	}

	/** Its writer queues, for the subscriber's gauges. */
	SinkWriters writers() {
		return this.writers;
	}

	/** Its snapshot, with the cache entries about the objects {@code filter} accepts. */
	abstract RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter);

}
