package io.github.kubeevents;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import ch.qos.logback.classic.BasicConfigurator;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import org.junit.jupiter.api.Test;
import org.slf4j.ILoggerFactory;
import org.slf4j.simple.SimpleServiceProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No caller text in a key-value forges a log record in the two SLF4J backends that print key-values with their
 * defaults: slf4j-simple (which writes {@code key=value} before the message) and Logback's
 * {@link BasicConfigurator} (whose {@code TTLLLayout} writes {@code key="value"}, neither escaped). The records
 * of {@link LogForgingFuzz} go through each backend's own logger factory, so both run in this JVM beside the bound
 * provider; each record must print as one line of safe text that carries its key-values escaped as the message
 * escapes them. Spring Boot's console pattern and JSON formats are the starter's {@code BootLogForgingTests}.
 */
class LogForgingBackendsTests {

	private static final int RECORDS = 2000;

	private static final String THREAD = Pattern.quote(Thread.currentThread().getName());

	@Test
	void slf4jSimplePrintsEveryRecordAsOneLine() {
		SimpleServiceProvider provider = new SimpleServiceProvider();
		provider.initialize();
		ILoggerFactory factory = provider.getLoggerFactory();
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		PrintStream err = System.err;
		List<LogForgingFuzz.Printed> printed;
		// slf4j-simple writes to System.err as it is at each call (its default; not cached)
		System.setErr(new PrintStream(out, true, StandardCharsets.UTF_8));
		try {
			printed = LogForgingFuzz.run(factory.getLogger(EventLoggingHandler.LOGGER_NAME),
					factory.getLogger(EventCounters.class.getName()), taking(out), RECORDS, 36);
		}
		finally {
			System.setErr(err);
		}
		assertThat(LogForgingFuzz.problems(printed,
				Pattern.compile("\\[" + THREAD + "] (INFO|WARN) io\\.github\\.kubeevents\\.(events|EventCounters) - ")))
			.isEmpty();
		assertKeyValuesPrinted(printed, "%s=%s ");
	}

	@Test
	void logbackDefaultConfigurationPrintsEveryRecordAsOneLine() {
		LoggerContext context = new LoggerContext();
		// what Logback's service provider gives the context it binds
		context.setMDCAdapter(new LogbackMDCAdapter());
		context.start();
		try {
			BasicConfigurator configurator = new BasicConfigurator();
			configurator.setContext(context);
			configurator.configure(context);
			ConsoleAppender<ILoggingEvent> console = (ConsoleAppender<ILoggingEvent>) context
				.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
				.getAppender("console");
			// the default encoder writes the platform charset; the capture reads UTF-8
			((LayoutWrappingEncoder<ILoggingEvent>) console.getEncoder()).setCharset(StandardCharsets.UTF_8);
			ByteArrayOutputStream out = new ByteArrayOutputStream();
			console.setOutputStream(out);
			// the root's DEBUG would add the flood-prone drops' DEBUG lines (no key-values) to the summaries' steps
			context.getLogger("io.github.kubeevents").setLevel(Level.INFO);
			List<LogForgingFuzz.Printed> printed = LogForgingFuzz.run(context.getLogger(EventLoggingHandler.LOGGER_NAME),
					context.getLogger(EventCounters.class), taking(out), RECORDS, 36);
			assertThat(LogForgingFuzz.problems(printed, Pattern.compile("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} \\[" + THREAD
					+ "] (INFO|WARN) io\\.github\\.kubeevents\\.(events|EventCounters) -")))
				.isEmpty();
			assertKeyValuesPrinted(printed, "%s=\"%s\"");
		}
		finally {
			context.stop();
		}
	}

	/** Every key-value with a value is printed, escaped, in the backend's format. */
	private static void assertKeyValuesPrinted(List<LogForgingFuzz.Printed> printed, String format) {
		assertThat(printed).hasSize(RECORDS).allSatisfy((record) -> {
			for (Map.Entry<String, String> keyValue : record.keyValues().entrySet()) {
				if (keyValue.getValue() != null) {
					assertThat(record.output()).contains(String.format(format, keyValue.getKey(), keyValue.getValue()));
				}
			}
		});
	}

	private static Supplier<String> taking(ByteArrayOutputStream out) {
		return () -> {
			String text = out.toString(StandardCharsets.UTF_8);
			out.reset();
			return text;
		};
	}

}
