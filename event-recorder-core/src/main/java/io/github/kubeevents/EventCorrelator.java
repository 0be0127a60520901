package io.github.kubeevents;

import java.time.Clock;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.jspecify.annotations.Nullable;

/**
 * client-go's {@code EventCorrelator} for core/v1 Events: aggregation of similar events, observation of repeats
 * (which become count PATCHes) and the per-object spam filter, run in that fixed order. Aggregation and
 * observation state change even for events the spam filter then drops, so the next event that gets through is
 * patched with a count that includes the suppressed ones.
 *
 * <p>The caches keep a 128-bit hash of each of client-go's key strings instead of the string ({@link KeyHash}, which
 * bounds the chance of a collision), and their values in compact form, so the decisions are client-go's while full
 * caches take less than half of the memory the key strings did.
 *
 * <p>One correlator per sink. Thread-safe, though the recorder drives it from one thread.
 */
final class EventCorrelator {

	private final EventAggregator aggregator;

	private final EventObserver observer;

	private final SpamFilter spamFilter;

	/** Names a new aggregate Event in the deterministic-names mode (else {@code null}, or answers {@code null}). */
	private final @Nullable Function<CoreV1Event, @Nullable String> aggregateNames;

	/** A correlator with empty caches; a {@code null} clock in {@code options} means {@link Clock#systemUTC()}. */
	EventCorrelator(CorrelatorOptions options) {
		this(options, null);
	}

	/**
	 * A correlator with empty caches whose new aggregate Events are named by {@code aggregateNames} (the
	 * deterministic-names mode) instead of client-go's generated name; its decisions are the same.
	 * @param aggregateNames the name of a new aggregate Event, {@code null} to keep the generated one
	 */
	EventCorrelator(CorrelatorOptions options, @Nullable Function<CoreV1Event, @Nullable String> aggregateNames) {
		this.aggregateNames = aggregateNames;
		CorrelatorOptions resolved = Objects.requireNonNull(options, "options").withDefaultClock(Clock.systemUTC());
		Clock clock = Objects.requireNonNull(resolved.clock());
		this.aggregator = new EventAggregator(resolved, clock);
		this.observer = new EventObserver(resolved);
		this.spamFilter = new SpamFilter(resolved, clock);
	}

	/**
	 * Correlates one event: {@code EventCorrelate}.
	 * @param event the new event (not modified)
	 * @return the event to write (possibly an aggregate or an update of an earlier Event), its patch, and
	 * whether the spam filter rejected it
	 * @throws NullPointerException when the event is {@code null} ("event is nil")
	 */
	CorrelationResult correlate(CoreV1Event event) {
		Objects.requireNonNull(event, "event is nil");
		EventAggregator.Aggregation aggregation = this.aggregator.aggregate(event);
		if (this.aggregateNames != null && aggregation.event() != event) {
			// a new aggregate Event, built by the aggregator for this call only
			String name = this.aggregateNames.apply(aggregation.event());
			if (name != null) {
				aggregation.event().getMetadata().setName(name);
			}
		}
		EventObserver.Observation observation = this.observer.observe(aggregation.event(), aggregation.cacheKey(),
				aggregation.subject());
		boolean skip = this.spamFilter.filter(observation.event(), aggregation.subject());
		return new CorrelationResult(observation.event(), observation.patch(), skip);
	}

	/**
	 * The correlation of an events.k8s.io/v1 sink that enables aggregation or the spam filter: aggregation, then
	 * the spam filter, without observation (series replace count PATCHes there).
	 * @param event the new event (not modified)
	 * @return the event to write (possibly an aggregate), no patch, and whether the spam filter rejected it
	 */
	CorrelationResult aggregateAndFilter(CoreV1Event event) {
		Objects.requireNonNull(event, "event is nil");
		EventAggregator.Aggregation aggregation = this.aggregator.aggregate(event);
		return new CorrelationResult(aggregation.event(), null,
				this.spamFilter.filter(aggregation.event(), aggregation.subject()));
	}

	/** Records what the server stored (name, count, firstTimestamp, resourceVersion) after a successful write. */
	void updateState(CoreV1Event serverEvent) {
		this.observer.updateState(serverEvent);
	}

	/**
	 * A view of the caches, at most {@code limit} entries per list, of the objects {@code filter} accepts.
	 * @return the snapshot; sizes are always the caches' full sizes
	 */
	CorrelatorSnapshot snapshot(int limit, Predicate<ObjectRef> filter) {
		return snapshot(limit, filter, 0, 0);
	}

	/** {@link #snapshot(int, Predicate)} with the held updates of the sink the correlator serves. */
	CorrelatorSnapshot snapshot(int limit, Predicate<ObjectRef> filter, long heldUpdates, long heldOccurrences) {
		return new CorrelatorSnapshot(this.aggregator.size(), this.aggregator.snapshot(limit, filter),
				this.observer.size(), this.observer.snapshot(limit, filter), this.spamFilter.size(),
				this.spamFilter.snapshot(limit, filter), heldUpdates, heldOccurrences);
	}

}
