package io.github.kubeevents.introspect;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * The counters and gauges of an {@code EventBroadcaster} at one moment ({@code EventBroadcaster.stats()}): cheap to
 * take (no cache is walked), for meters and health checks. Drop reasons are lower-case tags ({@code queue_full},
 * {@code spam_filtered}, {@code rejected_by_server}, {@code retries_exhausted}, {@code shutdown},
 * {@code invalid_input}), every reason present.
 *
 * <p>Immutable and thread-safe.
 *
 * <p>A final class rather than a record, as Caffeine's {@code CacheStats} is: a new statistic adds an accessor and a
 * {@link Builder} method, and no public constructor changes with it. Take one from
 * {@code EventBroadcaster.stats()}; build one ({@link #builder()}) only to stand in for a broadcaster in a test.
 */
public final class RecorderStats {

	private final String state;

	private final Queue queue;

	private final long accepted;

	private final Map<String, Long> dropped;

	private final long truncatedNotes;

	private final long formatFailures;

	private final Writes writes;

	private final long rejectedInARow;

	private final @Nullable Rejection lastRejection;

	private final long failedInARow;

	private final @Nullable Failure lastFailure;

	private final @Nullable Instant lastWritten;

	private final List<Subscriber> subscribers;

	private final @Nullable WriteBudget writeBudget;

	private final long writtenWithoutPatch;

	private final Map<String, Long> throttledByServer;

	private final List<MissingAccess> missingAccess;

	private final Naming naming;

	private RecorderStats(Builder builder) {
		this.state = builder.state;
		this.queue = builder.queue;
		this.accepted = builder.accepted;
		this.dropped = Collections.unmodifiableMap(new LinkedHashMap<>(builder.dropped));
		this.truncatedNotes = builder.truncatedNotes;
		this.formatFailures = builder.formatFailures;
		this.writes = builder.writes;
		this.rejectedInARow = builder.rejectedInARow;
		this.lastRejection = builder.lastRejection;
		this.failedInARow = builder.failedInARow;
		this.lastFailure = builder.lastFailure;
		this.lastWritten = builder.lastWritten;
		this.subscribers = List.copyOf(builder.subscribers);
		this.writeBudget = builder.writeBudget;
		this.writtenWithoutPatch = builder.writtenWithoutPatch;
		this.throttledByServer = Collections.unmodifiableMap(new LinkedHashMap<>(builder.throttledByServer));
		this.missingAccess = List.copyOf(builder.missingAccess);
		this.naming = builder.naming;
	}

	/**
	 * A builder of stats ({@link Builder} says how it starts), for tests that stand in for a broadcaster.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * @return {@code new}, {@code starting} (started, waiting for a thread the last stop abandoned at its
	 * deadline), {@code running}, {@code stopping}, {@code stopped}, {@code draining} or {@code terminated}
	 */
	public String state() {
		return this.state;
	}

	/** @return the incoming queue */
	public Queue queue() {
		return this.queue;
	}

	/** @return events accepted into the incoming queue so far */
	public long accepted() {
		return this.accepted;
	}

	/** @return drops so far by reason tag, in a fixed order */
	public Map<String, Long> dropped() {
		return this.dropped;
	}

	/** @return events.k8s.io/v1 notes cut to the API server's limit of 1024 bytes (written, not dropped) */
	public long truncatedNotes() {
		return this.truncatedNotes;
	}

	/**
	 * @return events whose message pattern failed to format with its arguments (written with the
	 * pattern and the arguments, not dropped)
	 */
	public long formatFailures() {
		return this.formatFailures;
	}

	/** @return the writes of every sink started so far, summed */
	public Writes writes() {
		return this.writes;
	}

	/**
	 * @return writes the API server refused since the last written event, over every sink (expected
	 * refusals such as 409 AlreadyExists not counted); with no written event and refusals, every write was refused
	 */
	public long rejectedInARow() {
		return this.rejectedInARow;
	}

	/** @return the latest event the API server refused, or {@code null} */
	public @Nullable Rejection lastRejection() {
		return this.lastRejection;
	}

	/**
	 * Failed write attempts since the last written event, whatever the failure: a server that cannot be reached, a
	 * timeout, a 5xx, a refusal (expected refusals such as 409 AlreadyExists and namespaces that are gone not
	 * counted), over the run each sink writes through now. 0 once an event is written.
	 * @return the failed attempts in a row
	 */
	public long failedInARow() {
		return this.failedInARow;
	}

	/**
	 * The latest failed write attempt since the last written event, over every sink: what the health indicator
	 * shows while writes fail.
	 * @return the failure, or {@code null} when none failed since the last written event
	 */
	public @Nullable Failure lastFailure() {
		return this.lastFailure;
	}

	/**
	 * When a sink last wrote an event.
	 * @return the broadcaster's clock at the latest written event, or {@code null} before the first
	 */
	public @Nullable Instant lastWritten() {
		return this.lastWritten;
	}

	/** @return every active subscriber's queue */
	public List<Subscriber> subscribers() {
		return this.subscribers;
	}

	/** @return the limit on the sinks' requests, or {@code null} when there is none (the default) */
	public @Nullable WriteBudget writeBudget() {
		return this.writeBudget;
	}

	/**
	 * @return repeats written as new Events (each also counted as created) because RBAC allows
	 * {@code create} but not {@code patch} on the API written: nothing is lost, but the server shows several Events
	 * where one with a count was meant
	 */
	public long writtenWithoutPatch() {
		return this.writtenWithoutPatch;
	}

	/**
	 * @return requests the API server answered with 429 Too Many Requests, by source:
	 * {@code api_priority_and_fairness} (with Retry-After) and {@code event_rate_limit} (without: the EventRateLimit
	 * admission plugin); both retried on the retry policy, every source present
	 */
	public Map<String, Long> throttledByServer() {
		return this.throttledByServer;
	}

	/**
	 * @return the verbs RBAC refuses on the API each sink writes now, as the access probe found them (at
	 * startup for the recorder's own namespace, after a refusal for the refused event's); empty when none is known
	 * missing
	 */
	public List<MissingAccess> missingAccess() {
		return this.missingAccess;
	}

	/**
	 * @return how the sinks name their Events: client-go's names, deterministic names, or client-go's after a
	 * fallback (RBAC refuses {@code get} on Events) with its reason
	 */
	public Naming naming() {
		return this.naming;
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

	@Override
	public boolean equals(@Nullable Object obj) {
		return (obj == this) || ((obj instanceof RecorderStats other)
				&& Objects.equals(this.state, other.state)
				&& Objects.equals(this.queue, other.queue)
				&& this.accepted == other.accepted
				&& Objects.equals(this.dropped, other.dropped)
				&& this.truncatedNotes == other.truncatedNotes
				&& this.formatFailures == other.formatFailures
				&& Objects.equals(this.writes, other.writes)
				&& this.rejectedInARow == other.rejectedInARow
				&& Objects.equals(this.lastRejection, other.lastRejection)
				&& this.failedInARow == other.failedInARow
				&& Objects.equals(this.lastFailure, other.lastFailure)
				&& Objects.equals(this.lastWritten, other.lastWritten)
				&& Objects.equals(this.subscribers, other.subscribers)
				&& Objects.equals(this.writeBudget, other.writeBudget)
				&& this.writtenWithoutPatch == other.writtenWithoutPatch
				&& Objects.equals(this.throttledByServer, other.throttledByServer)
				&& Objects.equals(this.missingAccess, other.missingAccess)
				&& Objects.equals(this.naming, other.naming));
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.state, this.queue, this.accepted, this.dropped, this.truncatedNotes, this.formatFailures,
				this.writes, this.rejectedInARow, this.lastRejection, this.failedInARow, this.lastFailure,
				this.lastWritten, this.subscribers, this.writeBudget,
				this.writtenWithoutPatch, this.throttledByServer, this.missingAccess, this.naming);
	}

	@Override
	public String toString() {
		return "RecorderStats[state=" + this.state + ", "
				+ "queue=" + this.queue + ", "
				+ "accepted=" + this.accepted + ", "
				+ "dropped=" + this.dropped + ", "
				+ "truncatedNotes=" + this.truncatedNotes + ", "
				+ "formatFailures=" + this.formatFailures + ", "
				+ "writes=" + this.writes + ", "
				+ "rejectedInARow=" + this.rejectedInARow + ", "
				+ "lastRejection=" + this.lastRejection + ", "
				+ "failedInARow=" + this.failedInARow + ", "
				+ "lastFailure=" + this.lastFailure + ", "
				+ "lastWritten=" + this.lastWritten + ", "
				+ "subscribers=" + this.subscribers + ", "
				+ "writeBudget=" + this.writeBudget + ", "
				+ "writtenWithoutPatch=" + this.writtenWithoutPatch + ", "
				+ "throttledByServer=" + this.throttledByServer + ", "
				+ "missingAccess=" + this.missingAccess + ", "
				+ "naming=" + this.naming + "]";
	}

	/**
	 * Builds {@link RecorderStats}; every value starts zero or empty, the state {@code new}, the naming
	 * {@link Naming#CLIENT_GO_NAMES}.
	 *
	 * <p>Not thread-safe.
	 */
	public static final class Builder {

		private String state = "new";

		private Queue queue = new Queue(0, 0);

		private long accepted = 0;

		private Map<String, Long> dropped = Map.of();

		private long truncatedNotes = 0;

		private long formatFailures = 0;

		private Writes writes = Writes.ZERO;

		private long rejectedInARow = 0;

		private @Nullable Rejection lastRejection;

		private long failedInARow = 0;

		private @Nullable Failure lastFailure;

		private @Nullable Instant lastWritten;

		private List<Subscriber> subscribers = List.of();

		private @Nullable WriteBudget writeBudget;

		private long writtenWithoutPatch = 0;

		private Map<String, Long> throttledByServer = Map.of();

		private List<MissingAccess> missingAccess = List.of();

		private Naming naming = Naming.CLIENT_GO_NAMES;

		private Builder() {
		}

		/** Sets {@link RecorderStats#state()}; returns this builder. */
		public Builder state(String state) {
			this.state = Objects.requireNonNull(state, "state");
			return this;
		}

		/** Sets {@link RecorderStats#queue()}; returns this builder. */
		public Builder queue(Queue queue) {
			this.queue = Objects.requireNonNull(queue, "queue");
			return this;
		}

		/** Sets {@link RecorderStats#accepted()}; returns this builder. */
		public Builder accepted(long accepted) {
			this.accepted = accepted;
			return this;
		}

		/** Sets {@link RecorderStats#dropped()}; returns this builder. */
		public Builder dropped(Map<String, Long> dropped) {
			this.dropped = Objects.requireNonNull(dropped, "dropped");
			return this;
		}

		/** Sets {@link RecorderStats#truncatedNotes()}; returns this builder. */
		public Builder truncatedNotes(long truncatedNotes) {
			this.truncatedNotes = truncatedNotes;
			return this;
		}

		/** Sets {@link RecorderStats#formatFailures()}; returns this builder. */
		public Builder formatFailures(long formatFailures) {
			this.formatFailures = formatFailures;
			return this;
		}

		/** Sets {@link RecorderStats#writes()}; returns this builder. */
		public Builder writes(Writes writes) {
			this.writes = Objects.requireNonNull(writes, "writes");
			return this;
		}

		/** Sets {@link RecorderStats#rejectedInARow()}; returns this builder. */
		public Builder rejectedInARow(long rejectedInARow) {
			this.rejectedInARow = rejectedInARow;
			return this;
		}

		/** Sets {@link RecorderStats#lastRejection()}; returns this builder. */
		public Builder lastRejection(@Nullable Rejection lastRejection) {
			this.lastRejection = lastRejection;
			return this;
		}

		/** Sets {@link RecorderStats#failedInARow()}; returns this builder. */
		public Builder failedInARow(long failedInARow) {
			this.failedInARow = failedInARow;
			return this;
		}

		/** Sets {@link RecorderStats#lastFailure()}; returns this builder. */
		public Builder lastFailure(@Nullable Failure lastFailure) {
			this.lastFailure = lastFailure;
			return this;
		}

		/** Sets {@link RecorderStats#lastWritten()}; returns this builder. */
		public Builder lastWritten(@Nullable Instant lastWritten) {
			this.lastWritten = lastWritten;
			return this;
		}

		/** Sets {@link RecorderStats#subscribers()}; returns this builder. */
		public Builder subscribers(List<Subscriber> subscribers) {
			this.subscribers = Objects.requireNonNull(subscribers, "subscribers");
			return this;
		}

		/** Sets {@link RecorderStats#writeBudget()}; returns this builder. */
		public Builder writeBudget(@Nullable WriteBudget writeBudget) {
			this.writeBudget = writeBudget;
			return this;
		}

		/** Sets {@link RecorderStats#writtenWithoutPatch()}; returns this builder. */
		public Builder writtenWithoutPatch(long writtenWithoutPatch) {
			this.writtenWithoutPatch = writtenWithoutPatch;
			return this;
		}

		/** Sets {@link RecorderStats#throttledByServer()}; returns this builder. */
		public Builder throttledByServer(Map<String, Long> throttledByServer) {
			this.throttledByServer = Objects.requireNonNull(throttledByServer, "throttledByServer");
			return this;
		}

		/** Sets {@link RecorderStats#missingAccess()}; returns this builder. */
		public Builder missingAccess(List<MissingAccess> missingAccess) {
			this.missingAccess = Objects.requireNonNull(missingAccess, "missingAccess");
			return this;
		}

		/** Sets {@link RecorderStats#naming()}; returns this builder. */
		public Builder naming(Naming naming) {
			this.naming = Objects.requireNonNull(naming, "naming");
			return this;
		}

		/**
		 * The stats.
		 * @return new stats with the values set
		 */
		public RecorderStats build() {
			return new RecorderStats(this);
		}

	}

	/**
	 * A queue's fill.
	 * @param depth events waiting
	 * @param capacity maximum events waiting
	 */
	public record Queue(int depth, int capacity) {
	}

	/**
	 * One subscriber's queue. A sink has no subscriber queue (its step runs on the distribution thread): for a sink,
	 * depth, capacity and drops are those of its backlog (its writer threads' queues together), and the policy is
	 * {@code drop} (a full backlog drops the write for that sink alone; nothing waits).
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
	 * A write attempt that failed: what the health indicator shows while the API server does not take the writes.
	 * @param at when it failed
	 * @param api {@code core/v1} or {@code events.k8s.io/v1}
	 * @param verb the request that failed: {@code create}, {@code patch} or {@code get}
	 * @param result the class of the failure, as {@code Sink.RequestListener} tags it: {@code transport_error} (the
	 * server could not be reached, or did not answer within the request time limit), {@code server_error} (5xx),
	 * {@code client_error} (a refusal), {@code unexpected_response} or {@code invalid_request}
	 * @param error what failed, e.g. {@code Failed to connect to /127.0.0.1:1} or the server's answer
	 * @param server the API server written to, e.g. {@code https://10.0.0.1:443}; empty when unknown (a sink of
	 * the application's)
	 * @param givenUp whether the write was given up with this attempt (attempts used up, refused, or a stop): its
	 * occurrences were dropped, rather than waiting for a retry
	 */
	public record Failure(Instant at, String api, String verb, String result, String error, String server,
			boolean givenUp) {
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
