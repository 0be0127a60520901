package io.github.kubeevents;

import java.time.Clock;
import java.time.Instant;

import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.Sink;
import org.jspecify.annotations.Nullable;

/**
 * How one sink's writes fare, as health reads them: the failed attempts since the last written event, whatever the
 * failure (the expected refusals aside: the retry loop does not report those), the refusals among them, the latest
 * failure with the API server written to, and when an event was last written. A written event (a CREATE or PATCH
 * the server answered, or a lost CREATE found landed) clears the failures.
 *
 * <p>Thread-safe: the sink's writer threads report concurrently; one lock keeps the four facts of one moment
 * together.
 */
final class WriteHealth {

	private final String api;

	private final String server;

	private final Clock clock;

	private long failedInARow;

	private long rejectedInARow;

	private RecorderStats.@Nullable Failure lastFailure;

	private @Nullable Instant lastWritten;

	/**
	 * @param api the API written, e.g. {@code core/v1}
	 * @param server the API server written to; empty when unknown
	 * @param clock the broadcaster's clock
	 */
	WriteHealth(String api, String server, Clock clock) {
		this.api = api;
		this.server = server;
		this.clock = clock;
	}

	/** An event was written: the failures in a row end. */
	synchronized void written() {
		this.rejectedInARow = 0;
		this.failedInARow = 0;
		this.lastFailure = null;
		this.lastWritten = this.clock.instant();
	}

	/**
	 * An attempt failed.
	 * @param verb the request that failed
	 * @param refused whether the server refused the write (an HTTP status other than a retried one)
	 * @param givenUp whether a retryable failure ends the write (its attempts are used up, or a stop ends them)
	 */
	synchronized void failed(EventSinkException ex, String verb, boolean refused, boolean givenUp) {
		this.failedInARow++;
		if (refused) {
			this.rejectedInARow++;
		}
		this.lastFailure = new RecorderStats.Failure(this.clock.instant(), this.api, verb,
				Sink.RequestListener.resultOf(ex), LogText.oneLine(ex.getMessage()), this.server, givenUp);
	}

	/**
	 * The four facts of one moment.
	 * @param failedInARow failed attempts since the last written event
	 * @param rejectedInARow refusals (other than the expected AlreadyExists and namespaces gone) among them
	 * @param lastFailure the latest failed attempt since the last written event, or {@code null}
	 * @param lastWritten when an event was last written, or {@code null} before the first
	 */
	record Reading(long failedInARow, long rejectedInARow, RecorderStats.@Nullable Failure lastFailure,
			@Nullable Instant lastWritten) {
	}

	/** Reads the four facts together. */
	synchronized Reading read() {
		return new Reading(this.failedInARow, this.rejectedInARow, this.lastFailure, this.lastWritten);
	}

}
