package io.github.kubeevents;

import java.util.Locale;

/**
 * The lifecycle of a broadcaster: {@code NEW → RUNNING ⇄ (STOPPING →) STOPPED}, and from any of them
 * {@code → DRAINING → TERMINATED}, which is final.
 */
enum BroadcasterState {

	/** Built; events are queued, no thread runs. */
	NEW,

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

	/**
	 * Whether shutdown has begun.
	 * @return {@code true} for {@link #DRAINING} and {@link #TERMINATED}
	 */
	boolean isShutdown() {
		return this == DRAINING || this == TERMINATED;
	}

	/**
	 * The lower-case name used in snapshots and stats.
	 * @return e.g. {@code "running"}
	 */
	String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
