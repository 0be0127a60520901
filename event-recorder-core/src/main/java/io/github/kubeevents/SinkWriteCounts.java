package io.github.kubeevents;

import java.util.concurrent.atomic.LongAdder;

import io.github.kubeevents.introspect.SinkStats;

/**
 * A sink subscriber's write counters: Events created, patched, attempts retried, events that failed for good.
 *
 * <p>Thread-safe: writer threads increment, snapshots read.
 */
final class SinkWriteCounts {

	final LongAdder created = new LongAdder();

	final LongAdder patched = new LongAdder();

	final LongAdder retried = new LongAdder();

	final LongAdder failed = new LongAdder();

	SinkStats stats() {
		return new SinkStats(this.created.sum(), this.patched.sum(), this.retried.sum(), this.failed.sum());
	}

}
