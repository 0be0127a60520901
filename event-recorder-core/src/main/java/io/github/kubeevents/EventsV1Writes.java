package io.github.kubeevents;

import java.util.LinkedHashMap;

import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The events.k8s.io/v1 writer of a sink (client-go's {@code tools/events} {@code recordEvent}): turns one
 * {@link SeriesCache.Write} its subscriber's series cache decided into the requests of one attempt, on the sink's
 * {@link Sink}, with the {@code traceparent} annotation when that is on.
 * <ul>
 * <li>A first occurrence is a CREATE without a series; a later write PATCHes the series. A series PATCH that gets
 * 404 (the Event expired or was deleted) creates the Event anew with its series; an AlreadyExists while doing so is
 * retried (the original CREATE landed meanwhile; client-go PR #114237).</li>
 * <li><b>Without patch</b> (a sink with an {@link EventsAccess} probe): where RBAC allows {@code create} but not
 * {@code patch} and events.k8s.io/v1 stays the API ({@link ApiFallback#keepsWithoutPatch}), the occurrences a
 * series write newly carries become a new Event of their own, counted as {@code written_without_patch}.</li>
 * <li><b>The stream path</b> (a write whose Event is named by its stream, {@link SeriesCache.Write#stream()}):
 * through a {@link StreamWriter}, {@code series.count} becomes the server's count plus the write's new occurrences,
 * with a resourceVersion precondition; a first occurrence that finds an Event without a series starts one at 2. A
 * refused read (403) falls back to client-go's names ({@link EventNaming#readRefused}); that write is then a CREATE
 * under a generated name.</li>
 * </ul>
 *
 * <p>Thread-safe: the sink's writer threads write concurrently (one stream's writes on one thread).
 */
final class EventsV1Writes {

	private static final Logger logger = LoggerFactory.getLogger(EventsV1Writes.class);

	private final Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink;

	private final EventCounters counters;

	private final EventNaming naming;

	private final @Nullable EventsAccess access;

	private final @Nullable ApiFallback apiFallback;

	/** The {@code traceparent} annotation of each write, when that option is on. */
	private final TraceAnnotation traceAnnotation;

	private final StreamWriter<SeriesCache.Write, EventsV1Event> streams;

	/**
	 * @param attempts the sink's attempts (the stream path's waits are theirs)
	 * @param naming how the sink names its Events (told when the server refuses a read)
	 * @param access the RBAC probe, for writing repeats as new Events where {@code patch} is refused; {@code null}
	 * for none
	 * @param apiFallback the switch to core/v1 of {@code auto} (which serves a namespace without patch better when
	 * it allows more); {@code null} for none
	 */
	EventsV1Writes(Sink<EventsV1Event, EventsV1Sink.SeriesPatch> sink, WriteAttempts attempts, SinkSettings settings, EventCounters counters,
			EventNaming naming, @Nullable EventsAccess access, @Nullable ApiFallback apiFallback) {
		this.sink = sink;
		this.counters = counters;
		this.naming = naming;
		this.access = access;
		this.apiFallback = apiFallback;
		this.traceAnnotation = TraceAnnotation.of(settings);
		this.streams = new StreamWriter<>(settings.seriesCacheSize(), 2, settings.jitter(), attempts::pause,
				new StreamOperations());
	}

	/** The streams of the deterministic-names mode, for what a stop writes and a shutdown counts. */
	StreamWriter<SeriesCache.Write, EventsV1Event> streams() {
		return this.streams;
	}

	/**
	 * One attempt of {@code write}.
	 * @return the series count the server has now, for the cache's snapshot: the write's count, or on the stream
	 * path the count the server answered (1 without a series), which other processes' occurrences are part of
	 */
	int write(SeriesCache.Write write, WriteAttempts.Requests requests) throws EventSinkException {
		if (!write.stream()) {
			if (write.kind() == SeriesCache.Kind.CREATE) {
				create(copyWithSeries(write.created(), null), write.recorded(), requests);
			}
			else {
				writeSeries(write, requests);
			}
			return write.count();
		}
		if (write.kind() != SeriesCache.Kind.CREATE && withoutPatch(write, null)) {
			createWithoutPatch(write, requests);
			return write.count();
		}
		try {
			return writeToStream(write, requests);
		}
		catch (EventSinkException ex) {
			// a stream's first write after a restart patches too: RBAC without patch makes it a new Event
			if (!withoutPatch(write, ex)) {
				throw ex;
			}
			createWithoutPatch(write, requests);
			return write.count();
		}
	}

	/**
	 * A write in the deterministic-names mode: onto whatever the server has under the stream's name.
	 * @return the series count the server answered (1 without a series), or the write's count when nothing was
	 * written or the write fell back to a new Event
	 */
	private int writeToStream(SeriesCache.Write write, WriteAttempts.Requests requests) throws EventSinkException {
		EventsV1Event created = write.created();
		String namespace = created.getMetadata().getNamespace();
		StreamWriter.Result<EventsV1Event> written = this.streams.write(
				namespace + "/" + created.getMetadata().getName(), write.count(), write.occurrences(),
				write.recorded(), write, requests);
		if (written.readRefused()) {
			this.naming.readRefused(EventsApi.EVENTS_V1, namespace);
			// client-go's way from now on; this write creates a new Event with a generated name
			EventsV1Event event = copyWithSeries(created, series(write.count(), write));
			event.setMetadata(copyMetadata(created).name(write.recorded().generateEventName()));
			create(event, write.recorded(), requests);
			return write.count();
		}
		EventsV1Event answer = written.event();
		return (answer != null) ? seriesCount(answer) : write.count();
	}

	/** The requests of the stream path; one instance for every write. */
	private final class StreamOperations implements StreamWriter.Operations<SeriesCache.Write, EventsV1Event> {

		@Override
		public EventsV1Event create(SeriesCache.Write write, int count, WriteAttempts.Requests requests)
				throws EventSinkException {
			EventsV1Event event = copyWithSeries(write.created(), series(count, write));
			event.setMetadata(copyMetadata(write.created()));
			return EventsV1Writes.this.create(event, write.recorded(), requests);
		}

		@Override
		public EventsV1Event get(SeriesCache.Write write, WriteAttempts.Requests requests)
				throws EventSinkException {
			V1ObjectMeta metadata = write.created().getMetadata();
			return requests.request("get",
					() -> EventsV1Writes.this.sink.get(metadata.getNamespace(), metadata.getName()));
		}

		@Override
		public EventsV1Event patch(SeriesCache.Write write, int count, String resourceVersion,
				WriteAttempts.Requests requests) throws EventSinkException {
			EventsV1Sink.SeriesPatch patch = new EventsV1Sink.SeriesPatch(count, write.lastObserved(),
					resourceVersion, EventsV1Writes.this.traceAnnotation.of(write.recorded()));
			return requests.request("patch", () -> EventsV1Writes.this.sink.patch(write.created(), patch));
		}

		@Override
		public int count(EventsV1Event answer) {
			return seriesCount(answer);
		}

		@Override
		public @Nullable String resourceVersion(EventsV1Event answer) {
			return (answer.getMetadata() != null) ? answer.getMetadata().getResourceVersion() : null;
		}

	}

	/** The series count of an Event the server answered: 1 without a series. */
	private static int seriesCount(EventsV1Event answer) {
		EventsV1EventSeries series = answer.getSeries();
		return (series != null && series.getCount() != null) ? series.getCount() : 1;
	}

	/** A series of {@code count} observed last when {@code write}'s series was, or none below 2. */
	private static @Nullable EventsV1EventSeries series(int count, SeriesCache.Write write) {
		return (count < 2) ? null
				: new EventsV1EventSeries().count(count).lastObservedTime(EventsV1Events.microTime(write.lastObserved()));
	}

	private static V1ObjectMeta copyMetadata(EventsV1Event created) {
		V1ObjectMeta metadata = created.getMetadata();
		return new V1ObjectMeta().name(metadata.getName())
			.namespace(metadata.getNamespace())
			.annotations((metadata.getAnnotations() != null) ? new LinkedHashMap<>(metadata.getAnnotations())
					: null);
	}

	/**
	 * Whether this write becomes a new Event because RBAC allows {@code create} but not {@code patch} here (and the
	 * API stays): known from the probe ({@code refusal} {@code null}), or a PATCH refused with 403 that the probe
	 * confirms.
	 */
	private boolean withoutPatch(SeriesCache.Write write, @Nullable EventSinkException refusal) {
		String namespace = write.created().getMetadata().getNamespace();
		if (namespace == null || this.access == null) {
			return false;
		}
		EventsAccess.Check check;
		if (refusal == null) {
			check = this.access.known(EventsApi.EVENTS_V1, namespace);
		}
		else if (refusal.isForbidden() && !refusal.namespaceTerminating()) {
			check = this.access.recheck(EventsApi.EVENTS_V1, namespace, "patch");
		}
		else {
			return false;
		}
		return check != null && check.withoutPatch()
				&& (this.apiFallback == null || this.apiFallback.keepsWithoutPatch(namespace));
	}

	private void writeSeries(SeriesCache.Write write, WriteAttempts.Requests requests) throws EventSinkException {
		if (withoutPatch(write, null)) {
			createWithoutPatch(write, requests);
			return;
		}
		EventsV1Sink.SeriesPatch patch = new EventsV1Sink.SeriesPatch(write.count(), write.lastObserved(), null,
				this.traceAnnotation.of(write.recorded()));
		try {
			requests.request("patch", () -> this.sink.patch(write.created(), patch));
			return;
		}
		catch (EventSinkException ex) {
			if (withoutPatch(write, ex)) {
				createWithoutPatch(write, requests);
				return;
			}
			if (!ex.isNotFound()) {
				throw ex;
			}
			logger.debug("Event {} no longer exists on the server; creating it again with its series",
					write.created().getMetadata().getName());
		}
		EventsV1Event event = copyWithSeries(write.created(), new EventsV1EventSeries().count(write.count())
			.lastObservedTime(EventsV1Events.microTime(write.lastObserved())));
		try {
			create(event, write.recorded(), requests);
		}
		catch (EventSinkException createFailed) {
			if (createFailed.isAlreadyExists()) {
				// the Event appeared between our PATCH (404) and CREATE: client-go retries (PR #114237)
				throw EventSinkException.of(EventSinkException.Kind.UNEXPECTED_RESPONSE,
						"AlreadyExists while creating from a series: " + createFailed.getMessage(), createFailed);
			}
			throw createFailed;
		}
	}

	/**
	 * The occurrences a series write newly carries, as a new Event of their own (RBAC refuses patch): the latest
	 * occurrence's name, with a series of those occurrences alone when there are two or more, so the Events on the
	 * server add up to every occurrence. A write that carries none (a repeated count) needs no request.
	 */
	private void createWithoutPatch(SeriesCache.Write write, WriteAttempts.Requests requests)
			throws EventSinkException {
		int occurrences = write.occurrences();
		if (occurrences <= 0) {
			return;
		}
		EventsV1Event created = write.created();
		EventsV1Event event = copyWithSeries(created, series(occurrences, write));
		event.metadata(new V1ObjectMeta().name(write.recorded().generateEventName())
			.namespace(created.getMetadata().getNamespace())
			.annotations(created.getMetadata().getAnnotations()));
		if (occurrences < 2) {
			event.eventTime(EventsV1Events.microTime(write.lastObserved()));
		}
		create(event, write.recorded(), requests);
		this.counters.writtenWithoutPatch(occurrences);
	}

	/** A CREATE of {@code event}, with the {@code traceparent} annotation of {@code recorded} when that is on. */
	private EventsV1Event create(EventsV1Event event, RecordedEvent recorded, WriteAttempts.Requests requests)
			throws EventSinkException {
		V1ObjectMeta metadata = event.getMetadata();
		V1ObjectMeta annotated = this.traceAnnotation.annotate(metadata, recorded);
		if (annotated != metadata) {
			// copyWithSeries shares the cached Event's metadata: the body gets its own
			event = copyWithSeries(event, event.getSeries()).metadata(annotated);
		}
		EventsV1Event body = event;
		return requests.request("create", () -> this.sink.create(body));
	}

	private static EventsV1Event copyWithSeries(EventsV1Event created, @Nullable EventsV1EventSeries series) {
		return new EventsV1Event().metadata(created.getMetadata())
			.eventTime(created.getEventTime())
			.reportingController(created.getReportingController())
			.reportingInstance(created.getReportingInstance())
			.action(created.getAction())
			.reason(created.getReason())
			.regarding(created.getRegarding())
			.related(created.getRelated())
			.note(created.getNote())
			.type(created.getType())
			.series(series);
	}

}
