package io.github.kubeevents;

import java.util.Locale;

/**
 * The lifecycle of a broadcaster: {@code NEW → RUNNING ⇄ (STOPPING →) STOPPED}, and from any of them
 * {@code → DRAINING → TERMINATED}, which is final. A start while the distribution thread that the last stop abandoned
 * still runs goes {@code STOPPED → STARTING → RUNNING} once that thread has ended.
 */
enum BroadcasterState {

	/** Built; events are queued, no thread runs. */
	NEW,

	/**
	 * Started, but waiting for the distribution thread the last stop abandoned at its deadline (stuck in a call that
	 * ignores interrupts) to end: events are queued; distribution starts when it has ended.
	 */
	STARTING,

	/** Distributing. */
	RUNNING,

	/** A stop is under way: what was queued before it is distributed and handled, then the threads end. */
	STOPPING,

	/** Stopped: no thread runs; events are queued for the next start. */
	STOPPED,

	/** Shutdown began: no new events; what is queued is being distributed and handled. */
	DRAINING,

	/** Shut down (drained, or abandoned at the deadline). */
	TERMINATED;

	/** Whether shutdown has begun: {@link #DRAINING} or {@link #TERMINATED}. */
	boolean isShutdown() {
		return this == DRAINING || this == TERMINATED;
	}

	/** The lower-case name used in snapshots and stats, e.g. {@code "running"}. */
	String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
