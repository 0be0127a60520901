package io.github.kubeevents.testsupport;

import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.models.EventsV1Event;

/**
 * An {@link EventsV1Sink} that answers every request with the Event it was given: for tests that need one to exist,
 * not to look at what it wrote. Stateless and thread-safe.
 */
public final class EchoingEventsV1Sink implements EventsV1Sink {

	@Override
	public EventsV1Event create(EventsV1Event event) {
		return event;
	}

	@Override
	public EventsV1Event patch(EventsV1Event event, SeriesPatch patch) {
		return event;
	}

}
