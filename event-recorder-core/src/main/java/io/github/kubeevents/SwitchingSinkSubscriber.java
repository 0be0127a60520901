package io.github.kubeevents;

import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSinkException;
import org.jspecify.annotations.Nullable;

/**
 * The sink of {@code auto} once discovery chose events.k8s.io/v1: an events.k8s.io/v1 subscriber with the RBAC
 * fallback to a core/v1 one. When a write is refused with 403 and its {@link ApiFallback} decides that core/v1
 * serves better (or decided so at startup), this subscriber writes core/v1 from then on, through the core/v1
 * subscriber: the refused writes' occurrences are recorded there again (from the writer threads, through a bounded
 * queue the distribution thread drains; past its bound they are {@code queue_full} drops), and so are the occurrences
 * the series held that no write carried (handed over once, on the distribution thread). Every occurrence is thus
 * written once, by one API or the other.
 *
 * <p>Its lifecycle calls go to both subscribers (the core/v1 one starts its writers at the switch); its writer
 * queues are the events.k8s.io/v1 subscriber's, its writes the sum of both.
 *
 * <p>Thread-safe.
 */
final class SwitchingSinkSubscriber extends SinkSubscriber {

	private final EventsV1SinkSubscriber eventsV1;

	private final CoreV1SinkSubscriber coreV1;

	private final ApiFallback apiFallback;

	/** Occurrences of refused writes, for core/v1; bounded by {@link #reroutedCapacity}. */
	private final Queue<RecordedEvent> rerouted = new ConcurrentLinkedQueue<>();

	private final AtomicInteger reroutedSize = new AtomicInteger();

	private final int reroutedCapacity;

	/** Whether the series were handed over to core/v1; written by the distribution thread only. */
	private volatile boolean handedOver;

	/**
	 * @param eventsV1 the subscriber written through until the switch (built with {@code apiFallback})
	 * @param coreV1 the subscriber written through after it
	 * @param apiFallback decides the switch
	 * @param reroutedCapacity how many occurrences of refused writes may wait for the distribution thread
	 */
	SwitchingSinkSubscriber(EventsV1SinkSubscriber eventsV1, CoreV1SinkSubscriber coreV1, ApiFallback apiFallback,
			int reroutedCapacity) {
		super(eventsV1.choice(), eventsV1);
		this.eventsV1 = eventsV1;
		this.coreV1 = coreV1;
		this.apiFallback = apiFallback;
		this.reroutedCapacity = reroutedCapacity;
		eventsV1.attempts.onForbidden(this::forbidden);
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
		current().onEvent(recorded);
	}

	@Override
	void tick(Instant now) {
		current().tick(now);
	}

	@Override
	void beforeStop(boolean shutdown) {
		current().beforeStop(shutdown);
	}

	/**
	 * The subscriber written through now: core/v1 once switched (the distribution thread then hands the series over,
	 * once, and records the occurrences of refused writes there).
	 */
	private SinkSubscriber current() {
		ApiChoice switched = this.apiFallback.switched();
		if (switched == null) {
			return this.eventsV1;
		}
		if (!this.handedOver) {
			this.handedOver = true;
			choice(switched);
			this.coreV1.started();
			for (SeriesCache.Unsubmitted unsubmitted : this.eventsV1.handOver()) {
				for (int i = 0; i < unsubmitted.occurrences(); i++) {
					this.coreV1.onEvent(unsubmitted.last());
				}
			}
		}
		RecordedEvent refused;
		while ((refused = this.rerouted.poll()) != null) {
			this.reroutedSize.decrementAndGet();
			this.coreV1.onEvent(refused);
		}
		return this.coreV1;
	}

	/** A write was refused with 403 (a writer thread): its occurrences go to core/v1 if the sink switches. */
	private boolean forbidden(RecordedEvent recorded, int occurrences, String verb, EventSinkException refusal) {
		if (!this.apiFallback.refused(recorded, verb, refusal)) {
			return false;
		}
		for (int i = 0; i < occurrences; i++) {
			if (this.reroutedSize.incrementAndGet() > this.reroutedCapacity) {
				this.reroutedSize.decrementAndGet();
				this.counters.drop(DropReason.QUEUE_FULL, recorded);
			}
			else {
				this.rerouted.add(recorded);
			}
		}
		return true;
	}

	@Override
	void started() {
		this.eventsV1.started();
		if (this.handedOver) {
			this.coreV1.started();
		}
	}

	@Override
	void cancel() {
		this.eventsV1.cancel();
		this.coreV1.cancel();
	}

	/**
	 * The events.k8s.io/v1 writers end first, so no refusal reroutes anything after them. A final write refused with
	 * 403 may have switched the sink after {@link #beforeStop}: unless the deadline passed, its occurrences and the
	 * series' unsubmitted ones are handed to core/v1 now, before its writers end. What is still held after that is
	 * counted as {@code shutdown} drops at a shutdown, and kept for the next start at a stop.
	 */
	@Override
	void stopped(boolean shutdown) {
		this.eventsV1.endWriters(shutdown);
		if (!this.eventsV1.aborted()) {
			current();
		}
		this.coreV1.stopped(shutdown);
		if (shutdown) {
			RecordedEvent refused;
			while ((refused = this.rerouted.poll()) != null) {
				this.reroutedSize.decrementAndGet();
				this.counters.drop(DropReason.SHUTDOWN, refused);
			}
			this.eventsV1.countHeld();
		}
	}

	@Override
	boolean aborted() {
		return this.eventsV1.aborted();
	}

	@Override
	void abort() {
		this.eventsV1.abort();
		this.coreV1.abort();
	}

	@Override
	void resume() {
		this.eventsV1.resume();
		this.coreV1.resume();
	}

	@Override
	boolean awaitTermination(long deadlineNanos) {
		boolean ended = this.eventsV1.awaitTermination(deadlineNanos);
		return this.coreV1.awaitTermination(deadlineNanos) && ended;
	}

	@Override
	RecorderStats.Writes writes() {
		return this.eventsV1.writes().plus(this.coreV1.writes());
	}

	@Override
	long rejectedInARow() {
		return this.handedOver ? this.coreV1.rejectedInARow() : this.eventsV1.rejectedInARow();
	}

	/** The verbs refused on the API this sink writes now. */
	@Override
	List<RecorderStats.MissingAccess> missingAccessNow() {
		return (this.apiFallback.switched() != null) ? this.coreV1.missingAccessNow()
				: this.eventsV1.missingAccessNow();
	}

	@Override
	RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
		ApiChoice switched = this.apiFallback.switched();
		RecorderSnapshot.SinkSnapshot eventsV1 = this.eventsV1.snapshot(limit, filter);
		ApiChoice choice = (switched != null) ? switched : choice();
		RecorderSnapshot.@Nullable CorrelatorSnapshot correlator = (switched != null)
				? this.coreV1.snapshot(limit, filter).correlator() : eventsV1.correlator();
		return new RecorderSnapshot.SinkSnapshot(this.name, choice.api().value(), choice.reason(), writes(),
				correlator, eventsV1.series(), eventsV1.missingAccess());
	}

}
