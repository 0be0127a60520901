package io.github.kubeevents.introspect;

import java.time.Duration;

/**
 * The write budget of a broadcaster's sinks (an optional client-side limit on API server requests) at one
 * moment.
 *
 * <p>Immutable and thread-safe.
 *
 * @param qps requests per second, sustained
 * @param burst requests that may be made at once
 * @param throttledRequests requests that had to wait for the budget
 * @param totalWait the total of those waits
 */
public record WriteBudgetSnapshot(double qps, int burst, long throttledRequests, Duration totalWait) {
}
