package io.github.kubeevents;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.Status;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.ansi.AnsiOutput;
import org.springframework.core.env.Environment;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No caller text forges a record in Spring Boot's console pattern or its JSON structured logging (ECS, Logstash,
 * GELF): the records of {@link LogForgingFuzz} go through a fresh Logback context configured with Boot's own
 * {@code defaults.xml} and {@code console-appender.xml} / {@code structured-console-appender.xml} (which Boot
 * documents as equivalent to what its logging system sets up, and which a {@code logback-spring.xml} includes),
 * so the bound Logback of the tests is not reconfigured. Each record must print as one line, and Logback must
 * report no failed append (ECS and Logstash refused the event line while its message key-value was named
 * {@code message}); each JSON line must be one object without duplicate names whose key-value fields hold the
 * escaped text, and whose log message is the event line.
 */
class BootLogForgingTests {

	private static final int RECORDS = 2000;

	private static final JsonMapper JSON = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.build();

	private final ByteArrayOutputStream out = new ByteArrayOutputStream();

	private final LoggerContext context = new LoggerContext();

	private AnsiOutput.Enabled ansi;

	@BeforeEach
	void colourless() {
		// %clr colours only a console; pinned so that the check for raw ESC sees the caller's text only
		this.ansi = AnsiOutput.getEnabled();
		AnsiOutput.setEnabled(AnsiOutput.Enabled.NEVER);
	}

	@AfterEach
	void restore() {
		this.context.stop();
		AnsiOutput.setEnabled(this.ansi);
	}

	@Test
	void consolePatternPrintsEveryRecordAsOneLine() throws JoranException {
		configure("console-appender.xml", null);
		List<LogForgingFuzz.Printed> printed = run();
		// CONSOLE_LOG_PATTERN: date, level, pid, thread, logger padded to 40, " : ", message
		assertThat(LogForgingFuzz.problems(printed, Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}"
				+ "(Z|[+-]\\d\\d:\\d\\d) +(INFO|WARN) " + ProcessHandle.current().pid() + " --- \\[[^\\]]{15}\\] "
				+ "io\\.github\\.kubeevents\\.(events|EventCounters) +: ")))
			.isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "ecs", "logstash", "gelf" })
	void jsonFormatPrintsEveryRecordAsOneObjectWithTheEscapedText(String format) throws JoranException {
		configure("structured-console-appender.xml", format);
		List<LogForgingFuzz.Printed> printed = run();
		assertThat(LogForgingFuzz.problems(printed, Pattern.compile("\\{\""))).isEmpty();
		// GELF prefixes additional fields with '_'
		String prefix = format.equals("gelf") ? "_" : "";
		assertThat(printed).allSatisfy((record) -> {
			JsonNode json = JSON.readTree(record.output());
			assertThat(json.isObject()).isTrue();
			record.keyValues().forEach((key, value) -> {
				if (value != null) {
					assertThat(json.path(prefix + key).asString()).as(key).isEqualTo(value);
				}
			});
			if (record.call().equals("event")) {
				assertThat(json.path(format.equals("gelf") ? "short_message" : "message").asString())
					.startsWith("Event occurred object=\"");
			}
		});
	}

	/**
	 * Configures the context with Boot's defaults and one of its console appenders, as a
	 * {@code logback-spring.xml} that includes them would, and points the appender at {@link #out}.
	 */
	private void configure(String appender, String structuredFormat) throws JoranException {
		this.context.setMDCAdapter(new LogbackMDCAdapter());
		// what LogbackLoggingSystem puts in the context: the Environment (for the structured formats), the pid
		MockEnvironment environment = new MockEnvironment();
		if (structuredFormat != null) {
			environment.setProperty("logging.structured.format.console", structuredFormat);
			this.context.putProperty("CONSOLE_LOG_STRUCTURED_FORMAT", structuredFormat);
		}
		this.context.putObject(Environment.class.getName(), environment);
		this.context.putProperty("PID", Long.toString(ProcessHandle.current().pid()));
		this.context.putProperty("CONSOLE_LOG_CHARSET", "UTF-8");
		String xml = "<configuration>"
				+ "<include resource=\"org/springframework/boot/logging/logback/defaults.xml\"/>"
				+ "<include resource=\"org/springframework/boot/logging/logback/" + appender + "\"/>"
				+ "<root level=\"INFO\"><appender-ref ref=\"CONSOLE\"/></root>" + "</configuration>";
		JoranConfigurator configurator = new JoranConfigurator();
		configurator.setContext(this.context);
		configurator.doConfigure(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
		assertThat(this.context.getStatusManager().getCopyOfStatusList())
			.noneMatch((status) -> status.getLevel() >= Status.WARN);
		((OutputStreamAppender<ILoggingEvent>) this.context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("CONSOLE"))
			.setOutputStream(this.out);
	}

	private List<LogForgingFuzz.Printed> run() {
		Supplier<String> printed = () -> {
			String text = this.out.toString(StandardCharsets.UTF_8);
			this.out.reset();
			return text;
		};
		List<LogForgingFuzz.Printed> result = LogForgingFuzz.run(this.context.getLogger(EventLoggingHandler.LOGGER_NAME),
				this.context.getLogger(EventCounters.class), printed, RECORDS, 36);
		assertThat(this.context.getStatusManager().getCopyOfStatusList())
			.noneMatch((status) -> status.getLevel() >= Status.WARN);
		return result;
	}

}
