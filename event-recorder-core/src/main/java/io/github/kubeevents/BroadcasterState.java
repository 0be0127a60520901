package io.github.kubeevents;

/** The lifecycle of a broadcaster, in order; it only moves forward. */
enum BroadcasterState {

	/** Built; events are queued, no thread runs. */
	NEW,

	/** Distributing. */
	RUNNING,

	/** Shutdown began: no new events; what is queued is being distributed and handled. */
	DRAINING,

	/** Shutdown ended (drained, or abandoned at the deadline). */
	TERMINATED;

	/**
	 * Whether shutdown has begun.
	 * @return {@code true} for {@link #DRAINING} and {@link #TERMINATED}
	 */
	boolean isShutdown() {
		return this == DRAINING || this == TERMINATED;
	}

}
