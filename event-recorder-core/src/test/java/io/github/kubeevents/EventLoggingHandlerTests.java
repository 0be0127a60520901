package io.github.kubeevents;

import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** client-go's StartStructuredLogging line ("Event occurred ..."), as text and as SLF4J key-values. */
class EventLoggingHandlerTests {

	@Test
	void formatsClientGosStructuredLine() {
		RecordedEvent event = TestEvents.recorded("Started", "Started \"c1\"\n", TestEvents.object("Pod", "foo", "baz"));
		assertThat(EventLoggingHandler.format(event)).isEqualTo("Event occurred object=\"baz/foo\" "
				+ "fieldPath=\"spec.containers{mycontainer}\" kind=\"Pod\" apiVersion=\"version\" type=\"Normal\" "
				+ "reason=\"Started\" message=\"Started \\\"c1\\\"\\n\"");
	}

	@Test
	void clusterScopedObjectIsJustItsNameAndMissingFieldsAreEmpty() {
		RecordedEvent event = TestEvents.recorded("Ready", "ok", InvolvedObject.of("Node", "v1", null, "n1"));
		assertThat(EventLoggingHandler.format(event)).isEqualTo("Event occurred object=\"n1\" fieldPath=\"\" "
				+ "kind=\"Node\" apiVersion=\"v1\" type=\"Normal\" reason=\"Ready\" message=\"ok\"");
	}

	@Test
	void actionComesBeforeTheMessageWhenSet() {
		RecordedEvent event = new RecordedEvent(InvolvedObject.of("Pod", "v1", "ns", "p"), null, EventType.WARNING,
				"FailedScheduling", "Scheduling", "tab\there \\ back", Map.of(), TestEvents.SOURCE, TestEvents.TIME);
		assertThat(EventLoggingHandler.format(event)).isEqualTo("Event occurred object=\"ns/p\" fieldPath=\"\" "
				+ "kind=\"Pod\" apiVersion=\"v1\" type=\"Warning\" reason=\"FailedScheduling\" action=\"Scheduling\" "
				+ "message=\"tab\\there \\\\ back\"");
	}

	@Test
	void logsAtInfoWithKeyValuesToItsOwnLogger() {
		Logger logger = (Logger) LoggerFactory.getLogger(EventLoggingHandler.LOGGER_NAME);
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		logger.addAppender(appender);
		Level level = logger.getLevel();
		logger.setLevel(Level.INFO);
		try {
			RecordedEvent event = TestEvents.recorded("Started", "up", TestEvents.object("Pod", "foo", "baz"));
			new EventLoggingHandler().onEvent(event);
			logger.setLevel(Level.WARN);
			new EventLoggingHandler().onEvent(event);
		}
		finally {
			logger.detachAppender(appender);
			logger.setLevel(level);
		}
		assertThat(appender.list).singleElement().satisfies((line) -> {
			assertThat(line.getLevel()).isEqualTo(Level.INFO);
			assertThat(line.getLoggerName()).isEqualTo("io.github.kubeevents.events");
			assertThat(line.getFormattedMessage()).startsWith("Event occurred object=\"baz/foo\" ");
			List<KeyValuePair> pairs = line.getKeyValuePairs();
			assertThat(pairs).extracting((pair) -> pair.key + "=" + pair.value)
				.containsExactly("object=baz/foo", "kind=Pod", "apiVersion=version", "type=Normal", "reason=Started",
						"fieldPath=spec.containers{mycontainer}", "note=up");
		});
	}

	@Test
	void keyValuesCarryTheTextEscapedAsTheMessageDoesButUnquoted() {
		InvolvedObject object = new InvolvedObject("Pod\n", null, "ns\u2028", "p\"1\r", null, null, "spec\u202e");
		RecordedEvent event = new RecordedEvent(object, null, EventType.WARNING, "Back\nOff", "Pull\u0000",
				"line 1\nfake 2026-01-01 INFO forged \u001b[31m\\ \"q\"", Map.of(), TestEvents.SOURCE, TestEvents.TIME);
		try (LogCapture log = LogCapture.of(EventLoggingHandler.LOGGER_NAME, Level.INFO)) {
			new EventLoggingHandler().onEvent(event);
			assertThat(log.lines()).singleElement().satisfies((line) -> {
				assertThat(line.getKeyValuePairs()).extracting((pair) -> pair.key, (pair) -> pair.value)
					.containsExactly(tuple("object", "ns\\u2028/p\"1\\r"), tuple("kind", "Pod\\n"),
							tuple("apiVersion", null), tuple("type", "Warning"), tuple("reason", "Back\\nOff"),
							tuple("fieldPath", "spec\\u202e"), tuple("action", "Pull\\u0000"),
							tuple("note", "line 1\\nfake 2026-01-01 INFO forged \\u001b[31m\\ \"q\""));
				assertThat(line.getFormattedMessage()).isEqualTo("Event occurred object=\"ns\\u2028/p\\\"1\\r\" "
						+ "fieldPath=\"spec\\u202e\" kind=\"Pod\\n\" apiVersion=\"\" type=\"Warning\" reason=\"Back\\nOff\" "
						+ "action=\"Pull\\u0000\" message=\"line 1\\nfake 2026-01-01 INFO forged \\u001b[31m\\\\ \\\"q\\\"\"");
			});
		}
	}

}
