package io.github.kubeevents.introspect;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The counters and gauges of an {@code EventBroadcaster} at one moment ({@code EventBroadcaster.stats()}): cheap to
 * take (no cache is walked), for meters and health checks. Drop reasons are lower-case tags ({@code queue_full},
 * {@code spam_filtered}, {@code rejected_by_server}, {@code retries_exhausted}, {@code shutdown},
 * {@code invalid_input}), every reason present.
 *
 * <p>Immutable and thread-safe.
 *
 * @param state {@code new}, {@code starting} (started, waiting for a thread the last stop abandoned at its
 * deadline), {@code running}, {@code stopping}, {@code stopped}, {@code draining} or {@code terminated}
 * @param queue the incoming queue
 * @param accepted events accepted into the incoming queue so far
 * @param dropped drops so far by reason tag, in a fixed order
 * @param truncatedNotes events.k8s.io/v1 notes cut to the API server's limit of 1024 bytes (written, not dropped)
 * @param formatFailures events whose message pattern failed to format with its arguments (written with the
 * pattern and the arguments, not dropped)
 * @param writes the writes of every sink started so far, summed
 * @param rejectedInARow writes the API server refused since the last written event, over every sink (expected
 * refusals such as 409 AlreadyExists not counted); with no written event and refusals, every write was refused
 * @param lastRejection the latest event the API server refused, or {@code null}
 * @param subscribers every active subscriber's queue
 * @param writeBudget the limit on the sinks' requests, or {@code null} when there is none (the default)
 * @param writtenWithoutPatch repeats written as new Events (each also counted as created) because RBAC allows
 * {@code create} but not {@code patch} on the API written: nothing is lost, but the server shows several Events
 * where one with a count was meant
 * @param throttledByServer requests the API server answered with 429 Too Many Requests, by source:
 * {@code api_priority_and_fairness} (with Retry-After) and {@code event_rate_limit} (without: the EventRateLimit
 * admission plugin); both retried on the retry policy, every source present
 * @param missingAccess the verbs RBAC refuses on the API each sink writes now, as the access probe found them (at
 * startup for the recorder's own namespace, after a refusal for the refused event's); empty when none is known
 * missing
 * @param naming how the sinks name their Events: client-go's names, deterministic names, or client-go's after a
 * fallback (RBAC refuses {@code get} on Events) with its reason
 */
public record RecorderStats(String state, Queue queue, long accepted, Map<String, Long> dropped, long truncatedNotes,
		long formatFailures, Writes writes, long rejectedInARow, @Nullable Rejection lastRejection,
		List<Subscriber> subscribers, @Nullable WriteBudget writeBudget, long writtenWithoutPatch,
		Map<String, Long> throttledByServer, List<MissingAccess> missingAccess, Naming naming) {

	/**
	 * Copies the collections, keeping the order of {@code dropped} and {@code throttledByServer}.
	 */
	public RecorderStats {
		dropped = Collections.unmodifiableMap(new LinkedHashMap<>(dropped));
		subscribers = List.copyOf(subscribers);
		throttledByServer = Collections.unmodifiableMap(new LinkedHashMap<>(throttledByServer));
		missingAccess = List.copyOf(missingAccess);
	}

	/**
	 * 429 answers of one source.
	 * @param source {@code api_priority_and_fairness} or {@code event_rate_limit}
	 * @return the count, 0 for an unknown source
	 */
	public long throttledByServer(String source) {
		return this.throttledByServer.getOrDefault(source, 0L);
	}

	/**
	 * Whether the broadcaster distributes events.
	 * @return {@code true} in state {@code running}
	 */
	public boolean running() {
		return "running".equals(this.state);
	}

	/**
	 * Drops of one reason.
	 * @param reason the reason's tag, e.g. {@code queue_full}
	 * @return the count, 0 for an unknown tag
	 */
	public long dropped(String reason) {
		return this.dropped.getOrDefault(reason, 0L);
	}

	/**
	 * Total drops over every reason.
	 * @return the sum
	 */
	public long totalDropped() {
		return this.dropped.values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * A queue's fill.
	 * @param depth events waiting
	 * @param capacity maximum events waiting
	 */
	public record Queue(int depth, int capacity) {
	}

	/**
	 * One subscriber's queue. A sink has no subscriber queue (it runs on the distribution thread): for a sink,
	 * depth, capacity and drops are those of its writer threads' queues together, and the policy is {@code wait}
	 * (the distribution thread waits for room).
	 * @param name its name
	 * @param depth events waiting
	 * @param capacity the most events that can wait
	 * @param fullQueuePolicy what happens when its queue is full: {@code drop} or {@code wait}
	 * @param dropped events dropped because a queue was full
	 */
	public record Subscriber(String name, int depth, int capacity, String fullQueuePolicy, long dropped) {
	}

	/**
	 * Writes of a sink, or of all sinks.
	 * @param created Events created (POST succeeded), including the re-creation of expired Events
	 * @param patched Events patched (PATCH succeeded)
	 * @param retried attempts that followed a failed attempt
	 * @param failed events given up on (refused, attempts used up, or cancelled by stop or shutdown)
	 */
	public record Writes(long created, long patched, long retried, long failed) {

		/** No writes. */
		public static final Writes ZERO = new Writes(0, 0, 0, 0);

		/**
		 * The sum of two counters.
		 * @param other the other counters
		 * @return the sums
		 */
		public Writes plus(Writes other) {
			return new Writes(this.created + other.created, this.patched + other.patched,
					this.retried + other.retried, this.failed + other.failed);
		}

	}

	/**
	 * The latest event the API server refused (an HTTP error status other than the expected 409 AlreadyExists and
	 * writes into a terminating namespace), for "why are there no events?": a missing RBAC verb shows up here as
	 * {@code HTTP 403 Forbidden: events is forbidden: User ... cannot create resource "events" ...}.
	 * @param at when it was refused
	 * @param event the event, e.g. {@code object="ns/web-0" kind="Pod" type="Warning" reason="BackOff"}
	 * @param error what the server answered
	 */
	public record Rejection(Instant at, String event, String error) {
	}

	/**
	 * A verb RBAC refuses on Events, as an access review (SelfSubjectAccessReview) answered it.
	 * @param api {@code core/v1} or {@code events.k8s.io/v1}
	 * @param verb e.g. {@code patch}
	 * @param namespace where it was asked
	 */
	public record MissingAccess(String api, String verb, String namespace) {

		/**
		 * One line for logs and health details.
		 * @return e.g. {@code "patch on core/v1 events in namespace 'shop'"}
		 */
		public String describe() {
			return this.verb + " on " + this.api + " events in namespace '" + this.namespace + "'";
		}

	}

	/**
	 * The write budget of a broadcaster's sinks (an optional client-side limit on API server requests).
	 * @param qps requests per second, sustained
	 * @param burst requests that may be made at once
	 * @param throttledRequests requests that had to wait for the budget
	 * @param totalWait the total of those waits
	 */
	public record WriteBudget(double qps, int burst, long throttledRequests, Duration totalWait) {
	}

	/**
	 * How a broadcaster names the Events it writes ({@link RecorderStats#naming()}): client-go's names
	 * ({@code <object>.<hex nanos>}, a new Event after every restart) or, when the deterministic-names mode was asked
	 * for, names derived from the occurrence stream, so restarts and replicas continue one Event.
	 *
	 * <p>Immutable and thread-safe.
	 *
	 * @param mode {@value #CLIENT_GO}, {@value #DETERMINISTIC}, or {@value #FALLBACK} when the mode was asked for and
	 * at least one sink names Events with client-go's names now, in at least one namespace (a sink falls back in
	 * the namespaces where RBAC refuses {@code get}, until the answer expires and RBAC allows it; its Events in
	 * other namespaces keep deterministic names)
	 * @param deterministicNamesRequested whether the mode was asked for
	 * @param fallbacks how many times the open sinks fell back to client-go's names: once for good for a sink that
	 * cannot read, else once per namespace each time RBAC started refusing {@code get} there (0 unless the mode was
	 * asked for)
	 * @param fallbackReason why the latest fallback happened, e.g. the verb RBAC refuses, or {@code null}
	 */
	public record Naming(String mode, boolean deterministicNamesRequested, long fallbacks,
			@Nullable String fallbackReason) {

		/** client-go's names. */
		public static final String CLIENT_GO = "client-go";

		/** Deterministic names. */
		public static final String DETERMINISTIC = "deterministic";

		/** Deterministic names asked for, client-go's names in use by at least one sink. */
		public static final String FALLBACK = "client-go-fallback";

		/** client-go's names, as asked. */
		public static final Naming CLIENT_GO_NAMES = new Naming(CLIENT_GO, false, 0, null);

	}

}
