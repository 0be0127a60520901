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
						"fieldPath=spec.containers{mycontainer}", "message=up");
		});
	}

}
