package io.github.kubeevents;

import java.util.function.Predicate;

import io.github.kubeevents.introspect.ObjectRef;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.SinkStats;

/** A sink subscriber of either events API: its counters and its view for snapshots. */
interface SinkRecording extends SubscriberQueue.MaintainedHandler {

	/** The API it writes and why. */
	ApiChoice choice();

	/** Its counters. */
	SinkStats stats();

	/** Its writer threads' queues, counted as part of its subscriber queue in snapshots. */
	SinkWriters writers();

	/** Its snapshot, with the cache entries about the objects {@code filter} accepts. */
	RecorderSnapshot.SinkSnapshot snapshot(String name, int limit, Predicate<ObjectRef> filter);

}
