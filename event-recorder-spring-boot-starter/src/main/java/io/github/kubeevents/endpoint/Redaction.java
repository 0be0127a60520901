package io.github.kubeevents.endpoint;

import java.util.List;

import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot.SeriesSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot;
import org.jspecify.annotations.Nullable;

/** Hides messages and notes in a snapshot unless they may be shown. Stateless. */
final class Redaction {

	private Redaction() {
	}

	static RecorderSnapshot apply(RecorderSnapshot snapshot, boolean show) {
		if (show) {
			return snapshot;
		}
		List<RecorderSnapshot.SinkSnapshot> sinks = snapshot.sinks()
			.stream()
			.map((sink) -> new RecorderSnapshot.SinkSnapshot(sink.name(), sink.api(), sink.apiReason(), sink.stats(),
					hide(sink.correlator()), hide(sink.series()), sink.missingAccess()))
			.toList();
		return new RecorderSnapshot(snapshot.takenAt(), snapshot.state(), snapshot.queue(), snapshot.accepted(),
				snapshot.dropped(), snapshot.subscribers(), sinks, snapshot.writeBudget(), snapshot.writtenWithoutPatch(),
				snapshot.throttledByServer());
	}

	private static @Nullable CorrelatorSnapshot hide(@Nullable CorrelatorSnapshot correlator) {
		if (correlator == null) {
			return null;
		}
		List<CorrelatorSnapshot.ObservedEvent> observed = correlator.observedEvents()
			.stream()
			.map((e) -> new CorrelatorSnapshot.ObservedEvent(e.object(), e.type(), e.reason(),
					(e.message() != null) ? KubeEventsEndpoint.HIDDEN : null, e.name(), e.count(), e.firstTimestamp(),
					e.lastTimestamp()))
			.toList();
		return new CorrelatorSnapshot(correlator.aggregatorSize(), correlator.aggregateRecords(),
				correlator.observedSize(), observed, correlator.spamBucketsSize(), correlator.spamBuckets(),
				correlator.heldUpdates(), correlator.heldOccurrences());
	}

	private static @Nullable SeriesSnapshot hide(@Nullable SeriesSnapshot series) {
		if (series == null) {
			return null;
		}
		List<SeriesSnapshot.Entry> entries = series.entries()
			.stream()
			.map((e) -> new SeriesSnapshot.Entry(e.object(), e.type(), e.reason(), e.action(),
					(e.note() != null) ? KubeEventsEndpoint.HIDDEN : null, e.name(), e.count(), e.countOnServer(),
					e.lastObserved(), e.nextHeartbeat(), e.finishesAt()))
			.toList();
		return new SeriesSnapshot(series.size(), series.capacity(), entries);
	}

}
