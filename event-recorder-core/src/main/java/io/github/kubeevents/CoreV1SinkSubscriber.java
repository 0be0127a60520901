package io.github.kubeevents;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.jspecify.annotations.Nullable;

/**
 * The core/v1 sink subscriber (client-go's {@code recordToSink}): on the distribution thread it turns each recorded
 * event into a core/v1 Event and correlates it (aggregation, count PATCHes, spam filter), and hands the write to its
 * writer threads, where its {@link CoreV1Writes} makes the requests.
 *
 * <ul>
 * <li>Spam-filtered events are counted as {@code spam_filtered} (client-go drops them silently).</li>
 * <li>After a successful write, the correlator learns what the server stored.</li>
 * <li>Retries, refusals and Retry-After are the {@link WriteAttempts}' (core/v1 delay rule).</li>
 * <li><b>Deterministic names</b> (opt-in, {@link EventNaming}): the Event and a new aggregate are named by their
 * stream ({@link DeterministicNames}) before correlation; a write whose Event carries its stream's name (now, or
 * from before a fallback to client-go's names) goes through the writer's stream path. The correlator keeps this
 * process's counts (its decisions stay client-go's); it learns the name and resourceVersion of what was
 * written.</li>
 * <li><b>Minimum update interval</b> (opt-in, {@link CorrelatorOptions#minUpdateInterval()}): repeats within the
 * interval of their Event's last write are held by an {@link UpdateCoalescer} and written as one PATCH (the
 * latest count and timestamp) when the interval ends, or at a stop; held repeats a shutdown past its deadline
 * could not write are counted as {@code shutdown} drops, one per occurrence.</li>
 * </ul>
 *
 * <p>Thread-safe: correlation on the distribution thread, writes on the writer threads.
 */
final class CoreV1SinkSubscriber extends SinkSubscriber {

	private final EventCorrelator correlator;

	private final @Nullable EventsAccess access;

	private final CoreV1Writes writes;

	private final UpdateCoalescer coalescer;

	CoreV1SinkSubscriber(String name, Sink<CoreV1Event, EventSink.CountPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters) {
		this(name, sink, choice, settings, counters, null, EventNaming.clientGo());
	}

	/**
	 * @param access the RBAC probe, for writing repeats as new Events where {@code patch} is refused; {@code null}
	 * for none (every repeat is a PATCH)
	 * @param naming how Events are named (client-go's, or deterministic)
	 */
	CoreV1SinkSubscriber(String name, Sink<CoreV1Event, EventSink.CountPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters, @Nullable EventsAccess access, EventNaming naming) {
		super(name, choice, sink, settings, counters, naming);
		Objects.requireNonNull(sink, "sink");
		this.correlator = new EventCorrelator(settings.coreV1Correlation(),
				naming.requested() ? this::aggregateName : null);
		this.access = access;
		this.writes = new CoreV1Writes(sink, this.attempts, settings, counters, access, naming);
		this.coalescer = new UpdateCoalescer(settings.coreV1Correlation().minUpdateInterval(),
				settings.coreV1Correlation().cacheSize());
	}

	private String aggregateName(CoreV1Event aggregate) {
		return this.naming.deterministic(EventsApi.CORE_V1, aggregate.getMetadata().getNamespace())
				? DeterministicNames.coreV1(aggregate, true) : null;
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
		if (ApiServerValidation.dropIfRefused(recorded, this.counters)) {
			return;
		}
		CoreV1Event event = CoreV1Events.of(recorded);
		if (this.naming.deterministic(EventsApi.CORE_V1, event.getMetadata().getNamespace())) {
			event.getMetadata().setName(DeterministicNames.coreV1(event, false));
		}
		CorrelationResult result = this.correlator.correlate(event);
		if (result.skip()) {
			this.counters.drop(DropReason.SPAM_FILTERED, recorded);
			return;
		}
		if (!this.coalescer.enabled()) {
			submit(recorded, result, 1, recorded.timestamp());
			return;
		}
		submitAll(this.coalescer.offer(recorded, result, recorded.timestamp()));
	}

	/** Writes the held repeats whose minimum update interval has ended. */
	@Override
	void tick(Instant now) {
		if (this.coalescer.enabled()) {
			submitAll(this.coalescer.due(now));
		}
	}

	private void submitAll(List<UpdateCoalescer.Release> releases) {
		for (UpdateCoalescer.Release release : releases) {
			submit(release.recorded(), release.result(), release.occurrences(), release.first());
		}
	}

	/**
	 * Hands one write to the writers: {@code occurrences} recorded occurrences (more than one when repeats were
	 * coalesced), the first of them at {@code first}; each one counted if the write is dropped.
	 */
	private void submit(RecordedEvent recorded, CorrelationResult result, int occurrences, Instant first) {
		CoreV1Writes.Write write = new CoreV1Writes.Write(recorded, result, occurrences, first,
				namedByStream(result.event()));
		this.writers.submit(SinkWriters.shard(recorded), new SinkWriters.Write() {

			@Override
			public void run() {
				CoreV1SinkSubscriber.this.attempts.write(recorded, occurrences,
						(requests) -> CoreV1SinkSubscriber.this.correlator
							.updateState(CoreV1SinkSubscriber.this.writes.write(write, requests)));
			}

			@Override
			public void dropped(DropReason reason) {
				CoreV1SinkSubscriber.this.counters.drop(reason, recorded, occurrences);
			}

		});
	}

	/**
	 * Whether {@code event} carries its stream's name (deterministic names): the name given to it, or to it as an
	 * aggregate, now or before a fallback to client-go's names; a name the server gave back after a refused read is
	 * client-go's.
	 */
	private boolean namedByStream(CoreV1Event event) {
		String name = event.getMetadata().getName();
		return this.naming.requested() && name != null && (name.equals(DeterministicNames.coreV1(event, false))
				|| name.equals(DeterministicNames.coreV1(event, true)));
	}

	/** Writes what the streams carry (deterministic names: occurrences that lost the race had no later write). */
	@Override
	void beforeStop(boolean shutdown) {
		submitAll(this.coalescer.releaseAll());
		submitCarried(this.writes.streams());
	}

	/**
	 * Repeats held after {@link #beforeStop} (handed over by an events.k8s.io/v1 sink that switched late) are written
	 * before the writers end, unless the deadline passed; what is still held then is counted at a shutdown, kept for
	 * the next start at a stop.
	 */
	@Override
	void stopped(boolean shutdown) {
		if (!aborted()) {
			submitAll(this.coalescer.releaseAll());
		}
		super.stopped(shutdown);
		if (shutdown) {
			countHeld();
			countCarried(this.writes.streams());
		}
	}

	private void countHeld() {
		countUnwritten(this.coalescer.releaseAll(), UpdateCoalescer.Release::recorded,
				UpdateCoalescer.Release::occurrences, "repeat(s) held for the minimum update interval were");
	}

	/** Every verb the probe found refused, both APIs; empty without a probe. */
	List<RecorderStats.MissingAccess> missingAccess() {
		return (this.access != null) ? this.access.missingAccess() : List.of();
	}

	/** The verbs refused on core/v1, which this sink writes. */
	@Override
	List<RecorderStats.MissingAccess> missingAccessNow() {
		return (this.access != null) ? this.access.missingAccess(EventsApi.CORE_V1) : List.of();
	}

	@Override
	RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
		ApiChoice choice = choice();
		return new RecorderSnapshot.SinkSnapshot(this.name, choice.api().value(), choice.reason(), writes(),
				this.correlator.snapshot(limit, filter, this.coalescer.heldEvents(), this.coalescer.heldOccurrences()),
				null, missingAccess());
	}

}
