package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.kubeevents.introspect.RecorderStats;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every counter of one broadcaster, and the logging of drops. Only the library changes them.
 *
 * <p>Logging: {@code invalid_input}, {@code rejected_by_server} and {@code retries_exhausted} drops are logged one
 * line each at WARN (they are individually meaningful and bounded by the spam filter and the retry budget).
 * {@code queue_full}, {@code spam_filtered} and {@code shutdown} come in floods: each is logged at DEBUG only,
 * and {@link #flush(boolean)}, called by the distribution thread at least once a second, writes one WARN summary
 * per reason with the exact number dropped since the previous summary, at most once per summary interval. At
 * shutdown a forced flush and {@link #finalSummary(String)} make the logs tell the true totals. While the
 * broadcaster is stopped ({@link #stopped()} until {@link #started()}) no distribution thread flushes: the thread
 * that drops an event then writes the summary itself, at most once per summary interval, and {@link #started()}
 * summarises what is left. The drop paths themselves build no strings and, unless DEBUG is on or the broadcaster is
 * stopped, read no clock.
 *
 * <p>Thread-safe.
 */
final class EventCounters {

	static final Duration DEFAULT_SUMMARY_INTERVAL = Duration.ofSeconds(10);

	private static final DropReason[] REASONS = DropReason.values();

	private final LongAdder[] drops = new LongAdder[REASONS.length];

	private final LongAdder accepted = new LongAdder();

	private final LongAdder truncated = new LongAdder();

	private final LongAdder formatFailures = new LongAdder();

	private final LongAdder writtenWithoutPatch = new LongAdder();

	private final LongAdder[] throttled = { new LongAdder(), new LongAdder() };

	/** Patterns whose format failure was logged, so each is logged once (bounded). */
	private final Cache<String, Boolean> failedPatterns = Caches.bounded(1024);

	/** Whether a drop after the final summary was logged (one line; later ones are only counted). */
	private final AtomicBoolean afterSummaryLogged = new AtomicBoolean();

	private volatile boolean finalSummaryWritten;

	/** Whether the broadcaster is stopped for a later start: no distribution thread writes the summaries. */
	private volatile boolean stopped;

	/** While stopped: no summary is due before this instant (a cheap check before taking the lock). */
	private volatile Instant nextSummaryWhileStopped = Instant.MIN;

	/** The latest dropped event (or problem text) per reason, described only when a summary is written. */
	private final AtomicReferenceArray<Object> latest = new AtomicReferenceArray<>(REASONS.length);

	/** Guarded by {@code this}: drops already covered by a summary line, and when that line was written. */
	private final long[] summarised = new long[REASONS.length];

	private final @Nullable Instant[] lastSummary = new Instant[REASONS.length];

	private final Clock clock;

	private volatile RecorderStats.@Nullable Rejection lastRejection;

	private final Duration summaryInterval;

	/** Namespaces whose drops as gone were logged at WARN within the last summary interval. */
	private final Cache<String, Boolean> namespacesGoneLogged;

	private final Logger logger;

	EventCounters(Clock clock, Duration summaryInterval) {
		this(clock, summaryInterval, LoggerFactory.getLogger(EventCounters.class));
	}

	/** Logs to {@code logger}: tests print through an SLF4J backend other than the bound one. */
	EventCounters(Clock clock, Duration summaryInterval, Logger logger) {
		this.clock = clock;
		this.summaryInterval = summaryInterval;
		this.namespacesGoneLogged = Caches.expiring(1024, summaryInterval, clock);
		this.logger = logger;
		for (int i = 0; i < REASONS.length; i++) {
			this.drops[i] = new LongAdder();
		}
	}

	void accepted() {
		this.accepted.increment();
	}

	/** Counts an events.k8s.io/v1 note cut to the server's limit (written, not dropped). */
	void truncated(RecordedEvent event) {
		this.truncated.increment();
		if (this.logger.isDebugEnabled()) {
			this.logger.debug("Note cut to the server's limit of 1024 bytes: {}", event.describe());
		}
	}

	long truncatedCount() {
		return this.truncated.sum();
	}

	/**
	 * Counts repeats written as new Events because RBAC refuses {@code patch} (each is also a created write).
	 * @param occurrences how many repeats the new Event stands for
	 */
	void writtenWithoutPatch(int occurrences) {
		this.writtenWithoutPatch.add(occurrences);
	}

	long writtenWithoutPatchCount() {
		return this.writtenWithoutPatch.sum();
	}

	/** Counts a request the API server answered with 429 Too Many Requests. */
	void throttled(ServerThrottle source) {
		this.throttled[source.ordinal()].increment();
	}

	/** 429 answers by source tag, every source present, in declaration order. */
	Map<String, Long> throttledBySource() {
		Map<String, Long> result = new LinkedHashMap<>();
		for (ServerThrottle source : ServerThrottle.values()) {
			result.put(source.tag(), this.throttled[source.ordinal()].sum());
		}
		return result;
	}

	/**
	 * Counts an event whose message pattern failed to format (recorded with the pattern and its arguments) and logs
	 * it at WARN, once per pattern, with the object.
	 */
	void formatFailed(RecordedEvent event, String pattern, Throwable failure) {
		this.formatFailures.increment();
		if (this.failedPatterns.asMap().putIfAbsent(pattern, Boolean.TRUE) == null) {
			// the whole message and no arguments: SLF4J merges key-values into the message pattern for a backend
			// that does not take them (slf4j-simple), where a {} in the object's name would take an argument
			this.logger.atWarn()
				.setMessage(() -> "Could not format the message of an event; recording the pattern with its arguments"
						+ " (logged once per pattern): " + event.describe() + ": pattern '" + LogText.oneLine(pattern)
						+ "': " + LogText.oneLine(failure.toString()))
				.addKeyValue("object", LogText.oneLine(event.regarding().displayName()))
				.log();
		}
	}

	long formatFailureCount() {
		return this.formatFailures.sum();
	}

	long acceptedCount() {
		return this.accepted.sum();
	}

	/**
	 * Counts a drop of a flood-prone reason ({@code queue_full}, {@code spam_filtered}, {@code shutdown}); logged
	 * at DEBUG, summarised by {@link #flush(boolean)}.
	 */
	void drop(DropReason reason, RecordedEvent event) {
		drop(reason, event, 1);
	}

	/**
	 * Counts a drop of {@code occurrences} recorded occurrences that one write stood for (a series write carries
	 * several), as {@link #drop(DropReason, RecordedEvent)} does for one. Nothing is counted for 0.
	 */
	void drop(DropReason reason, RecordedEvent event, int occurrences) {
		if (occurrences <= 0) {
			return;
		}
		this.drops[reason.ordinal()].add(occurrences);
		this.latest.lazySet(reason.ordinal(), event);
		if (this.logger.isDebugEnabled()) {
			this.logger.debug("Dropped event ({}): {}", reason.tag(), event.describe());
		}
		if (this.stopped && !this.clock.instant().isBefore(this.nextSummaryWhileStopped)) {
			flush(false);
		}
	}

	/**
	 * The broadcaster stopped for a later start: from now on the threads that drop events write the summaries,
	 * at most once per summary interval.
	 */
	void stopped() {
		this.stopped = true;
	}

	/** The broadcaster (re)started: what was dropped while stopped and not yet summarised is summarised now. */
	void started() {
		this.stopped = false;
		flush(true);
	}

	/**
	 * Counts a drop and logs it at once: WARN, or DEBUG when {@code quietly} (expected rejections such as 409
	 * AlreadyExists, which client-go logs at V(5)).
	 */
	void dropAndLog(DropReason reason, @Nullable RecordedEvent event, String why, boolean quietly) {
		dropAndLog(reason, event, why, quietly, 1);
	}

	/**
	 * Counts a drop of the {@code occurrences} one write stood for and logs it once, as
	 * {@link #dropAndLog(DropReason, RecordedEvent, String, boolean)} does for one; for 0 (a write that carried no
	 * new occurrence) it only logs.
	 */
	void dropAndLog(DropReason reason, @Nullable RecordedEvent event, String why, boolean quietly, int occurrences) {
		this.drops[reason.ordinal()].add(Math.max(0, occurrences));
		this.latest.lazySet(reason.ordinal(), (event != null) ? event : why);
		if (reason == DropReason.REJECTED_BY_SERVER && !quietly) {
			this.lastRejection = new RecorderStats.Rejection(this.clock.instant(),
					(event != null) ? event.describe() : "", why);
		}
		if (quietly) {
			if (this.logger.isDebugEnabled()) {
				this.logger.debug("Dropped event ({}): {}", reason.tag(), describe(event, why));
			}
		}
		else {
			this.logger.atWarn()
				.setMessage("Dropped event ({}): {}")
				.addArgument(reason.tag())
				.addArgument(() -> describe(event, why))
				.addKeyValue("dropReason", reason.tag())
				.log();
		}
	}

	/**
	 * Counts the {@code occurrences} of a write into a namespace that is gone (deleted or terminating) as
	 * {@code rejected_by_server}, with one WARN per namespace per summary interval and DEBUG lines in between: one
	 * situation, from the caller's objects, so bounded (1024 namespaces remembered).
	 * @param answer what the server answered
	 */
	void dropNamespaceGone(RecordedEvent event, int occurrences, String answer) {
		String namespace = event.eventNamespace();
		drop(DropReason.REJECTED_BY_SERVER, event, occurrences);
		if (this.namespacesGoneLogged.asMap().putIfAbsent(namespace, Boolean.TRUE) == null) {
			this.logger.warn("Dropped event (rejected_by_server): namespace '{}' is gone (deleted or terminating); its"
					+ " Events are counted as rejected_by_server, and logged at DEBUG for the next {}: {}: {}",
					LogText.oneLine(namespace), this.summaryInterval, event.describe(), LogText.oneLine(answer));
		}
		else if (this.logger.isDebugEnabled()) {
			this.logger.debug("Dropped event (rejected_by_server): namespace '{}' is gone: {}", LogText.oneLine(namespace),
					event.describe());
		}
	}

	RecorderStats.@Nullable Rejection lastRejection() {
		return this.lastRejection;
	}

	long dropped(DropReason reason) {
		return this.drops[reason.ordinal()].sum();
	}

	/**
	 * Every drop count, keyed by {@link DropReason#tag()} in declaration order, every reason present.
	 */
	Map<String, Long> droppedByReason() {
		Map<String, Long> result = new LinkedHashMap<>();
		for (DropReason reason : REASONS) {
			result.put(reason.tag(), dropped(reason));
		}
		return result;
	}

	long totalDropped() {
		return Arrays.stream(this.drops).mapToLong(LongAdder::sum).sum();
	}

	/**
	 * Writes a WARN summary for each flood-prone reason with drops not yet summarised, unless one was written
	 * for that reason less than the summary interval ago ({@code force} ignores the interval).
	 * @param force whether to summarise regardless of the interval (at shutdown)
	 */
	synchronized void flush(boolean force) {
		Instant now = null;
		for (DropReason reason : REASONS) {
			if (!reason.isFloodProne()) {
				continue;
			}
			int i = reason.ordinal();
			long total = this.drops[i].sum();
			long unreported = total - this.summarised[i];
			if (unreported <= 0) {
				continue;
			}
			now = (now != null) ? now : this.clock.instant();
			Instant last = this.lastSummary[i];
			if (!force && last != null && now.isBefore(last.plus(this.summaryInterval))) {
				continue;
			}
			this.summarised[i] = total;
			this.lastSummary[i] = now;
			this.nextSummaryWhileStopped = now.plus(this.summaryInterval);
			Object latestDrop = this.latest.get(i);
			this.logger.atWarn()
				.setMessage("Dropped {} event(s) ({}) since the last report; latest: {}")
				.addArgument(unreported)
				.addArgument(reason.tag())
				.addArgument(() -> describe(latestDrop))
				.addKeyValue("dropReason", reason.tag())
				.addKeyValue("dropped", unreported)
				.log();
		}
	}

	/**
	 * Writes the last line of a broadcaster's life: every counter, at INFO, or WARN when anything was dropped.
	 * @param sinkSummary what the sinks wrote, e.g. {@code "created 10, patched 4"}
	 */
	void finalSummary(String sinkSummary) {
		flush(true);
		this.finalSummaryWritten = true;
		long dropped = totalDropped();
		String line = "Kubernetes event recorder stopped: accepted " + acceptedCount() + ", " + sinkSummary
				+ ", dropped " + dropped + " " + droppedByReason();
		if (dropped > 0) {
			this.logger.warn(line);
		}
		else {
			this.logger.info(line);
		}
	}

	/**
	 * Counts an event recorded after shutdown began. Before the final summary the final summary counts it; after
	 * it, the first such drop writes a summary at once (a caller's late event is never silent), and later ones are
	 * summarised by the calling thread at most once per summary interval (no distribution thread is left).
	 */
	void dropAfterShutdown(RecordedEvent event) {
		drop(DropReason.SHUTDOWN, event);
		if (this.finalSummaryWritten) {
			flush(this.afterSummaryLogged.compareAndSet(false, true));
		}
	}

	private static String describe(@Nullable Object latest) {
		if (latest instanceof RecordedEvent event) {
			return event.describe();
		}
		return LogText.oneLine(String.valueOf(latest));
	}

	/** The event (its caller-supplied fields quoted and escaped) and why it was dropped, on one line. */
	private static String describe(@Nullable RecordedEvent event, String why) {
		return (event != null) ? event.describe() + ": " + LogText.oneLine(why) : LogText.oneLine(why);
	}

}
