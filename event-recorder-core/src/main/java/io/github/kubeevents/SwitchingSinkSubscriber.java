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
 * fallback to a core/v1 one, each with a run of its own. When a write is refused with 403 and its
 * {@link ApiFallback} decides that core/v1 serves better (or decided so at startup), this subscriber writes core/v1
 * from then on, through the core/v1 subscriber: the refused writes' occurrences are recorded there again (from the
 * writer threads, through a bounded queue the distribution thread drains; past its bound they are {@code queue_full}
 * drops), and so are the occurrences the series held that no write carried (handed over once, on the distribution
 * thread). Every occurrence is thus written once, by one API or the other. Whether it switched is the
 * {@link ApiFallback}'s one fact; this subscriber only remembers whether it handed the series over.
 *
 * <p>Its gauges and health are the run written now ({@link #current()}), its writes the sum of both.
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

	/**
	 * Whether the series were handed over to core/v1; written by the distribution thread (or the ending thread, once
	 * the distribution thread is done with this sink).
	 */
	private volatile boolean handedOver;

	/**
	 * @param eventsV1 the subscriber written through until the switch (built with {@code apiFallback})
	 * @param coreV1 the subscriber written through after it
	 * @param reroutedCapacity how many occurrences of refused writes may wait for the distribution thread
	 */
	SwitchingSinkSubscriber(EventsV1SinkSubscriber eventsV1, CoreV1SinkSubscriber coreV1, ApiFallback apiFallback,
			int reroutedCapacity) {
		super(eventsV1.name, eventsV1.choice, eventsV1.counters, eventsV1.naming, null);
		this.eventsV1 = eventsV1;
		this.coreV1 = coreV1;
		this.apiFallback = apiFallback;
		this.reroutedCapacity = reroutedCapacity;
		eventsV1.onForbidden(this::forbidden);
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
		writing().onEvent(recorded);
	}

	@Override
	void tick(Instant now) {
		writing().tick(now);
	}

	@Override
	void beforeStop(boolean shutdown) {
		writing().beforeStop(shutdown);
	}

	/**
	 * The subscriber written through now: core/v1 once switched (the series are then handed over, once, and the
	 * occurrences of refused writes recorded there).
	 */
	private SinkSubscriber writing() {
		if (this.apiFallback.switched() == null) {
			return this.eventsV1;
		}
		if (!this.handedOver) {
			this.handedOver = true;
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

	/**
	 * The events.k8s.io/v1 writers end first, so no refusal reroutes anything after them. A final write refused with
	 * 403 may have switched the sink after {@link #beforeStop}: unless the deadline passed, its occurrences and the
	 * series' unsubmitted ones are handed to core/v1 now, before its writers end. What is still held after that is
	 * counted as {@code shutdown} drops at a shutdown, and kept for the next start at a stop.
	 */
	@Override
	void end(boolean shutdown) {
		SinkRun<?, ?> eventsV1Run = this.eventsV1.current();
		eventsV1Run.end();
		if (!eventsV1Run.aborted()) {
			writing();
		}
		this.coreV1.end(false);
		if (shutdown) {
			countHeld();
		}
	}

	@Override
	void countHeld() {
		this.coreV1.countHeld();
		RecordedEvent refused;
		while ((refused = this.rerouted.poll()) != null) {
			this.reroutedSize.decrementAndGet();
			this.counters.drop(DropReason.SHUTDOWN, refused);
		}
		this.eventsV1.countHeld();
	}

	@Override
	List<SinkRun<?, ?>> runs() {
		return List.of(this.eventsV1.current(), this.coreV1.current());
	}

	@Override
	SinkRun<?, ?> current() {
		return (this.apiFallback.switched() != null) ? this.coreV1.current() : this.eventsV1.current();
	}

	@Override
	ApiChoice choice() {
		ApiChoice switched = this.apiFallback.switched();
		return (switched != null) ? switched : this.eventsV1.choice();
	}

	/** The verbs refused on the API this sink writes now. */
	@Override
	List<RecorderStats.MissingAccess> missingAccessNow() {
		return (this.apiFallback.switched() != null) ? this.coreV1.missingAccessNow()
				: this.eventsV1.missingAccessNow();
	}

	@Override
	RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
		ApiChoice choice = choice();
		RecorderSnapshot.SinkSnapshot eventsV1 = this.eventsV1.snapshot(limit, filter);
		RecorderSnapshot.@Nullable CorrelatorSnapshot correlator = (this.apiFallback.switched() != null)
				? this.coreV1.snapshot(limit, filter).correlator() : eventsV1.correlator();
		return new RecorderSnapshot.SinkSnapshot(this.name, choice.api().value(), choice.reason(), writes(),
				correlator, eventsV1.series(), eventsV1.missingAccess());
	}

}
