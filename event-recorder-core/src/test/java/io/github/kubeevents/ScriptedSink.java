package io.github.kubeevents;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.CoreV1EventSeries;

/**
 * An in-memory {@link EventSink} in the style of client-go's {@code testEventSink}: it stores created Events by
 * name, applies patches to them (404 when the Event is not stored), and can be scripted to fail the next calls,
 * to fail every event a number of times, and to take a while per call.
 *
 * <p>{@link #abort()} behaves like the official client's sinks' ({@code EventsClient.of(ApiClient)}): a call waiting in its {@link #delayEachCall delay}
 * ends at once and every call from then on fails with a transport error.
 *
 * <p>Shared with the other modules' tests through core's test-jar. Thread-safe.
 */
public final class ScriptedSink implements EventSink {

	/**
	 * One call the sink received.
	 * @param verb {@code create} or {@code patch}
	 * @param event a copy of the event as it was passed in
	 * @param patch the patch, {@code null} for a create
	 */
	public record Call(String verb, CoreV1Event event, EventSink.CountPatch patch) {
	}

	private final Deque<EventSinkException> failures = new ArrayDeque<>();

	private final List<Call> calls = new ArrayList<>();

	private final Map<String, CoreV1Event> stored = new ConcurrentHashMap<>();

	private final AtomicInteger resourceVersion = new AtomicInteger();

	private final Map<String, AtomicInteger> failuresSoFar = new ConcurrentHashMap<>();

	private final CountDownLatch aborted = new CountDownLatch(1);

	private final AtomicInteger cancelCalls = new AtomicInteger();

	private final AtomicInteger abortCalls = new AtomicInteger();

	private final AtomicInteger callCount = new AtomicInteger();

	private final AtomicInteger succeeded = new AtomicInteger();

	private volatile int failuresPerEvent;

	private volatile long delayNanos;

	private volatile boolean keepCalls = true;

	/**
	 * Fails the next calls, one exception each, in order.
	 * @param exceptions what the next calls throw
	 * @return this sink
	 */
	public synchronized ScriptedSink failNext(EventSinkException... exceptions) {
		this.failures.addAll(List.of(exceptions));
		return this;
	}

	/**
	 * Fails each distinct event (by its full correlator key) this many times with a transport error before it
	 * succeeds.
	 * @param times failures per event; 0 for never
	 * @return this sink
	 */
	public ScriptedSink failEachEventTimes(int times) {
		this.failuresPerEvent = times;
		return this;
	}

	/**
	 * Makes every call take {@code delay} (a slow API server), unless {@link #abort()} ends the wait.
	 * @param delay the time per call
	 * @return this sink
	 */
	public ScriptedSink delayEachCall(Duration delay) {
		this.delayNanos = delay.toNanos();
		return this;
	}

	/**
	 * Stops keeping a copy of every call (for load tests); {@link #calls()} is then empty and
	 * {@link #callCount()} still counts.
	 * @return this sink
	 */
	public ScriptedSink withoutCallLog() {
		this.keepCalls = false;
		return this;
	}

	@Override
	public CoreV1Event create(CoreV1Event event) throws EventSinkException {
		call("create", event, null);
		CoreV1Event copy = TestEvents.copy(event);
		copy.getMetadata().setResourceVersion(String.valueOf(this.resourceVersion.incrementAndGet()));
		this.stored.put(copy.getMetadata().getName(), copy);
		this.succeeded.incrementAndGet();
		return TestEvents.copy(copy);
	}

	@Override
	public CoreV1Event patch(CoreV1Event event, EventSink.CountPatch patch) throws EventSinkException {
		call("patch", event, patch);
		CoreV1Event existing = this.stored.get(event.getMetadata().getName());
		if (existing == null) {
			throw EventSinkException.status(404, "NotFound",
					"events \"" + event.getMetadata().getName() + "\" not found");
		}
		synchronized (existing) {
			existing.setCount(patch.count());
			existing.setLastTimestamp(patch.lastTimestamp());
			existing.setMessage(patch.message());
			if (patch.lastObservedTime() != null) {
				existing.setSeries(new CoreV1EventSeries().count(patch.count())
					.lastObservedTime(EventsV1Events.microTime(patch.lastObservedTime())));
				existing.setEventTime(null);
			}
			existing.getMetadata().setResourceVersion(String.valueOf(this.resourceVersion.incrementAndGet()));
			this.succeeded.incrementAndGet();
			return TestEvents.copy(existing);
		}
	}

	@Override
	public void cancel() {
		this.cancelCalls.incrementAndGet();
	}

	@Override
	public void abort() {
		this.abortCalls.incrementAndGet();
		this.aborted.countDown();
	}

	private void call(String verb, CoreV1Event event, EventSink.CountPatch patch) throws EventSinkException {
		EventSinkException failure;
		synchronized (this) {
			this.callCount.incrementAndGet();
			if (this.keepCalls) {
				this.calls.add(new Call(verb, TestEvents.copy(event), patch));
			}
			failure = this.failures.poll();
		}
		if (this.aborted.getCount() == 0) {
			throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "sink aborted", null);
		}
		if (this.delayNanos > 0) {
			try {
				if (this.aborted.await(this.delayNanos, TimeUnit.NANOSECONDS)) {
					throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "call cancelled by abort", null);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "interrupted", ex);
			}
		}
		if (failure != null) {
			throw failure;
		}
		if (this.failuresPerEvent > 0) {
			AtomicInteger n = this.failuresSoFar.computeIfAbsent(EventKeys.eventKey(event),
					(k) -> new AtomicInteger());
			if (n.incrementAndGet() <= this.failuresPerEvent) {
				throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection refused", null);
			}
		}
	}

	/**
	 * Every call so far, in order (empty after {@link #withoutCallLog()}).
	 * @return an immutable copy
	 */
	public synchronized List<Call> calls() {
		return List.copyOf(this.calls);
	}

	/**
	 * How many calls were made, failed ones included.
	 * @return the count
	 */
	public int callCount() {
		return this.callCount.get();
	}

	/**
	 * How many calls succeeded (returned a stored Event).
	 * @return the count
	 */
	public int succeeded() {
		return this.succeeded.get();
	}

	/**
	 * The stored Events by name.
	 * @return an immutable copy
	 */
	public Map<String, CoreV1Event> stored() {
		return Map.copyOf(this.stored);
	}

	/**
	 * Deletes a stored Event, as the API server's TTL does: its next PATCH gets a 404.
	 * @param name the Event's name
	 */
	public void delete(String name) {
		this.stored.remove(name);
	}

	/**
	 * How often {@link #cancel()} was called.
	 * @return the count
	 */
	public int cancelCalls() {
		return this.cancelCalls.get();
	}

	/**
	 * How often {@link #abort()} was called.
	 * @return the count
	 */
	public int abortCalls() {
		return this.abortCalls.get();
	}

}
