package io.github.kubeevents;

import java.util.Objects;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.kubernetes.client.openapi.models.CoreV1Event;
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
 * </ul>
 *
 * <p>Thread-safe: correlation on the subscriber thread, writes on the writer threads.
 */
final class CoreV1SinkSubscriber extends SinkSubscriber {

	private static final Logger logger = LoggerFactory.getLogger(CoreV1SinkSubscriber.class);

	private final EventSink sink;

	private final EventCorrelator correlator;

	CoreV1SinkSubscriber(String name, EventSink sink, ApiChoice choice, SinkSettings settings,
			EventCounters counters) {
		super(name, choice, new SinkControl(sink::cancel, sink::abort, sink::resume, sink::stopped), settings,
				counters);
		this.sink = Objects.requireNonNull(sink, "sink");
		this.correlator = new EventCorrelator(settings.coreV1Correlation());
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
						() -> CoreV1SinkSubscriber.this.correlator.updateState(write(result)));
			}

			@Override
			public void dropped(DropReason reason) {
				CoreV1SinkSubscriber.this.counters.drop(reason, recorded);
			}

		});
	}

	/** One attempt: PATCH a repeat, CREATE a first occurrence or an Event the server no longer has. */
	private CoreV1Event write(CorrelationResult result) throws EventSinkException {
		CoreV1Event event = result.event();
		EventSink.CountPatch patch = result.patch();
		if (result.isUpdate() && patch != null) {
			try {
				return this.attempts.request("patch", () -> this.sink.patch(event, patch));
			}
			catch (EventSinkException ex) {
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

	@Override
	RecorderSnapshot.SinkSnapshot snapshot(int limit, Predicate<RecorderSnapshot.ObjectRef> filter) {
		ApiChoice choice = choice();
		return new RecorderSnapshot.SinkSnapshot(this.name, choice.api().value(), choice.reason(), writes(),
				this.correlator.snapshot(limit, filter), null);
	}

}
