package io.github.kubeevents.testsupport;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * An {@link EventSink} keeping what it is asked to write. Failures can be scripted: each call first takes the next
 * scripted failure, if any, and throws it.
 */
public final class InMemoryEventSink implements EventSink {

	private final List<CoreV1Event> created = new CopyOnWriteArrayList<>();

	private final List<CoreV1Event> patched = new CopyOnWriteArrayList<>();

	private final Queue<EventSinkException> failures = new ConcurrentLinkedQueue<>();

	public InMemoryEventSink() {
	}

	/**
	 * A sink whose first calls fail with a transport error.
	 * @param transportFailures how many calls fail
	 */
	public InMemoryEventSink(int transportFailures) {
		for (int i = 0; i < transportFailures; i++) {
			failNext(EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null));
		}
	}

	/**
	 * Makes the next call (after those already scripted) throw {@code failure}.
	 * @param failure the failure
	 * @return this sink
	 */
	public InMemoryEventSink failNext(EventSinkException failure) {
		this.failures.add(failure);
		return this;
	}

	@Override
	public CoreV1Event create(CoreV1Event event) throws EventSinkException {
		failIfDue();
		this.created.add(event);
		return event;
	}

	@Override
	public CoreV1Event patch(CoreV1Event event, EventSink.CountPatch patch) throws EventSinkException {
		failIfDue();
		this.patched.add(event);
		return event;
	}

	private void failIfDue() throws EventSinkException {
		EventSinkException failure = this.failures.poll();
		if (failure != null) {
			throw failure;
		}
	}

	public List<CoreV1Event> created() {
		return List.copyOf(this.created);
	}

	public List<CoreV1Event> patched() {
		return List.copyOf(this.patched);
	}

}
