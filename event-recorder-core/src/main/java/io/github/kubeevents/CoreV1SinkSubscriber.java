package io.github.kubeevents;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The core/v1 sink subscriber (client-go's {@code recordToSink}): on the distribution thread it turns each recorded
 * event into a core/v1 Event and correlates it (aggregation, count PATCHes, spam filter), and submits the write to
 * its {@link SinkRun}, whose writer threads make the requests with an {@link EventWriter} over {@link CoreV1Writes}.
 *
 * <ul>
 * <li>Spam-filtered events are counted as {@code spam_filtered} (client-go drops them silently).</li>
 * <li>After a successful write, the correlator learns what the server stored.</li>
 * <li>Retries, refusals and Retry-After are the run's (core/v1 delay rule).</li>
 * <li><b>Deterministic names</b> (opt-in, {@link EventNaming}): the Event and a new aggregate are named by their
 * stream ({@link DeterministicNames}) before correlation, unless RBAC is known to refuse {@code get} in the
 * namespace (no question is asked here: the writer asks); a write whose Event carries its stream's name (now, or
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
final class CoreV1SinkSubscriber extends SinkSubscriber implements SinkWriters.Target<CoreV1SinkSubscriber.Write> {

	/**
	 * One write, decided on the distribution thread.
	 * @param recorded the latest occurrence it carries
	 * @param result what the correlator decided (the Event, its patch for an update)
	 * @param occurrences how many recorded occurrences it stands for (more than one when repeats were coalesced)
	 * @param first when the first of them occurred
	 * @param stream whether its Event is named by its stream (deterministic names, now or before a fallback): an
	 * unconditional patch would overwrite the count another process wrote, so it goes through the stream path
	 * @param repeat whether it updates an Event written before (a count PATCH)
	 */
	record Write(RecordedEvent recorded, CorrelationResult result, int occurrences, Instant first, boolean stream,
			boolean repeat) implements SinkWrite {

		/** The correlator's count of the Event. */
		@Override
		public int localCount() {
			Integer count = this.result.event().getCount();
			return (count != null) ? count : 1;
		}

		/** A repeat's occurrences, else the whole local count. */
		@Override
		public int occurrencesIfUnknown() {
			return this.result.isUpdate() ? this.occurrences : localCount();
		}

	}

	private static final Logger logger = LoggerFactory.getLogger(CoreV1SinkSubscriber.class);

	private final UidlessObjectWarning uidless = new UidlessObjectWarning("involvedObject.uid");

	private final EventCorrelator correlator;

	private final SinkRun<CoreV1Event, EventSink.CountPatch> run;

	private final EventWriter<Write, CoreV1Event, EventSink.CountPatch> writer;

	private final UpdateCoalescer coalescer;

	/** Whether repeats are coalesced ({@link UpdateCoalescer#enabled()}). */
	private final boolean coalescing;

	/** Whether deterministic names were asked for ({@link EventNaming#requested()}). */
	private final boolean streams;

	CoreV1SinkSubscriber(String name, Sink<CoreV1Event, EventSink.CountPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters) {
		this(name, sink, choice, settings, counters, null, EventNaming.clientGo(), "");
	}

	/**
	 * @param access the RBAC probe, for writing repeats as new Events where {@code patch} is refused; {@code null}
	 * for none (every repeat is a PATCH)
	 * @param naming how Events are named (client-go's, or deterministic)
	 * @param server the API server written to, for failures in health and stats; empty when unknown
	 */
	CoreV1SinkSubscriber(String name, Sink<CoreV1Event, EventSink.CountPatch> sink, ApiChoice choice,
			SinkSettings settings, EventCounters counters, @Nullable EventsAccess access, EventNaming naming,
			String server) {
		super(name, choice, counters, naming, access);
		Objects.requireNonNull(sink, "sink");
		this.streams = naming.requested();
		this.correlator = new EventCorrelator(settings.coreV1Correlation(), this.streams ? this::aggregateName : null);
		this.run = new SinkRun<>(name, EventsApi.CORE_V1, sink, server, settings, counters, this);
		this.writer = new EventWriter<>(EventsApi.CORE_V1, new CoreV1Writes(settings), this.run.requests(),
				counters, naming, access, null, settings.coreV1Correlation().cacheSize(), settings);
		this.coalescer = new UpdateCoalescer(settings.coreV1Correlation().minUpdateInterval(),
				settings.coreV1Correlation().cacheSize());
		this.coalescing = this.coalescer.enabled();
	}

	private @Nullable String aggregateName(CoreV1Event aggregate) {
		return this.naming.deterministic(EventsApi.CORE_V1, aggregate.getMetadata().getNamespace())
				? DeterministicNames.coreV1(aggregate, true) : null;
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
		if (ApiServerValidation.dropIfRefused(recorded, this.counters)) {
			return;
		}
		this.uidless.check(recorded);
		CoreV1Event event = CoreV1Events.of(recorded);
		if (this.streams && this.naming.deterministic(EventsApi.CORE_V1, event.getMetadata().getNamespace())) {
			event.getMetadata().setName(DeterministicNames.coreV1(event, false));
		}
		CorrelationResult result = this.correlator.correlate(event);
		if (result.skip()) {
			this.counters.drop(DropReason.SPAM_FILTERED, recorded);
			return;
		}
		if (!this.coalescing) {
			submit(recorded, result, 1, recorded.timestamp());
			return;
		}
		submitAll(this.coalescer.offer(recorded, result, recorded.timestamp()));
	}

	/** Writes the held repeats whose minimum update interval has ended. */
	@Override
	void tick(Instant now) {
		if (this.coalescing) {
			submitAll(this.coalescer.due(now));
		}
	}

	private void submitAll(List<UpdateCoalescer.Release> releases) {
		for (UpdateCoalescer.Release release : releases) {
			submit(release.recorded(), release.result(), release.occurrences(), release.first());
		}
	}

	/**
	 * Submits one write: {@code occurrences} recorded occurrences (more than one when repeats were coalesced), the
	 * first of them at {@code first}; each one counted if the write is dropped.
	 */
	private void submit(RecordedEvent recorded, CorrelationResult result, int occurrences, Instant first) {
		this.run.writers().submit(recorded, new Write(recorded, result, occurrences, first,
				this.streams && namedByStream(result.event()), result.patch() != null));
	}

	/**
	 * Whether {@code event} carries its stream's name: the name given to it, or to it as an aggregate, now or
	 * before a fallback to client-go's names; a name the server gave back after a refused read is client-go's.
	 */
	private static boolean namedByStream(CoreV1Event event) {
		String name = event.getMetadata().getName();
		return name != null && (name.equals(DeterministicNames.coreV1(event, false))
				|| name.equals(DeterministicNames.coreV1(event, true)));
	}

	/** Writes one write on a writer thread; the correlator learns what was written. */
	@Override
	public void write(Write write) {
		EventWriter.Written<CoreV1Event> written = this.run.attempts()
			.write(write, write.recorded(), write.occurrences(), this.writer)
			.written();
		CoreV1Event learned = (written != null) ? learned(write, written) : null;
		if (learned == null) {
			return;
		}
		try {
			this.correlator.updateState(learned);
		}
		catch (RuntimeException ex) {
			// written: a failure of the bookkeeping is not the server's, and not a drop
			logger.error("Event written, but the correlator could not learn it: {}", write.recorded().describe(), ex);
		}
	}

	/**
	 * What the correlator learns of a write: the server's Event, or on the stream path this process's with the
	 * server's resourceVersion.
	 */
	static @Nullable CoreV1Event learned(Write write, EventWriter.Written<CoreV1Event> written) {
		CoreV1Event answer = written.answer();
		if (!written.onStream()) {
			return answer;
		}
		// the correlator keeps this process's count (its key is this process's), with the Event's resourceVersion
		CoreV1Event local = CoreV1Events.copy(write.result().event());
		local.getMetadata()
			.resourceVersion((answer != null && answer.getMetadata() != null)
					? answer.getMetadata().getResourceVersion() : null);
		return local;
	}

	@Override
	public void dropped(Write write, DropReason reason) {
		this.counters.drop(reason, write.recorded(), write.occurrences());
	}

	@Override
	public void writeCarried(int thread) {
		writeCarried(thread, this.run, this.writer.streams());
	}

	/** Writes what the streams carry (deterministic names: occurrences that lost the race had no later write). */
	@Override
	void beforeStop(boolean shutdown) {
		submitAll(this.coalescer.releaseAll());
		if (this.streams) {
			this.run.writers().submitCarried();
		}
	}

	/**
	 * Repeats held after {@link #beforeStop} (handed over by an events.k8s.io/v1 sink that switched late) are written
	 * before the writers end, unless the deadline passed; what is still held then is counted at a shutdown, kept for
	 * the next start at a stop.
	 */
	@Override
	void end(boolean shutdown) {
		if (!this.run.aborted()) {
			submitAll(this.coalescer.releaseAll());
		}
		this.run.end();
		if (shutdown) {
			countHeld();
		}
	}

	@Override
	void countHeld() {
		countUnwritten(this.coalescer.releaseAll(), UpdateCoalescer.Release::recorded,
				UpdateCoalescer.Release::occurrences, "repeat(s) held for the minimum update interval were");
		countCarried(this.writer.streams());
	}

	@Override
	SinkRun<?, ?> current() {
		return this.run;
	}

	@Override
	RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
		return new RecorderSnapshot.SinkSnapshot(this.name, this.choice.api().value(), this.choice.reason(), writes(),
				this.correlator.snapshot(limit, filter, this.coalescer.heldEvents(), this.coalescer.heldOccurrences()),
				null, missingAccess());
	}

}
