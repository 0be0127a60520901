package io.github.kubeevents.correlator;

import java.util.Objects;

import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * client-go's {@code EventCorrelator}: {@link EventAggregator} → {@link EventObserver} → {@link SpamFilter}, in
 * that order. Aggregation and observation state change even for events the spam filter then drops, so the next
 * event that gets through is patched with a count that includes the suppressed ones.
 *
 * <p>One correlator per sink. Thread-safe, though the recorder drives it from one thread.
 */
public final class EventCorrelator {

	private final CorrelatorOptions options;

	private final EventAggregator aggregator;

	private final EventObserver observer;

	private final SpamFilter spamFilter;

	/**
	 * A correlator with empty caches.
	 * @param options the options
	 */
	public EventCorrelator(CorrelatorOptions options) {
		this.options = Objects.requireNonNull(options, "options");
		this.aggregator = new EventAggregator(options);
		this.observer = new EventObserver(options);
		this.spamFilter = new SpamFilter(options);
	}

	/**
	 * Correlates one event.
	 * @param event the recorded event (not modified)
	 * @return the event to write, its patch, or {@code skip}
	 */
	public CorrelationResult correlate(CoreV1Event event) {
		Objects.requireNonNull(event, "event is nil");
		EventAggregator.Aggregation aggregation = this.aggregator.aggregate(event);
		EventObserver.Observation observation = this.observer.observe(aggregation.event(), aggregation.cacheKey());
		boolean skip = this.spamFilter.filter(observation.event());
		return new CorrelationResult(observation.event(), observation.patch(), skip);
	}

	/**
	 * Records what the server stored (name, count, firstTimestamp, resourceVersion) after a successful write.
	 * @param serverEvent the Event returned by the API server
	 */
	public void updateState(CoreV1Event serverEvent) {
		this.observer.updateState(serverEvent);
	}

	/**
	 * The options this correlator was built with.
	 * @return the options
	 */
	public CorrelatorOptions options() {
		return this.options;
	}

	/**
	 * A view of the caches.
	 * @param limit the maximum number of entries per list
	 * @return the snapshot
	 */
	public CorrelatorSnapshot snapshot(int limit) {
		return new CorrelatorSnapshot(this.aggregator.size(), this.aggregator.snapshot(limit), this.observer.size(),
				this.observer.snapshot(limit), this.spamFilter.size(), this.spamFilter.snapshot(limit));
	}

}
