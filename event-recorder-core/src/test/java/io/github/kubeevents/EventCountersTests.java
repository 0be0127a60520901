package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counters and their log lines, driven directly: one WARN summary per flood-prone reason with the exact
 * number since the previous one, at most one per reason per summary interval of the injected clock, the final
 * summary, and DEBUG lines per drop only when DEBUG is on.
 */
class EventCountersTests {

	private static final Instant START = Instant.parse("2026-11-30T12:00:00Z");

	private static final Duration INTERVAL = Duration.ofSeconds(10);

	private final TickingClock clock = TickingClock.fixed(START);

	private final EventCounters counters = new EventCounters(this.clock, INTERVAL);

	private final LogCapture log = LogCapture.of(EventCounters.class, Level.INFO);

	private final RecordedEvent event = TestEvents.recorded("BackOff", "m", TestEvents.object("Pod", "web-0", "shop"));

	@AfterEach
	void close() {
		this.log.close();
	}

	private void drop(DropReason reason, int times) {
		for (int i = 0; i < times; i++) {
			this.counters.drop(reason, this.event);
		}
	}

	@Test
	void flushSummarisesEachFloodProneReasonWithTheExactNumber() {
		drop(DropReason.QUEUE_FULL, 7);
		drop(DropReason.SPAM_FILTERED, 3);
		assertThat(this.log.lines()).as("nothing is logged per drop at INFO").isEmpty();
		this.counters.flush(false);
		assertThat(this.log.warnings()).containsExactly(
				"Dropped 7 event(s) (queue_full) since the last report; latest: object=\"shop/web-0\" kind=\"Pod\" type=\"Normal\" reason=\"BackOff\"",
				"Dropped 3 event(s) (spam_filtered) since the last report; latest: object=\"shop/web-0\" kind=\"Pod\" type=\"Normal\" reason=\"BackOff\"");
		assertThat(this.log.lines().get(0).getKeyValuePairs()).extracting((pair) -> pair.key + "=" + pair.value)
			.containsExactly("dropReason=queue_full", "dropped=7");
		this.counters.flush(false);
		assertThat(this.log.warnings()).as("nothing new, nothing logged").hasSize(2);
	}

	@Test
	void formatFailureCarriesTheObjectEscapedAndItsWholeMessageWithoutPlaceholders() {
		RecordedEvent event = TestEvents.recorded("Bad", "m", TestEvents.object("Pod", "w{}\n1", "shop"));
		this.counters.formatFailed(event, "%d {}\r", new IllegalStateException("x\u2028y"));
		assertThat(this.log.lines()).singleElement().satisfies((line) -> {
			assertThat(line.getFormattedMessage()).isEqualTo("Could not format the message of an event; recording the "
					+ "pattern with its arguments (logged once per pattern): object=\"shop/w{}\\n1\" kind=\"Pod\" "
					+ "type=\"Normal\" reason=\"Bad\": pattern '%d {}\\r': java.lang.IllegalStateException: x\\u2028y");
			assertThat(line.getArgumentArray()).isNull();
			assertThat(line.getKeyValuePairs()).extracting((pair) -> pair.key + "=" + pair.value)
				.containsExactly("object=shop/w{}\\n1");
		});
	}

	@Test
	void atMostOneSummaryPerReasonPerInterval() {
		drop(DropReason.SHUTDOWN, 5);
		this.counters.flush(false);
		drop(DropReason.SHUTDOWN, 3);
		this.counters.flush(false);
		this.clock.advance(INTERVAL.minusNanos(1));
		this.counters.flush(false);
		assertThat(this.log.warnings()).hasSize(1);
		drop(DropReason.QUEUE_FULL, 1);
		this.counters.flush(false);
		assertThat(this.log.warnings()).as("another reason has its own interval").hasSize(2);
		this.clock.advance(Duration.ofNanos(1));
		this.counters.flush(false);
		assertThat(summed(DropReason.SHUTDOWN)).containsExactly(5L, 3L);
		assertThat(summed(DropReason.QUEUE_FULL)).containsExactly(1L);
	}

	@Test
	void forcedFlushIgnoresTheInterval() {
		drop(DropReason.SPAM_FILTERED, 2);
		this.counters.flush(false);
		drop(DropReason.SPAM_FILTERED, 4);
		this.counters.flush(true);
		assertThat(summed(DropReason.SPAM_FILTERED)).containsExactly(2L, 4L);
	}

	@Test
	void individuallyMeaningfulDropsAreLoggedOneWarnEachAndNeverSummarised() {
		this.counters.dropAndLog(DropReason.REJECTED_BY_SERVER, this.event, "Server rejected event (will not retry!): HTTP 403", false);
		this.counters.dropAndLog(DropReason.INVALID_INPUT, null, "reason is null", false);
		this.counters.dropAndLog(DropReason.REJECTED_BY_SERVER, this.event, "HTTP 409 AlreadyExists", true);
		this.counters.flush(true);
		assertThat(this.log.warnings()).containsExactly(
				"Dropped event (rejected_by_server): object=\"shop/web-0\" kind=\"Pod\" type=\"Normal\" reason=\"BackOff\": Server rejected event (will not retry!): HTTP 403",
				"Dropped event (invalid_input): reason is null");
		assertThat(this.counters.dropped(DropReason.REJECTED_BY_SERVER)).isEqualTo(2);
		assertThat(this.counters.dropped(DropReason.INVALID_INPUT)).isEqualTo(1);
	}

	@Test
	void finalSummaryFlushesAndListsEveryReasonWithItsCount() {
		this.counters.accepted();
		this.counters.accepted();
		this.counters.accepted();
		drop(DropReason.QUEUE_FULL, 2);
		this.counters.flush(false);
		drop(DropReason.QUEUE_FULL, 1);
		drop(DropReason.SHUTDOWN, 4);
		this.counters.dropAndLog(DropReason.RETRIES_EXHAUSTED, this.event, "retry limit", false);
		this.counters.finalSummary("created 1, patched 0");
		assertThat(summed(DropReason.QUEUE_FULL)).containsExactly(2L, 1L);
		assertThat(summed(DropReason.SHUTDOWN)).containsExactly(4L);
		assertThat(this.log.warnings()).last()
			.isEqualTo("Kubernetes event recorder stopped: accepted 3, created 1, patched 0, dropped 8 {queue_full=3, "
					+ "spam_filtered=0, rejected_by_server=0, retries_exhausted=1, shutdown=4, invalid_input=0}");
	}

	@Test
	void finalSummaryIsInfoWhenNothingWasDropped() {
		this.counters.accepted();
		this.counters.finalSummary("created 1, patched 0");
		assertThat(this.log.messages(Level.INFO)).containsExactly("Kubernetes event recorder stopped: accepted 1, "
				+ "created 1, patched 0, dropped 0 {queue_full=0, spam_filtered=0, rejected_by_server=0, "
				+ "retries_exhausted=0, shutdown=0, invalid_input=0}");
		assertThat(this.log.warnings()).isEmpty();
	}

	@Test
	void eachDropIsADebugLineWhenDebugIsOn() {
		try (LogCapture debug = LogCapture.of(EventCounters.class, Level.DEBUG)) {
			drop(DropReason.QUEUE_FULL, 2);
			this.counters.dropAndLog(DropReason.REJECTED_BY_SERVER, this.event, "HTTP 409 AlreadyExists", true);
			assertThat(debug.messages(Level.DEBUG)).containsExactly(
					"Dropped event (queue_full): object=\"shop/web-0\" kind=\"Pod\" type=\"Normal\" reason=\"BackOff\"",
					"Dropped event (queue_full): object=\"shop/web-0\" kind=\"Pod\" type=\"Normal\" reason=\"BackOff\"",
					"Dropped event (rejected_by_server): object=\"shop/web-0\" kind=\"Pod\" type=\"Normal\" reason=\"BackOff\": HTTP 409 AlreadyExists");
		}
	}

	@Test
	void droppedByReasonHasEveryReasonInDeclarationOrder() {
		drop(DropReason.SHUTDOWN, 1);
		assertThat(this.counters.droppedByReason()).containsExactly(java.util.Map.entry("queue_full", 0L),
				java.util.Map.entry("spam_filtered", 0L), java.util.Map.entry("rejected_by_server", 0L),
				java.util.Map.entry("retries_exhausted", 0L), java.util.Map.entry("shutdown", 1L),
				java.util.Map.entry("invalid_input", 0L));
		assertThat(this.counters.totalDropped()).isEqualTo(1);
	}

	/** The counts of the summary lines of one reason, read from their key-values. */
	private List<Long> summed(DropReason reason) {
		return this.log.lines().stream().filter((line) -> line.getLevel() == Level.WARN)
			.filter((line) -> reason.tag().equals(value(line, "dropReason")) && value(line, "dropped") != null)
			.map((line) -> (Long) value(line, "dropped"))
			.toList();
	}

	private static Object value(ILoggingEvent line, String key) {
		if (line.getKeyValuePairs() == null) {
			return null;
		}
		for (KeyValuePair pair : line.getKeyValuePairs()) {
			if (pair.key.equals(key)) {
				return pair.value;
			}
		}
		return null;
	}

}
