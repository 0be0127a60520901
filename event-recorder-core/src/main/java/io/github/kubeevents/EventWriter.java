package io.github.kubeevents;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer of a sink, for either events API (client-go's {@code recordEvent}): one attempt of a write its
 * subscriber decided, as requests through the sink's {@link SinkRequests}; what each API sends is its
 * {@link Bodies} ({@link CoreV1Writes}, {@link EventsV1Writes}). A first occurrence is a CREATE, a repeat a PATCH,
 * and a PATCH answered 404 creates the Event again (events.k8s.io/v1: with its series, an AlreadyExists then retried,
 * as client-go PR #114237 does). Where RBAC allows {@code create} without {@code patch} (the {@link EventsAccess}
 * probe's answer, or a 403 it confirms) and the API stays ({@link ApiFallback#keepsWithoutPatch}), a repeat's new
 * occurrences become an Event of their own ({@code written_without_patch}). Deterministic names write through a
 * {@link StreamWriter}; where RBAC refuses {@code get} (asked here, on the writer thread:
 * {@link EventNaming#confirm}) or the server refuses a read, the write's new occurrences become an Event of their own
 * under client-go's name (not counted as {@code written_without_patch}). An AlreadyExists answering a CREATE whose
 * earlier attempt in the same write failed after the server may have stored it (a timeout, a lost connection, a 5xx:
 * {@link WriteContext#isLostCreate}) is that attempt's Event: written, where client-go drops it; any other
 * AlreadyExists is refused, as client-go's.
 *
 * <p>Thread-safe: the sink's writer threads write concurrently (one object's writes on one thread).
 *
 * @param <W> a write of the API
 * @param <E> its Event type
 * @param <P> its patch
 */
final class EventWriter<W extends SinkWrite, E extends KubernetesObject, P extends Sink.Patch>
		implements WriteAttempts.Writer<W, EventWriter.Written<E>> {

	/**
	 * What one API sends for a write, in the sink's shape and with the {@code traceparent} annotation when that is
	 * on.
	 */
	interface Bodies<W extends SinkWrite, E, P> {

		/** The Event the write is about: its name and namespace address a PATCH or a read. */
		E event(W write);

		/** The CREATE of a first occurrence, or of a repeat whose Event the server no longer has (its count). */
		default E created(W write) {
			return created(write, write.localCount());
		}

		/** The CREATE of the stream's Event with {@code count} occurrences. */
		E created(W write, int count);

		/**
		 * The write's new occurrences as an Event of their own under client-go's name (a repeat where RBAC refuses
		 * {@code patch}; a write the stream path cannot make); {@code null} when it carries none.
		 */
		@Nullable E own(W write);

		/** The count PATCH of a repeat: to {@code count}, on the stream path only if unchanged since its version. */
		P patch(W write, int count, @Nullable String resourceVersion);

		/** The count of an Event the server answered (events.k8s.io/v1: its series count, 1 without a series). */
		int count(E answer);

	}

	/**
	 * What one attempt wrote.
	 * @param answer what the server answered last; {@code null} when nothing needed writing
	 * @param onStream whether the stream path wrote it (the answer's count then includes other processes')
	 */
	record Written<E>(@Nullable E answer, boolean onStream) {
	}

	private static final Logger logger = LoggerFactory.getLogger(EventWriter.class);

	private final EventsApi api;

	private final Bodies<W, E, P> bodies;

	private final SinkRequests<E, P> requests;

	private final EventCounters counters;

	private final EventNaming naming;

	private final @Nullable EventsAccess access;

	private final @Nullable ApiFallback apiFallback;

	private final StreamWriter<W, E, P> streams;

	/**
	 * @param access the RBAC probe, for repeats as new Events where {@code patch} is refused; {@code null} for none
	 * @param apiFallback the switch to core/v1 of {@code auto}; {@code null} for none
	 * @param streamCapacity how many streams the stream path remembers
	 */
	EventWriter(EventsApi api, Bodies<W, E, P> bodies, SinkRequests<E, P> requests, EventCounters counters,
			EventNaming naming, @Nullable EventsAccess access, @Nullable ApiFallback apiFallback, int streamCapacity,
			SinkSettings settings) {
		this.api = api;
		this.bodies = bodies;
		this.requests = requests;
		this.counters = counters;
		this.naming = naming;
		this.access = access;
		this.apiFallback = apiFallback;
		this.streams = new StreamWriter<>(streamCapacity, (api == EventsApi.EVENTS_V1) ? 2 : 1, settings.jitter(),
				bodies, requests);
	}

	/** The streams of the deterministic-names mode, for what a stop writes and a shutdown counts. */
	StreamWriter<W, E, P> streams() {
		return this.streams;
	}

	@Override
	public Written<E> write(W write, WriteContext context) throws EventSinkException {
		if (write.stream()) {
			return writeOnStream(write, context);
		}
		if (!write.repeat()) {
			return new Written<>(createOwn(this.bodies.created(write), context), false);
		}
		E event = this.bodies.event(write);
		String namespace = event.getMetadata().getNamespace();
		if (withoutPatch(namespace, null)) {
			return writeOwn(write, context, true);
		}
		try {
			P patch = this.bodies.patch(write, write.localCount(), null);
			return new Written<>(this.requests.patch(context, event, patch), false);
		}
		catch (EventSinkException ex) {
			if (withoutPatch(namespace, ex)) {
				return writeOwn(write, context, true);
			}
			if (!ex.isNotFound()) {
				throw ex;
			}
			logger.debug("Event {} no longer exists on the server (expired or deleted); creating it again",
					event.getMetadata().getName());
		}
		try {
			return new Written<>(this.requests.create(context, this.bodies.created(write)), false);
		}
		catch (EventSinkException ex) {
			// tools/events retries it (the Event appeared meanwhile), tools/record refuses it
			boolean retried = ex.isAlreadyExists() && this.api == EventsApi.EVENTS_V1;
			throw retried ? EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
					"AlreadyExists while creating from a series: " + ex.getMessage(), ex) : ex;
		}
	}

	/** The deterministic-names write: onto whatever the server has under the stream's name. */
	private Written<E> writeOnStream(W write, WriteContext context) throws EventSinkException {
		V1ObjectMeta metadata = this.bodies.event(write).getMetadata();
		String namespace = metadata.getNamespace();
		if (this.naming.confirm(this.api, namespace)) {
			if (write.repeat() && withoutPatch(namespace, null)) {
				return writeOwn(write, context, true);
			}
			StreamWriter.Result<E> written;
			try {
				written = this.streams.write(namespace + "/" + metadata.getName(), write, context);
			}
			catch (EventSinkException ex) {
				// a stream's first write after a restart patches too: RBAC without patch makes it a new Event
				if (!withoutPatch(namespace, ex)) {
					throw ex;
				}
				return writeOwn(write, context, true);
			}
			if (!written.readRefused()) {
				return new Written<>(written.event(), true);
			}
			this.naming.readRefused(this.api, namespace);
		}
		// its new occurrences alone: the stream's Event may hold the earlier ones
		return writeOwn(write, context, false);
	}

	/** A CREATE of the write's own Event: an AlreadyExists after its lost CREATE is that CREATE's Event. */
	private E createOwn(E body, WriteContext context) throws EventSinkException {
		try {
			return this.requests.create(context, body);
		}
		catch (EventSinkException ex) {
			if (!ex.isAlreadyExists() || !context.isLostCreate(body.getMetadata().getName())) {
				throw ex;
			}
			logger.debug("Event {} exists: its lost CREATE created it", body.getMetadata().getName());
			this.requests.createdEarlier();
			return body;
		}
	}

	/**
	 * Whether a repeat becomes a new Event because RBAC allows {@code create} but not {@code patch} (and the API
	 * stays): known from the probe ({@code refusal} {@code null}), or a PATCH refused with 403 that it confirms.
	 */
	private boolean withoutPatch(@Nullable String namespace, @Nullable EventSinkException refusal) {
		if (this.access == null || namespace == null
				|| (refusal != null && (!refusal.isForbidden() || refusal.namespaceTerminating()))) {
			return false;
		}
		EventsAccess.Check check = (refusal == null) ? this.access.known(this.api, namespace)
				: this.access.recheck(this.api, namespace, "patch");
		return check != null && check.withoutPatch()
				&& (this.apiFallback == null || this.apiFallback.keepsWithoutPatch(namespace));
	}

	/** The write's new occurrences as an Event of its own; {@code written_without_patch} when {@code withoutPatch}. */
	private Written<E> writeOwn(W write, WriteContext context, boolean withoutPatch) throws EventSinkException {
		E body = this.bodies.own(write);
		if (body == null) {
			return new Written<>(null, false);
		}
		E created = createOwn(body, context);
		if (withoutPatch) {
			this.counters.writtenWithoutPatch(this.bodies.count(body));
		}
		return new Written<>(created, false);
	}

}
