package io.github.kubeevents;

/**
 * One write of a sink, as its subscriber decided it on the distribution thread ({@link CoreV1SinkSubscriber.Write},
 * {@link SeriesCache.Write}) and as its writer reads it ({@link EventWriter}, {@link StreamWriter}).
 *
 * <p>Implementations are immutable.
 */
interface SinkWrite {

	/** The occurrence the write stands for (its last, for a repeat): drops, log lines, trace context. */
	RecordedEvent recorded();

	/** How many recorded occurrences it newly carries: each is counted when the write is dropped. */
	int occurrences();

	/** Whether the Event is named by its stream (deterministic names): the stream path. */
	boolean stream();

	/** Whether the write repeats an Event written before (a PATCH), rather than creating one. */
	boolean repeat();

	/** The write's count in the local correlator or series cache: what its CREATE or PATCH writes. */
	int localCount();

	/** The stream path: the occurrences it carries where this process has not written its stream. */
	int occurrencesIfUnknown();

}
