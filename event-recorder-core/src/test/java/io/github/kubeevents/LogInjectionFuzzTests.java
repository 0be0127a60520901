package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.RetryPolicy;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No caller-supplied text can end a log record or drive a terminal: 3,000 calls with reasons, names, namespaces,
 * kinds, patterns and messages full of line breaks, NUL, BEL, ANSI escapes, C1 controls, U+2028/U+2029 and bidi
 * overrides, through every path that logs them (the event log line, format failures, invalid input, the server's
 * refusal that echoes the name, transport retries and drop summaries), and every record is one line of safe text,
 * its SLF4J key-values too.
 */
class LogInjectionFuzzTests {

	private static final String NASTY = "\n\r\t\u0000\u0007\u001b[31m\u001b]0;pwned\u0007\u007f\u0085\u009b\u2028\u2029\u202e\u2066\"\\%";

	private final Random random = new Random(20261206);

	private String text(int max) {
		StringBuilder out = new StringBuilder();
		int length = 1 + this.random.nextInt(max);
		for (int i = 0; i < length; i++) {
			out.append(this.random.nextInt(3) == 0 ? NASTY.charAt(this.random.nextInt(NASTY.length()))
					: (char) ('a' + this.random.nextInt(26)));
		}
		return out.toString();
	}

	/** A sink whose answers echo the Event's name and reason, as the API server's validation messages do. */
	private static final class EchoingSink implements EventSink {

		private int calls;

		@Override
		public synchronized CoreV1Event create(CoreV1Event event) throws EventSinkException {
			String echo = "events \"" + event.getMetadata().getName() + "\" is invalid: reason: " + event.getReason();
			if ((this.calls++ % 2) == 0) {
				throw EventSinkException.status(422, "Invalid", echo);
			}
			throw EventSinkException.of(EventSinkException.Kind.TRANSPORT, "connection reset while writing " + echo,
					null);
		}

		@Override
		public CoreV1Event patch(CoreV1Event event, CountPatch patch) throws EventSinkException {
			return create(event);
		}

	}

	@Test
	void everyLogRecordIsOneLineOfSafeText() {
		// the test configuration quiets the event log and the counters; each capture takes its logger whole
		try (LogCapture log = LogCapture.of("io.github.kubeevents", Level.DEBUG);
				LogCapture events = LogCapture.of(EventLoggingHandler.LOGGER_NAME, Level.INFO);
				LogCapture counters = LogCapture.of(EventCounters.class, Level.DEBUG)) {
			EventBroadcaster broadcaster = EventBroadcaster.builder()
				.clock(TickingClock.fixed(Instant.parse("2026-12-06T03:00:00Z")))
				.sleeper((duration) -> {
				})
				.retryPolicy(new RetryPolicy(2, Duration.ZERO))
				.maxMessageBytes(300)
				.dropSummaryInterval(Duration.ZERO)
				.build();
			broadcaster.startRecordingToSink(new EchoingSink());
			broadcaster.startLogging();
			broadcaster.start();
			EventRecorder recorder = broadcaster.newRecorder(new EventSource("fuzz", "host-" + text(5)));
			for (int i = 0; i < 3000; i++) {
				InvolvedObject object = new InvolvedObject(text(8), "v1", text(8), text(12), text(6), null, null);
				switch (i % 5) {
					case 0 -> recorder.about(object).warning(text(10), "probe %s failed", text(20));
					case 1 -> recorder.about(object).action(text(6)).normal(text(10), "%d " + text(10), text(5));
					case 2 -> recorder.about(object).warning(text(10), "x".repeat(300) + text(10));
					case 3 -> recorder.about(object, (o) -> {
						throw new IllegalStateException(text(20));
					}).warning(text(10), text(20));
					default -> recorder.eventf(object, EventType.NORMAL, text(10), text(30));
				}
			}
			broadcaster.shutdown(Duration.ofSeconds(30));
			List<ILoggingEvent> lines = new java.util.ArrayList<>(log.lines());
			lines.addAll(events.lines());
			lines.addAll(counters.lines());
			assertThat(lines).filteredOn((line) -> line.getFormattedMessage().startsWith("Event occurred")).isNotEmpty();
			assertThat(lines).filteredOn((line) -> line.getFormattedMessage().startsWith("Could not format")).isNotEmpty();
			assertThat(lines).filteredOn((line) -> line.getFormattedMessage().startsWith("Dropped event (invalid_input)"))
				.isNotEmpty();
			assertThat(lines).filteredOn((line) -> line.getFormattedMessage().contains("is invalid: reason:")).isNotEmpty();
			assertThat(lines).filteredOn((line) -> line.getFormattedMessage().startsWith("Unable to write event"))
				.isNotEmpty();
			assertThat(lines).filteredOn((line) -> line.getKeyValuePairs() != null).isNotEmpty();
			for (ILoggingEvent line : lines) {
				String message = line.getFormattedMessage();
				assertThat(message.chars().filter(LogInjectionFuzzTests::unsafe).count())
					.as("unsafe characters in %s", message.replace("\u001b", "<ESC>"))
					.isZero();
				// backends print key-values as they are (LogForgingBackendsTests prints them)
				if (line.getKeyValuePairs() != null) {
					for (KeyValuePair pair : line.getKeyValuePairs()) {
						assertThat(String.valueOf(pair.value).chars().filter(LogInjectionFuzzTests::unsafe).count())
							.as("unsafe characters in the key-value %s of %s", pair.key, message)
							.isZero();
					}
				}
			}
		}
	}

	private static boolean unsafe(int c) {
		return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e)
				|| (c >= 0x2066 && c <= 0x2069);
	}

}
