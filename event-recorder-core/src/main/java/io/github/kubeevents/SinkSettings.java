package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

import io.github.kubeevents.sink.EventShape;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.RetryPolicy;
import io.github.kubeevents.sink.Sink;
import org.jspecify.annotations.Nullable;

/**
 * What every sink of one broadcaster is configured with, from its builder: how writes are retried and paced, how
 * many writer threads each sink has and how many writes its backlog holds, the events API and request
 * time limit of sinks built for a client, the series cache size and the correlation options of each API.
 *
 * <p>Immutable; thread-safe (the write budget is a thread-safe bucket shared by all sinks).
 *
 * @param retryPolicy attempts and delays of writes
 * @param sleeper what waits between attempts, for the budget and for Retry-After
 * @param jitter uniform random numbers in [0, 1) for the retry delays
 * @param requestListener told about every request
 * @param writeBudget the token bucket every request of every sink takes from, or {@code null} for no limit
 * @param clock the broadcaster's clock
 * @param writers writer threads per sink
 * @param backlogCapacity writes each sink holds for its writer threads
 * @param nanoTime a monotonic time in nanoseconds ({@link System#nanoTime()}, or a test's ticker): times requests
 * and Retry-After holds
 * @param eventsApi the API of sinks built for a client
 * @param requestTimeout the time limit of one request of sinks built for a client
 * @param seriesCacheSize events an events.k8s.io/v1 sink remembers for its series
 * @param coreV1Correlation each core/v1 sink's correlator options (clock resolved)
 * @param eventsV1Correlation each events.k8s.io/v1 sink's correlator options (clock resolved)
 * @param deterministicNames whether sinks name Events by their occurrence stream (the opt-in mode that survives
 * restarts and replicas) instead of client-go's way
 * @param shape the fields core/v1 writes carry: client-go's, or with what the readers of Events need
 * @param tracing whether the recorders capture trace context (then each request runs in its write's context)
 * @param traceparentAnnotation the annotation key the write's {@code traceparent} is written under, or
 * {@code null} for none (the default)
 */
record SinkSettings(RetryPolicy retryPolicy, Sleeper sleeper, DoubleSupplier jitter,
		Sink.RequestListener requestListener, @Nullable TokenBucket writeBudget, Clock clock, int writers,
		int backlogCapacity, EventsApi eventsApi, Duration requestTimeout, int seriesCacheSize,
		CorrelatorOptions coreV1Correlation, CorrelatorOptions eventsV1Correlation, boolean deterministicNames, EventShape shape,
		boolean tracing, @Nullable String traceparentAnnotation, LongSupplier nanoTime) {
}
