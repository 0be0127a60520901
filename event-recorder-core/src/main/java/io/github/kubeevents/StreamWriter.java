package io.github.kubeevents;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * The write path of the deterministic-names mode, for either events API and any client: writes a stream's new
 * occurrences onto whatever Event the server already has under the stream's name, which another process (this
 * service before a restart, a second replica) may have written. Only the SPI's requests are used (create, get, and
 * a patch with a resourceVersion precondition, through the sink's {@link SinkRequests}), with the bodies of the
 * sink's API ({@link EventWriter.Bodies}), so a sink over any client gets the same behaviour.
 *
 * <p>Per write, with {@code occurrences} new occurrences:
 * <ul>
 * <li><b>Steady state</b> (this process wrote the Event last): one PATCH of {@code count = server count +
 * occurrences} with the resourceVersion the server answered last time as a precondition. No read.</li>
 * <li><b>Nothing known</b> (first write of the stream in this process): a CREATE; a 409 AlreadyExists reads the
 * Event (GET) and PATCHes its count plus the occurrences, with its resourceVersion as precondition.</li>
 * <li><b>409 Conflict</b> (someone else wrote the Event since): wait, read again and patch again, at most
 * {@value #MAX_REREADS} times. Then the write's occurrences are <em>carried</em>: not dropped, but added to the
 * stream's next write ({@link Result#carried()}), so a crowd of writers on one stream loses no occurrence and still
 * cannot make a write loop. The last write of a stream has no next one: a stop writes what each stream carries
 * ({@link #writeCarried}, with up to {@value #MAX_REREADS_AT_STOP} re-reads, since every replica stopping at once
 * races for the same Events), and what a shutdown could not write is counted by the recorder
 * ({@link #carried()}). At most {@code capacity} streams carry occurrences; past that a write that loses the race
 * fails with the last 409 as before (counted as {@code rejected_by_server}). The wait before the
 * n-th re-read after a Conflict is {@link #rereadDelay}: 10 ms doubled per Conflict up to 200 ms, times a jitter
 * factor in [0.5, 1.5), about 1.3 s over all ten. Without it two replicas writing one stream at once can starve
 * each other: the one in its steady state (a PATCH without a read) lands a write between the other's GET and
 * PATCH every time, and the other gives up after ten immediate re-reads (seen against a real kube-apiserver: 20 +
 * 20 occurrences ended at 39). A stop or shutdown ends the wait and the re-reads go on at once: a re-read is part
 * of the write's current attempt, which a stopping recorder still makes (the final counts at SIGTERM).</li>
 * <li><b>404</b> (the Event expired or was deleted): CREATE it with the count this process last knew plus the
 * occurrences (as client-go creates an expired Event again with its count); an AlreadyExists then reads again.</li>
 * </ul>
 * The count is this process's knowledge of the server's count (what the last answer said), never the local
 * correlator's: the new occurrences of a write are its local count minus the local count of the last write that
 * reached the server ({@code occurrencesIfUnknown} when this process has not written the stream, or its local count
 * started again, e.g. after the correlator forgot it). A write whose answer is lost (a timeout after the server
 * applied it) and that is then retried is counted twice: a precondition cannot tell it from another writer's.
 *
 * <p>Remembers, per stream, the server's count, resourceVersion and the local count written, for at most
 * {@code capacity} streams (then the least used is forgotten, and its next write reads again).
 *
 * <p>Thread-safe; one stream's writes must not run concurrently (the recorder shards them onto one writer thread).
 *
 * @param <W> a write of the API (the Event to write and the occurrence it is about)
 * @param <E> the Event type of the API
 * @param <P> its patch
 */
final class StreamWriter<W extends SinkWrite, E extends KubernetesObject, P extends Sink.Patch> {

	/** How often one write reads the Event again after a 409 (Conflict or AlreadyExists) or a 404. */
	static final int MAX_REREADS = 10;

	/** How often the write of what a stream carries reads the Event again at a stop. */
	static final int MAX_REREADS_AT_STOP = 100;

	/** The wait before the re-read after a first Conflict, doubled per further Conflict of the write. */
	static final Duration FIRST_REREAD_DELAY = Duration.ofMillis(10);

	/** The longest wait before a re-read (before jitter). */
	static final Duration MAX_REREAD_DELAY = Duration.ofMillis(200);

	/**
	 * How a write ended.
	 * @param event what the server answered last, or {@code null} when there was nothing to write (or the read
	 * was refused)
	 * @param readRefused whether the server refused the read with 403 (the identity may not {@code get} Events);
	 * nothing was written then
	 */
	record Result<E>(@Nullable E event, boolean readRefused, boolean carried) {

		Result(@Nullable E event, boolean readRefused) {
			this(event, readRefused, false);
		}

	}

	/**
	 * Occurrences of a stream that lost the precondition race, carried into its next write.
	 * @param stream the stream's Event, {@code namespace/name}
	 * @param write the write that carried them last (the body of the stream's Event; its occurrence is the
	 * latest, for the drop accounting and sharding)
	 */
	record Carried<W extends SinkWrite>(String stream, int occurrences, W write) {

		RecordedEvent recorded() {
			return this.write.recorded();
		}

	}

	/** What this process last saw of one stream's Event. */
	private record Known(int serverCount, @Nullable String resourceVersion, int localCount) {
	}

	private final Cache<String, Known> known;

	/** Per stream; at most {@link #capacity} entries. A stream's writes run on one thread, so no two race on one. */
	private final Map<String, Carried<W>> carried = new ConcurrentHashMap<>();

	private final int capacity;

	private final int minimumPatchCount;

	private final DoubleSupplier jitter;

	private final EventWriter.Bodies<W, E, P> bodies;

	private final SinkRequests<E, P> requests;

	/**
	 * @param capacity how many streams to remember
	 * @param minimumPatchCount the smallest count a patch may write (1 for core/v1, 2 for a series); a write that
	 * would patch less writes nothing
	 * @param jitter uniform values in [0, 1) for the waits before re-reads
	 * @param bodies the bodies of the sink's API
	 * @param requests the sink's requests (whose waits a stop ends)
	 */
	StreamWriter(int capacity, int minimumPatchCount, DoubleSupplier jitter, EventWriter.Bodies<W, E, P> bodies,
			SinkRequests<E, P> requests) {
		this.bodies = bodies;
		this.requests = requests;
		this.known = Caches.bounded(capacity);
		this.capacity = capacity;
		this.minimumPatchCount = minimumPatchCount;
		this.jitter = jitter;
	}

	/**
	 * The wait before the re-read after a write's {@code conflicts}-th Conflict.
	 * @param conflicts the Conflicts of the write so far, from 1
	 * @param uniform a uniform value in [0, 1)
	 * @return {@code min(10 ms * 2^(conflicts-1), 200 ms) * (0.5 + uniform)}
	 */
	static Duration rereadDelay(int conflicts, double uniform) {
		long base = Math.min(FIRST_REREAD_DELAY.toNanos() << Math.min(conflicts - 1, 20), MAX_REREAD_DELAY.toNanos());
		return Duration.ofNanos((long) (base * (0.5 + uniform)));
	}

	/**
	 * Writes one write's occurrences, and what the stream carries: its local count
	 * ({@link SinkWrite#localCount}) less the one last written, or where this process has not written the
	 * stream (or its local count started again) {@link SinkWrite#occurrencesIfUnknown}.
	 * @param stream the stream's Event, {@code namespace/name}
	 * @return what the server answered, or {@link Result#carried()} when the occurrences lost the race
	 * @throws EventSinkException a failure the recorder classifies as usual (retried or counted), or the last 409
	 * after {@value #MAX_REREADS} re-reads when no more streams can carry occurrences
	 */
	Result<E> write(String stream, W write, WriteContext context) throws EventSinkException {
		return write(stream, write.localCount(), write.occurrencesIfUnknown(), write, context, MAX_REREADS);
	}

	/**
	 * Writes what {@code carried} stands for onto the stream's Event (a stop: the stream has no next write), with up to
	 * {@value #MAX_REREADS_AT_STOP} re-reads; nothing when a write since has carried it already.
	 * @return what the server answered, or {@link Result#carried()} when it lost the race again
	 */
	Result<E> writeCarried(Carried<W> carried, WriteContext context) throws EventSinkException {
		if (this.carried.get(carried.stream()) == null) {
			return new Result<>(null, false);
		}
		return write(carried.stream(), 0, 0, carried.write(), context, MAX_REREADS_AT_STOP);
	}

	/** What the streams carry now, for a stop to write and a shutdown to count. */
	List<Carried<W>> carried() {
		return List.copyOf(this.carried.values());
	}

	/** Forgets what a stream carries (a shutdown counted it). */
	void forget(Carried<W> carried) {
		this.carried.remove(carried.stream(), carried);
	}

	private Result<E> write(String stream, int localCount, int occurrencesIfUnknown, W write,
			WriteContext context, int maxRereads) throws EventSinkException {
		Known last = this.known.getIfPresent(stream);
		Carried<W> held = this.carried.get(stream);
		int occurrences = ((last != null && localCount > last.localCount()) ? localCount - last.localCount()
				: occurrencesIfUnknown) + ((held != null) ? held.occurrences() : 0);
		int base = (last != null) ? last.serverCount() : 0;
		String resourceVersion = (last != null) ? last.resourceVersion() : null;
		int conflicts = 0;
		for (int rereads = 0;; rereads++) {
			int count = base + occurrences;
			boolean creating = resourceVersion == null;
			try {
				E answer;
				if (creating) {
					answer = this.requests.create(context, this.bodies.created(write, Math.max(1, count)));
				}
				else if (count < this.minimumPatchCount) {
					return new Result<>(null, false);
				}
				else {
					answer = this.requests.patch(context, this.bodies.event(write),
							this.bodies.patch(write, count, resourceVersion));
				}
				remember(stream, answer, localCount);
				if (held != null) {
					this.carried.remove(stream);
				}
				return new Result<>(answer, false);
			}
			catch (EventSinkException ex) {
				// a CREATE answers 404 only for a namespace that does not exist: re-reading cannot help
				if ((!ex.isConflict() && !ex.isAlreadyExists() && !ex.isNotFound()) || (creating && ex.isNotFound())) {
					throw ex;
				}
				if (rereads >= maxRereads) {
					this.known.invalidate(stream);
					if (held != null || this.carried.size() < this.capacity) {
						// lost the race: the next write of the stream (or the stop) writes them
						this.carried.put(stream, new Carried<>(stream, occurrences, write));
						return new Result<>(null, false, true);
					}
					throw new EventSinkException(EventSinkException.Kind.HTTP_STATUS, 409, "Conflict", false,
							"the Event " + stream + " kept changing: " + ex.getMessage() + " (still after "
									+ maxRereads + " re-reads)",
							ex);
				}
				if (ex.isConflict()) {
					this.requests.pause(rereadDelay(++conflicts, this.jitter.getAsDouble()));
				}
			}
			E current;
			try {
				V1ObjectMeta metadata = this.bodies.event(write).getMetadata();
				current = this.requests.get(context, metadata.getNamespace(), metadata.getName());
			}
			catch (EventSinkException ex) {
				if (ex.isForbidden() && !ex.namespaceTerminating()) {
					this.known.invalidate(stream);
					return new Result<>(null, true);
				}
				if (!ex.isNotFound()) {
					throw ex;
				}
				current = null;
			}
			if (current != null) {
				base = this.bodies.count(current);
				resourceVersion = resourceVersion(current);
			}
			else {
				// gone (expired or deleted): created again with the count this process knew, as client-go does
				resourceVersion = null;
			}
		}
	}

	private void remember(String stream, E answer, int localCount) {
		this.known.put(stream, new Known(this.bodies.count(answer), resourceVersion(answer), localCount));
	}

	private static @Nullable String resourceVersion(KubernetesObject answer) {
		return (answer.getMetadata() != null) ? answer.getMetadata().getResourceVersion() : null;
	}

	/** The server count last seen for a stream, or -1 (for tests and the snapshot). */
	int serverCount(String stream) {
		Known last = this.known.getIfPresent(stream);
		return (last != null) ? last.serverCount() : -1;
	}

}
