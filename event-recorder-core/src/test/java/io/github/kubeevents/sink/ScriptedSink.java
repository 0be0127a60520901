package io.github.kubeevents.sink;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.Events;
import io.github.kubeevents.correlator.EventKeys;
import io.github.kubeevents.correlator.EventPatch;
import io.kubernetes.client.openapi.models.CoreV1Event;

/**
 * An in-memory {@link EventSink} in the style of client-go's testEventSink: stores created events by name,
 * applies patches to them, and fails the next calls with scripted exceptions. Thread-safe.
 */
public final class ScriptedSink implements EventSink {

	public record Call(String verb, CoreV1Event event, EventPatch patch) {
	}

	private final Deque<EventSinkException> failures = new ArrayDeque<>();

	private final List<Call> calls = new ArrayList<>();

	private final Map<String, CoreV1Event> stored = new ConcurrentHashMap<>();

	private final AtomicInteger resourceVersion = new AtomicInteger();

	/** Each event (by full key) fails this many times before succeeding; 0 = never. */
	private volatile int failuresPerEvent;

	private final Map<String, AtomicInteger> failuresSoFar = new ConcurrentHashMap<>();

	public synchronized ScriptedSink failNext(EventSinkException... exceptions) {
		this.failures.addAll(List.of(exceptions));
		return this;
	}

	public ScriptedSink failEachEventTimes(int times) {
		this.failuresPerEvent = times;
		return this;
	}

	@Override
	public CoreV1Event create(CoreV1Event event) throws EventSinkException {
		record("create", Events.copy(event), null);
		CoreV1Event copy = Events.copy(event);
		copy.getMetadata().setResourceVersion(String.valueOf(this.resourceVersion.incrementAndGet()));
		this.stored.put(copy.getMetadata().getName(), copy);
		return Events.copy(copy);
	}

	@Override
	public CoreV1Event patch(CoreV1Event event, EventPatch patch) throws EventSinkException {
		record("patch", Events.copy(event), patch);
		CoreV1Event existing = this.stored.get(event.getMetadata().getName());
		if (existing == null) {
			throw EventSinkException.status(404, "NotFound", "events \"" + event.getMetadata().getName() + "\" not found");
		}
		existing.setCount(patch.count());
		existing.setLastTimestamp(patch.lastTimestamp());
		existing.setMessage(patch.message());
		existing.getMetadata().setResourceVersion(String.valueOf(this.resourceVersion.incrementAndGet()));
		return Events.copy(existing);
	}

	private void record(String verb, CoreV1Event event, EventPatch patch) throws EventSinkException {
		EventSinkException failure;
		synchronized (this) {
			this.calls.add(new Call(verb, event, patch));
			failure = this.failures.poll();
		}
		if (failure != null) {
			throw failure;
		}
		if (this.failuresPerEvent > 0) {
			AtomicInteger n = this.failuresSoFar.computeIfAbsent(EventKeys.eventKey(event), (k) -> new AtomicInteger());
			if (n.incrementAndGet() <= this.failuresPerEvent) {
				throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null);
			}
		}
	}

	public synchronized List<Call> calls() {
		return List.copyOf(this.calls);
	}

	public Map<String, CoreV1Event> stored() {
		return Map.copyOf(this.stored);
	}

	public void delete(String name) {
		this.stored.remove(name);
	}

}
