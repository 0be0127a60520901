package io.github.kubeevents;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsV1Sink;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;

/**
 * An API server's Events in memory, for the deterministic-names mode: several sinks (processes, replicas) over one
 * store. Create answers 409 AlreadyExists for a stored name, get and patch 404 for a missing one, a patch carrying a
 * resourceVersion 409 Conflict when the Event has another; every write gives a new resourceVersion. A hook runs
 * before each request (to inject another writer's change), and every request is logged ({@code "create ns/name"}).
 *
 * <p>Thread-safe (one lock).
 */
final class StoredEvents {

	private final Map<String, Object> events = new LinkedHashMap<>();

	private final List<String> requests = new ArrayList<>();

	private long resourceVersion;

	private volatile Consumer<String> beforeRequest = (request) -> {
	};

	private volatile boolean getForbidden;

	/** Runs {@code hook} with the request line before every request (outside the lock). */
	void beforeRequest(Consumer<String> hook) {
		this.beforeRequest = hook;
	}

	/** Makes every get answer 403. */
	void forbidGet() {
		this.getForbidden = true;
	}

	synchronized List<String> requests() {
		return List.copyOf(this.requests);
	}

	synchronized void clearRequests() {
		this.requests.clear();
	}

	synchronized CoreV1Event coreV1(String namespace, String name) {
		return copy((CoreV1Event) this.events.get(namespace + "/" + name));
	}

	synchronized EventsV1Event eventsV1(String namespace, String name) {
		return copy((EventsV1Event) this.events.get(namespace + "/" + name));
	}

	synchronized List<Object> all() {
		return List.copyOf(this.events.values());
	}

	/** Deletes an Event (it expired, or someone deleted it). */
	synchronized void delete(String key) {
		this.events.remove(key);
	}

	/** Another writer's change: bumps the stored Event's count (or series count) and resourceVersion. */
	synchronized void bump(String key, int occurrences) {
		Object event = this.events.get(key);
		if (event instanceof CoreV1Event core) {
			core.setCount(core.getCount() + occurrences);
			core.getMetadata().setResourceVersion(nextVersion());
		}
		else if (event instanceof EventsV1Event v1) {
			int count = (v1.getSeries() != null) ? v1.getSeries().getCount() : 1;
			v1.setSeries(new EventsV1EventSeries().count(count + occurrences).lastObservedTime(v1.getEventTime()));
			v1.getMetadata().setResourceVersion(nextVersion());
		}
	}

	private String nextVersion() {
		return Long.toString(++this.resourceVersion);
	}

	private void before(String verb, String key) {
		this.beforeRequest.accept(verb + " " + key);
		synchronized (this) {
			this.requests.add(verb + " " + key);
		}
	}

	private synchronized Object create(String key, Object event, Consumer<String> setVersion) throws EventSinkException {
		if (this.events.containsKey(key)) {
			throw EventSinkException.status(409, "AlreadyExists", "events \"" + key + "\" already exists");
		}
		setVersion.accept(nextVersion());
		this.events.put(key, event);
		return event;
	}

	private synchronized Object get(String key) throws EventSinkException {
		if (this.getForbidden) {
			throw EventSinkException.status(403, "Forbidden", "events \"" + key + "\" is forbidden: get");
		}
		Object event = this.events.get(key);
		if (event == null) {
			throw EventSinkException.status(404, "NotFound", "events \"" + key + "\" not found");
		}
		return event;
	}

	private synchronized Object stored(String key, String expectedVersion, String actualVersion) throws EventSinkException {
		if (expectedVersion != null && !expectedVersion.equals(actualVersion)) {
			throw EventSinkException.status(409, "Conflict", "the object has been modified");
		}
		return this.events.get(key);
	}

	private static CoreV1Event copy(CoreV1Event event) {
		return (event != null) ? JSON.deserialize(JSON.serialize(event), CoreV1Event.class) : null;
	}

	private static EventsV1Event copy(EventsV1Event event) {
		return (event != null) ? JSON.deserialize(JSON.serialize(event), EventsV1Event.class) : null;
	}

	private static String key(io.kubernetes.client.openapi.models.V1ObjectMeta metadata) {
		return metadata.getNamespace() + "/" + metadata.getName();
	}

	/** A core/v1 sink over this store. */
	EventSink coreV1Sink() {
		return new EventSink() {

			@Override
			public CoreV1Event create(CoreV1Event event) throws EventSinkException {
				String key = key(event.getMetadata());
				before("create", key);
				CoreV1Event stored = copy(event);
				synchronized (StoredEvents.this) {
					return copy((CoreV1Event) StoredEvents.this.create(key, stored,
							(version) -> stored.getMetadata().setResourceVersion(version)));
				}
			}

			@Override
			public CoreV1Event patch(CoreV1Event event, CountPatch patch) throws EventSinkException {
				String key = key(event.getMetadata());
				before("patch", key);
				synchronized (StoredEvents.this) {
					CoreV1Event stored = (CoreV1Event) StoredEvents.this.events.get(key);
					if (stored == null) {
						throw EventSinkException.status(404, "NotFound", "events \"" + key + "\" not found");
					}
					StoredEvents.this.stored(key, patch.resourceVersion(), stored.getMetadata().getResourceVersion());
					stored.setCount(patch.count());
					stored.setLastTimestamp(patch.lastTimestamp());
					stored.setMessage(patch.message());
					stored.getMetadata().setResourceVersion(nextVersion());
					return copy(stored);
				}
			}

			@Override
			public CoreV1Event get(String namespace, String name) throws EventSinkException {
				before("get", namespace + "/" + name);
				// copied under the lock: a patch of another writer between reading the count and the resourceVersion
				// would answer an old count with the new resourceVersion, and the reader's patch would then lose one
				synchronized (StoredEvents.this) {
					return copy((CoreV1Event) StoredEvents.this.get(namespace + "/" + name));
				}
			}

			@Override
			public boolean supportsGet() {
				return true;
			}

		};
	}

	/** An events.k8s.io/v1 sink over this store. */
	EventsV1Sink eventsV1Sink() {
		return new EventsV1Sink() {

			@Override
			public EventsV1Event create(EventsV1Event event) throws EventSinkException {
				String key = key(event.getMetadata());
				before("create", key);
				EventsV1Event stored = copy(event);
				synchronized (StoredEvents.this) {
					return copy((EventsV1Event) StoredEvents.this.create(key, stored,
							(version) -> stored.getMetadata().setResourceVersion(version)));
				}
			}

			@Override
			public EventsV1Event patch(EventsV1Event event, SeriesPatch patch) throws EventSinkException {
				String key = key(event.getMetadata());
				before("patch", key);
				synchronized (StoredEvents.this) {
					EventsV1Event stored = (EventsV1Event) StoredEvents.this.events.get(key);
					if (stored == null) {
						throw EventSinkException.status(404, "NotFound", "events \"" + key + "\" not found");
					}
					StoredEvents.this.stored(key, patch.resourceVersion(), stored.getMetadata().getResourceVersion());
					stored.setSeries(new EventsV1EventSeries().count(patch.count())
						.lastObservedTime(EventsV1Events.microTime(patch.lastObservedTime())));
					stored.getMetadata().setResourceVersion(nextVersion());
					return copy(stored);
				}
			}

			@Override
			public EventsV1Event get(String namespace, String name) throws EventSinkException {
				before("get", namespace + "/" + name);
				// copied under the lock: a patch of another writer between reading the count and the resourceVersion
				// would answer an old count with the new resourceVersion, and the reader's patch would then lose one
				synchronized (StoredEvents.this) {
					return copy((EventsV1Event) StoredEvents.this.get(namespace + "/" + name));
				}
			}

			@Override
			public boolean supportsGet() {
				return true;
			}

		};
	}

}
