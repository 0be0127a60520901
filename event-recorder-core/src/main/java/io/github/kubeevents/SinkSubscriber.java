package io.github.kubeevents;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.kubernetes.client.common.KubernetesObject;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

/**
 * The steps of a sink (client-go's {@code StartRecordingToSink} watcher), for either events API: what to write.
 * On the broadcaster's distribution thread ({@link InlineSink}) it decides what to write (correlation, series) and
 * submits the writes to its {@link SinkRun}, whose writer threads make the requests; at a stop it submits what must
 * be written before the writers end, and on the sink's ending thread it ends its runs and counts what a shutdown
 * leaves. The runs own everything that lives from a start to a stop (writers, retries, the stop's facts): the
 * {@link InlineSink} starts, cancels, aborts and joins them.
 *
 * <p>{@link #onEvent}, {@link #tick} and {@link #beforeStop} run on the distribution thread and must never wait or
 * make a request: every subscriber of the broadcaster would wait with them. A submit never waits (a full backlog
 * drops the write, counted for this sink); what needs the API server (RBAC answers included) is asked on a writer
 * thread.
 *
 * <p>The calls, in this order: {@link #onEvent} per event and {@link #tick(Instant)} at least once a second of real
 * time; {@link #beforeStop(boolean)} at the stop marker, once the events before the stop are handled (not after the
 * deadline); {@link #end(boolean)} right after it, on the sink's ending thread; {@link #closed()} once, when its
 * subscription was closed.
 *
 * <p>Thread-safe.
 */
abstract class SinkSubscriber implements EventHandler {

	protected final String name;

	protected final EventCounters counters;

	protected final EventNaming naming;

	/** The API it writes and why, as chosen when it was built. */
	protected final ApiChoice choice;

	/** The RBAC probe whose refused verbs the stats and snapshot show; {@code null} for none. */
	private final @Nullable EventsAccess access;

	private volatile Runnable whenClosed = () -> {
	};

	SinkSubscriber(String name, ApiChoice choice, EventCounters counters, EventNaming naming,
			@Nullable EventsAccess access) {
		this.name = name;
		this.choice = choice;
		this.counters = counters;
		this.naming = naming;
		this.access = access;
	}

	/**
	 * Periodic work, at least once a second of real time (and before events, as the subclass decides).
	 * @param now the broadcaster's clock
	 */
	void tick(Instant now) {
	}

	/**
	 * The events before a stop or shutdown are handled: submit what must be written before the writers end.
	 * Distribution thread.
	 * @param shutdown whether the broadcaster shuts down for good
	 */
	void beforeStop(boolean shutdown) {
	}

	/**
	 * The run ends, on the sink's ending thread: the runs' writers finish their backlog and end (see
	 * {@link SinkRun#end()}); at a shutdown what the subscriber still holds is lost and counted as {@code shutdown}
	 * drops, at a stop it is kept for the next start.
	 * @param shutdown whether the broadcaster shuts down for good
	 */
	abstract void end(boolean shutdown);

	/**
	 * What the subscriber still holds and no write will carry becomes {@code shutdown} drops: at the end of a
	 * shutdown's run, and when a shutdown or close comes while the sink is stopped or its stop still ends. Any thread
	 * but a writer's.
	 */
	abstract void countHeld();

	/** Every run of the sink, for the lifecycle (start, cancel, abort, join): the one it writes through. */
	List<SinkRun<?, ?>> runs() {
		return List.of(current());
	}

	/** The run written through now: its backlog is the sink's gauges, its failures the sink's health. */
	abstract SinkRun<?, ?> current();

	/** The API it writes and why. */
	ApiChoice choice() {
		return this.choice;
	}

	/**
	 * On writer thread {@code thread} at a stop: writes what the streams it writes carry (deterministic names:
	 * occurrences that lost the race for their Event and had no later write of their stream to ride on). A write
	 * that fails leaves them carried: counted at shutdown by {@link #countCarried}, kept for the next start at a stop.
	 */
	static <W extends SinkWrite, E extends KubernetesObject> void writeCarried(int thread, SinkRun<E, ?> run,
			StreamWriter<W, E, ?> streams) {
		for (StreamWriter.Carried<W> carried : streams.carried()) {
			if (run.writers().threadOf(carried.recorded()) == thread) {
				run.attempts().write(carried, carried.recorded(), 0, streams::writeCarried);
			}
		}
	}

	/** At shutdown: the occurrences {@code streams} still carry become {@code shutdown} drops. */
	<W extends SinkWrite> void countCarried(StreamWriter<W, ?, ?> streams) {
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

	/** Sets what to do once the subscription was closed and the subscriber is done for good. */
	void whenClosed(Runnable action) {
		this.whenClosed = action;
	}

	/** The subscription was closed and its writers are done (or never ran again): no call follows. */
	void closed() {
		this.whenClosed.run();
	}

	/** How it names its Events. */
	EventNaming naming() {
		return this.naming;
	}

	/** Its writes so far, over every run. */
	RecorderStats.Writes writes() {
		RecorderStats.Writes total = RecorderStats.Writes.ZERO;
		for (SinkRun<?, ?> run : runs()) {
			total = total.plus(run.writes());
		}
		return total;
	}

	/**
	 * The verbs RBAC refuses on the API this sink writes now, as its access probe found them (empty without a
	 * probe, or when none is known refused).
	 */
	List<RecorderStats.MissingAccess> missingAccessNow() {
		return (this.access != null) ? this.access.missingAccess(this.choice.api()) : List.of();
	}

	/** Every verb the probe found refused, both APIs; empty without a probe. */
	List<RecorderStats.MissingAccess> missingAccess() {
		return (this.access != null) ? this.access.missingAccess() : List.of();
	}

	/** Its snapshot, with the cache entries about the objects {@code filter} accepts. */
	abstract RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter);

}
