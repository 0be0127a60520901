package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts and logs every dropped event, by {@link DropReason}.
 *
 * <p>Logging: {@code invalid_input}, {@code rejected_by_server} and {@code retries_exhausted} drops are logged
 * one line each at WARN (they are individually meaningful and already bounded by the spam filter and retry
 * budget); {@code queue_full}, {@code spam_filtered} and {@code shutdown} drops come in floods, so each is
 * logged at DEBUG and summarised at WARN at most once per {@link #SUMMARY_INTERVAL} per reason.
 *
 * <p>Thread-safe.
 */
public final class EventCounters {

	/** The shortest time between two WARN summaries of one flood-prone drop reason. */
	public static final Duration SUMMARY_INTERVAL = Duration.ofSeconds(10);

	private static final Logger logger = LoggerFactory.getLogger(EventCounters.class);

	private final Map<DropReason, LongAdder> drops = new EnumMap<>(DropReason.class);

	private final Map<DropReason, AtomicReference<Instant>> lastSummary = new EnumMap<>(DropReason.class);

	private final Map<DropReason, LongAdder> sinceSummary = new EnumMap<>(DropReason.class);

	private final Clock clock;

	/**
	 * Counters starting at zero.
	 * @param clock the clock used to pace WARN summaries
	 */
	public EventCounters(Clock clock) {
		this.clock = clock;
		for (DropReason reason : DropReason.values()) {
			this.drops.put(reason, new LongAdder());
			this.sinceSummary.put(reason, new LongAdder());
			this.lastSummary.put(reason, new AtomicReference<>());
		}
	}

	/**
	 * Counts and logs one drop.
	 * @param reason why
	 * @param detail what was dropped and why, for the log line (e.g. the object and reason of the event)
	 */
	public void drop(DropReason reason, String detail) {
		this.drops.get(reason).increment();
		switch (reason) {
			case INVALID_INPUT, REJECTED_BY_SERVER, RETRIES_EXHAUSTED ->
				logger.warn("Dropped event ({}): {}", reason.tag(), detail);
			default -> logFlood(reason, detail);
		}
	}

	private void logFlood(DropReason reason, String detail) {
		this.sinceSummary.get(reason).increment();
		logger.debug("Dropped event ({}): {}", reason.tag(), detail);
		Instant now = this.clock.instant();
		AtomicReference<Instant> last = this.lastSummary.get(reason);
		Instant previous = last.get();
		boolean due = previous == null || !now.isBefore(previous.plus(SUMMARY_INTERVAL));
		if (due && last.compareAndSet(previous, now)) {
			long count = this.sinceSummary.get(reason).sumThenReset();
			logger.warn("Dropped {} event(s) ({}) since the last report; latest: {}", count, reason.tag(), detail);
		}
	}

	/**
	 * Counts one drop and logs it at DEBUG only, for rejections that are expected in normal operation (client-go
	 * logs 409 AlreadyExists and writes into a terminating namespace at V(5)).
	 * @param reason why
	 * @param detail what was dropped and why
	 */
	public void dropQuietly(DropReason reason, String detail) {
		this.drops.get(reason).increment();
		logger.debug("Dropped event ({}): {}", reason.tag(), detail);
	}

	/**
	 * Drops counted so far for one reason.
	 * @param reason the reason
	 * @return the count
	 */
	public long dropped(DropReason reason) {
		return this.drops.get(reason).sum();
	}

	/**
	 * All drop counts, keyed by {@link DropReason#tag()}, every reason present.
	 * @return an immutable map
	 */
	public Map<String, Long> droppedByReason() {
		Map<String, Long> result = new LinkedHashMap<>();
		for (DropReason reason : DropReason.values()) {
			result.put(reason.tag(), dropped(reason));
		}
		return Collections.unmodifiableMap(result);
	}

}
