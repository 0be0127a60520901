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
 * The writer of a sink, for either events API (client-go's {@code recordEvent}): turns one write its subscriber
 * decided into the requests of one attempt, made through the sink's {@link SinkRequests}. The decisions are written
 * once here; what each API sends is its {@link Bodies} ({@link CoreV1Writes}, {@link EventsV1Writes}).
 * <ul>
 * <li><b>client-go's way.</b> A first occurrence is a CREATE; a repeat is a PATCH, and a PATCH answered 404 (the
 * Event expired or was deleted) creates the Event again in the same attempt (events.k8s.io/v1: with its series, and
 * an AlreadyExists then is retried, as client-go PR #114237 does).</li>
 * <li><b>Without patch</b> (a sink with an {@link EventsAccess} probe): where RBAC allows {@code create} but not
 * {@code patch} (known from the probe, or a PATCH refused with 403 that the probe confirms; and, for the
 * events.k8s.io/v1 sink of {@code auto}, core/v1 serves no better: {@link ApiFallback#keepsWithoutPatch}), the
 * occurrences a repeat newly carries become a new Event of their own, counted as {@code written_without_patch}.</li>
 * <li><b>The stream path</b> (a write whose Event is named by its stream, deterministic names): through a
 * {@link StreamWriter}, onto whatever the server has under that name. Where RBAC refuses {@code get} (asked here,
 * on the writer thread, the first time per namespace: {@link EventNaming#confirm}) or the server refuses the read,
 * the sink falls back to client-go's names there and this occurrence becomes a new Event with a generated
 * name.</li>
 * <li><b>A CREATE answered AlreadyExists</b> under a name this process generated for the occurrence (client-go's
 * {@code <object>.<unix nanos>}, or a random UUID) is this write's own Event: an earlier attempt whose answer was
 * lost (a timeout, a connection closed after the server stored it, or the HTTP client's own silent retry of it)
 * created it. The write counts as written, where client-go drops it as refused. An Event re-created after a
 * 404 is not such a name; the stream path re-reads instead.</li>
 * </ul>
 *
 * <p>Thread-safe: the sink's writer threads write concurrently (one object's writes on one thread).
 *
 * @param <W> a write of the API
 * @param <E> its Event type
 * @param <P> its patch
 */
final class EventWriter<W extends EventWriter.Decided, E extends KubernetesObject, P extends Sink.Patch>
		implements WriteAttempts.Writer<W, EventWriter.Written<E>>, StreamWriter.Operations<W, E> {

	/**
	 * What one API sends for a write: the bodies of its requests, in the sink's shape and with the
	 * {@code traceparent} annotation when that is on.
	 *
	 * @param <W> a write of the API
	 * @param <E> its Event type
	 * @param <P> its patch
	 */
	interface Bodies<W extends Decided, E, P> {

		/** The Event the write is about: its name and namespace address a PATCH or a read. */
		E event(W write);

		/** The CREATE of a first occurrence. */
		E created(W write);

		/** The PATCH of a repeat. */
		P patch(W write);

		/** The CREATE of a repeat whose Event the server no longer has. */
		E recreated(W write);

		/** Whether an AlreadyExists answering {@link #recreated} is retried (the Event appeared meanwhile). */
		boolean retriesRecreateConflict();

		/** The occurrences a repeat newly carries, as a new Event of their own; {@code null} when it carries none. */
		@Nullable E withoutPatch(W write);

		/** This occurrence as a new Event with client-go's name (the stream path cannot be used here). */
		E fresh(W write);

		/** The count the write has in the local correlator or series cache (the stream path). */
		int localCount(W write);

		/** The occurrences the write carries when this process has not written its stream (the stream path). */
		int occurrencesIfUnknown(W write);

		/** The CREATE of the stream's Event with {@code count} occurrences. */
		E streamCreated(W write, int count);

		/** The PATCH of the stream's Event to {@code count}, if it still has {@code resourceVersion}. */
		P streamPatch(W write, int count, String resourceVersion);

		/** The count of an Event the server answered (events.k8s.io/v1: its series count, 1 without a series). */
		int count(E answer);

	}

	/**
	 * What a sink subscriber decided to write, as its writer reads it.
	 */
	interface Decided {

		/** The occurrence the write stands for (its last, for a repeat): drops, log lines, trace context. */
		RecordedEvent recorded();

		/** How many recorded occurrences it newly carries: each is counted when the write is dropped. */
		int occurrences();

		/** Whether the Event is named by its stream (deterministic names): the stream path. */
		boolean stream();

		/** Whether the write repeats an Event written before (a PATCH), rather than creating one. */
		boolean repeat();

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

	private final StreamWriter<W, E> streams;

	/**
	 * @param api the API written
	 * @param bodies what it sends
	 * @param requests the sink's requests
	 * @param naming how the sink names its Events (told when RBAC or the server refuses a read)
	 * @param access the RBAC probe, for writing repeats as new Events where {@code patch} is refused; {@code null}
	 * for none (every repeat is a PATCH)
	 * @param apiFallback the switch to core/v1 of {@code auto} (which serves a namespace without patch better when
	 * it allows more); {@code null} for none
	 * @param streamCapacity how many streams the stream path remembers
	 * @param settings the broadcaster's settings (the jitter of the stream path's re-reads)
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
				requests::pause, this);
	}

	/** The streams of the deterministic-names mode, for what a stop writes and a shutdown counts. */
	StreamWriter<W, E> streams() {
		return this.streams;
	}

	@Override
	public Written<E> write(W write, WriteAttempts.Context context) throws EventSinkException {
		if (write.stream()) {
			return writeOnStream(write, context);
		}
		if (!write.repeat()) {
			return new Written<>(createOwn(this.bodies.created(write), context), false);
		}
		String namespace = namespace(this.bodies.event(write));
		if (withoutPatch(namespace, null)) {
			return createWithoutPatch(write, context);
		}
		try {
			return new Written<>(this.requests.patch(context, this.bodies.event(write), this.bodies.patch(write)), false);
		}
		catch (EventSinkException ex) {
			if (withoutPatch(namespace, ex)) {
				return createWithoutPatch(write, context);
			}
			if (!ex.isNotFound()) {
				throw ex;
			}
			logger.debug("Event {} no longer exists on the server (expired or deleted); creating it again",
					name(this.bodies.event(write)));
		}
		try {
			return new Written<>(this.requests.create(context, this.bodies.recreated(write)), false);
		}
		catch (EventSinkException ex) {
			if (ex.isAlreadyExists() && this.bodies.retriesRecreateConflict()) {
				throw EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
						"AlreadyExists while creating from a series: " + ex.getMessage(), ex);
			}
			throw ex;
		}
	}

	/** The deterministic-names write, or client-go's way where RBAC refuses {@code get} (asked here, not before). */
	private Written<E> writeOnStream(W write, WriteAttempts.Context context) throws EventSinkException {
		String namespace = namespace(this.bodies.event(write));
		if (!this.naming.confirm(this.api, namespace)) {
			return new Written<>(createOwn(this.bodies.fresh(write), context), false);
		}
		if (write.repeat() && withoutPatch(namespace, null)) {
			return createWithoutPatch(write, context);
		}
		try {
			return writeToStream(write, context);
		}
		catch (EventSinkException ex) {
			// a stream's first write after a restart patches too: RBAC without patch makes it a new Event
			if (!withoutPatch(namespace, ex)) {
				throw ex;
			}
			return createWithoutPatch(write, context);
		}
	}

	/**
	 * A CREATE under a name generated for this occurrence: an AlreadyExists is this write's own Event, created by
	 * an earlier attempt whose answer was lost.
	 */
	private E createOwn(E body, WriteAttempts.Context context) throws EventSinkException {
		try {
			return this.requests.create(context, body);
		}
		catch (EventSinkException ex) {
			if (!ex.isAlreadyExists()) {
				throw ex;
			}
			logger.debug("Event {} exists already: an earlier attempt of this write created it and its answer was lost",
					name(body));
			this.requests.createdEarlier();
			return body;
		}
	}

	/**
	 * Whether a repeat becomes a new Event because RBAC allows {@code create} but not {@code patch} (and the API
	 * stays): known from the probe ({@code refusal} {@code null}), or a PATCH refused with 403 that the probe
	 * confirms.
	 */
	private boolean withoutPatch(@Nullable String namespace, @Nullable EventSinkException refusal) {
		if (this.access == null || namespace == null) {
			return false;
		}
		EventsAccess.Check check;
		if (refusal == null) {
			check = this.access.known(this.api, namespace);
		}
		else if (refusal.isForbidden() && !refusal.namespaceTerminating()) {
			check = this.access.recheck(this.api, namespace, "patch");
		}
		else {
			return false;
		}
		return check != null && check.withoutPatch()
				&& (this.apiFallback == null || this.apiFallback.keepsWithoutPatch(namespace));
	}

	private Written<E> createWithoutPatch(W write, WriteAttempts.Context context) throws EventSinkException {
		E body = this.bodies.withoutPatch(write);
		if (body == null) {
			return new Written<>(null, false);
		}
		E created = createOwn(body, context);
		this.counters.writtenWithoutPatch(this.bodies.count(body));
		return new Written<>(created, false);
	}

	/** The deterministic-names write: onto whatever the server has under the stream's name. */
	private Written<E> writeToStream(W write, WriteAttempts.Context context) throws EventSinkException {
		E event = this.bodies.event(write);
		String namespace = namespace(event);
		StreamWriter.Result<E> written = this.streams.write(namespace + "/" + name(event),
				this.bodies.localCount(write), this.bodies.occurrencesIfUnknown(write), write.recorded(), write,
				context);
		if (written.readRefused()) {
			this.naming.readRefused(this.api, namespace);
			return new Written<>(createOwn(this.bodies.fresh(write), context), false);
		}
		return new Written<>(written.event(), true);
	}

	@Override
	public E create(W write, int count, WriteAttempts.Context context) throws EventSinkException {
		return this.requests.create(context, this.bodies.streamCreated(write, count));
	}

	@Override
	public E get(W write, WriteAttempts.Context context) throws EventSinkException {
		E event = this.bodies.event(write);
		return this.requests.get(context, namespace(event), name(event));
	}

	@Override
	public E patch(W write, int count, String resourceVersion, WriteAttempts.Context context)
			throws EventSinkException {
		return this.requests.patch(context, this.bodies.event(write),
				this.bodies.streamPatch(write, count, resourceVersion));
	}

	@Override
	public int count(E answer) {
		return this.bodies.count(answer);
	}

	@Override
	public @Nullable String resourceVersion(E answer) {
		return (answer.getMetadata() != null) ? answer.getMetadata().getResourceVersion() : null;
	}

	private static @Nullable String namespace(KubernetesObject event) {
		V1ObjectMeta metadata = event.getMetadata();
		return (metadata != null) ? metadata.getNamespace() : null;
	}

	private static @Nullable String name(KubernetesObject event) {
		V1ObjectMeta metadata = event.getMetadata();
		return (metadata != null) ? metadata.getName() : null;
	}

}
