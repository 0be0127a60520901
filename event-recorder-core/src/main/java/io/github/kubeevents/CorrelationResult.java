package io.github.kubeevents;

import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * What {@link EventCorrelator#correlate(CoreV1Event)} decided.
 *
 * <p>Immutable value; the event inside belongs to the caller.
 *
 * @param event the event to write: the input, an aggregate of similar events, or an update of an earlier one
 * @param patch the patch for an update ({@code event.count > 1}), otherwise {@code null}
 * @param skip {@code true} when the spam filter rejected the event
 */
record CorrelationResult(CoreV1Event event, EventSink.CountPatch patch, boolean skip) {

	/**
	 * Whether the event updates an existing Event (PATCH) rather than creating one (POST). Decided by the
	 * correlated event's count, like client-go.
	 * @return {@code true} for a PATCH
	 */
	public boolean isUpdate() {
		return this.event.getCount() != null && this.event.getCount() > 1;
	}

}
