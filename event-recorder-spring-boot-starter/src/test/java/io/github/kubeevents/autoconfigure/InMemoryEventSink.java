package io.github.kubeevents.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.correlator.EventPatch;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * An {@link EventSink} keeping what it is asked to write; the first {@code transportFailures} calls fail with a
 * transport error.
 */
public final class InMemoryEventSink implements EventSink {

	private final List<CoreV1Event> created = new CopyOnWriteArrayList<>();

	private final List<CoreV1Event> patched = new CopyOnWriteArrayList<>();

	private final AtomicInteger transportFailures;

	public InMemoryEventSink() {
		this(0);
	}

	public InMemoryEventSink(int transportFailures) {
		this.transportFailures = new AtomicInteger(transportFailures);
	}

	@Override
	public CoreV1Event create(CoreV1Event event) throws EventSinkException {
		failIfDue();
		this.created.add(event);
		return event;
	}

	@Override
	public CoreV1Event patch(CoreV1Event event, EventPatch patch) throws EventSinkException {
		failIfDue();
		this.patched.add(event);
		return event;
	}

	private void failIfDue() throws EventSinkException {
		if (this.transportFailures.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
			throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null);
		}
	}

	public List<CoreV1Event> created() {
		return List.copyOf(this.created);
	}

	public List<CoreV1Event> patched() {
		return List.copyOf(this.patched);
	}

}
