package io.github.kubeevents;

import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The core/v1 sink subscriber (client-go's {@code recordToSink} with {@code recordEvent}): on its subscriber thread
 * it turns each recorded event into a core/v1 Event and correlates it (aggregation, count PATCHes, spam filter);
 * its writers write it.
 *
 * <ul>
 * <li>Spam-filtered events are counted as {@code spam_filtered} (client-go drops them silently).</li>
 * <li>An update (count &gt; 1) is a PATCH; a 404 on PATCH (the Event expired or was deleted) falls back to a
 * CREATE with resourceVersion cleared, in the same attempt.</li>
 * <li>After a successful write, the correlator learns what the server stored.</li>
 * <li>Retries, refusals and Retry-After are the {@link WriteAttempts}' (core/v1 delay rule).</li>
 * <li><b>Without patch</b> (a sink with an {@link EventsAccess} probe): where RBAC allows {@code create} but not
 * {@code patch} (known from the probe, or a PATCH refused with 403 that the probe confirms), a repeat is written as
 * a new Event of its own ({@code count: 1}, its own name and timestamps) and counted as
 * {@code written_without_patch}, instead of being refused; client-go loses it.</li>
 * </ul>
 *
 * <p>Thread-safe: correlation on the subscriber thread, writes on the writer threads.
 */
final class CoreV1SinkSubscriber extends SinkSubscriber {

	private static final Logger logger = LoggerFactory.getLogger(CoreV1SinkSubscriber.class);

	private final EventSink sink;

	private final EventCorrelator correlator;

	private final @Nullable EventsAccess access;

	CoreV1SinkSubscriber(String name, EventSink sink, ApiChoice choice, SinkSettings settings,
			EventCounters counters) {
		this(name, sink, choice, settings, counters, null);
	}

	/**
	 * @param access the RBAC probe, for writing repeats as new Events where {@code patch} is refused; {@code null}
	 * for none (every repeat is a PATCH)
	 */
	CoreV1SinkSubscriber(String name, EventSink sink, ApiChoice choice, SinkSettings settings,
			EventCounters counters, @Nullable EventsAccess access) {
		super(name, choice, new SinkControl(sink::cancel, sink::abort, sink::resume, sink::stopped), settings,
				counters);
		this.sink = Objects.requireNonNull(sink, "sink");
		this.correlator = new EventCorrelator(settings.coreV1Correlation());
		this.access = access;
	}

	@Override
	public void onEvent(RecordedEvent recorded) {
		CorrelationResult result = this.correlator.correlate(CoreV1Events.of(recorded));
		if (result.skip()) {
			this.counters.drop(DropReason.SPAM_FILTERED, recorded);
			return;
		}
		this.writers.submit(SinkWriters.shard(recorded), new SinkWriters.Write() {

			@Override
			public void run() {
				CoreV1SinkSubscriber.this.attempts.write(recorded, 1,
						() -> CoreV1SinkSubscriber.this.correlator.updateState(write(result, recorded)));
			}

			@Override
			public void dropped(DropReason reason) {
				CoreV1SinkSubscriber.this.counters.drop(reason, recorded);
			}

		});
	}

	/**
	 * One attempt: PATCH a repeat (or CREATE it as a new Event where RBAC refuses patch), CREATE a first occurrence
	 * or an Event the server no longer has.
	 */
	private CoreV1Event write(CorrelationResult result, RecordedEvent recorded) throws EventSinkException {
		CoreV1Event event = result.event();
		EventSink.CountPatch patch = result.patch();
		if (result.isUpdate() && patch != null) {
			String namespace = event.getMetadata().getNamespace();
			if (this.access != null && namespace != null) {
				EventsAccess.Check known = this.access.known(EventsApi.CORE_V1, namespace);
				if (known != null && known.withoutPatch()) {
					return createWithoutPatch(event, recorded);
				}
			}
			try {
				return this.attempts.request("patch", () -> this.sink.patch(event, patch));
			}
			catch (EventSinkException ex) {
				if (ex.isForbidden() && !ex.namespaceTerminating() && this.access != null && namespace != null
						&& this.access.recheck(EventsApi.CORE_V1, namespace, "patch").withoutPatch()) {
					return createWithoutPatch(event, recorded);
				}
				if (!ex.isNotFound()) {
					throw ex;
				}
				logger.debug("Event {} no longer exists on the server (expired or deleted); creating it again",
						event.getMetadata().getName());
			}
		}
		event.getMetadata().setResourceVersion(null);
		return this.attempts.request("create", () -> this.sink.create(event));
	}

	/** A repeat as a new Event of its own: its occurrence's name, count 1, first = last timestamp. */
	private CoreV1Event createWithoutPatch(CoreV1Event event, RecordedEvent recorded) throws EventSinkException {
		CoreV1Event single = CoreV1Events.copy(event);
		single.getMetadata().name(recorded.generateEventName()).resourceVersion(null).uid(null).creationTimestamp(null);
		single.setCount(1);
		single.setFirstTimestamp(single.getLastTimestamp());
		CoreV1Event created = this.attempts.request("create", () -> this.sink.create(single));
		this.counters.writtenWithoutPatch(1);
		return created;
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
				this.correlator.snapshot(limit, filter), null, missingAccess());
	}

}
