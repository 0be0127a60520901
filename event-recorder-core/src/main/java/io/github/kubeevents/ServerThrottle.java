package io.github.kubeevents;

import io.github.kubeevents.sink.EventSinkException;
import org.jspecify.annotations.Nullable;

/**
 * Who throttled a request with HTTP 429 Too Many Requests, as far as the answer tells: a 429 with
 * {@code Retry-After} is API Priority and Fairness (the apiserver's {@code priority-and-fairness} filter sets it;
 * the waits it asks for are honoured), one without is the {@code EventRateLimit} admission plugin (its
 * {@code NewTooManyRequestsError} sets none). Both are retried on the retry policy; each is counted under its
 * {@link #tag()} ({@code throttled_by_server}). The source is inferred from the header alone: a proxy's 429 counts
 * as one of the two as well.
 *
 * <p>Immutable and thread-safe.
 */
enum ServerThrottle {

	/** 429 with Retry-After. */
	API_PRIORITY_AND_FAIRNESS("api_priority_and_fairness"),

	/** 429 without Retry-After. */
	EVENT_RATE_LIMIT("event_rate_limit");

	private final String tag;

	ServerThrottle(String tag) {
		this.tag = tag;
	}

	/** The snake_case name in stats, snapshots and metric tags. */
	String tag() {
		return this.tag;
	}

	/** The source of a 429 answer, or {@code null} for any other failure. */
	static @Nullable ServerThrottle of(EventSinkException failure) {
		if (!failure.isTooManyRequests()) {
			return null;
		}
		return (failure.retryAfter() != null) ? API_PRIORITY_AND_FAIRNESS : EVENT_RATE_LIMIT;
	}

}
