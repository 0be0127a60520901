package io.github.kubeevents;

import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

/**
 * Captures what one Logback logger writes, at a chosen level, for as long as it is open; the lines do not reach
 * the console. Closing it restores the logger's level and additivity.
 *
 * <p>Thread-safe for appending (Logback serialises appends); read the lines once the code under test is done or
 * through a condition that tolerates a growing list.
 */
public final class LogCapture implements AutoCloseable {

	private final Logger logger;

	private final Level previousLevel;

	private final boolean previousAdditive;

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	private LogCapture(Logger logger, Level level) {
		this.logger = logger;
		this.previousLevel = logger.getLevel();
		this.previousAdditive = logger.isAdditive();
		this.appender.start();
		logger.addAppender(this.appender);
		logger.setLevel(level);
		logger.setAdditive(false);
	}

	/**
	 * Starts capturing the logger of {@code type}.
	 * @param type the class whose logger to capture
	 * @param level the level to set while capturing
	 * @return the open capture
	 */
	public static LogCapture of(Class<?> type, Level level) {
		return of(type.getName(), level);
	}

	/**
	 * Starts capturing a logger.
	 * @param name the logger's name
	 * @param level the level to set while capturing
	 * @return the open capture
	 */
	public static LogCapture of(String name, Level level) {
		return new LogCapture((Logger) LoggerFactory.getLogger(name), level);
	}

	/**
	 * Every line captured so far.
	 * @return a copy, in order
	 */
	public List<ILoggingEvent> lines() {
		// AppenderBase.doAppend is synchronized on the appender
		synchronized (this.appender) {
			return List.copyOf(this.appender.list);
		}
	}

	/**
	 * The formatted messages captured at one level.
	 * @param level the level
	 * @return the messages, in order
	 */
	public List<String> messages(Level level) {
		return lines().stream().filter((line) -> line.getLevel() == level).map(ILoggingEvent::getFormattedMessage).toList();
	}

	/**
	 * The formatted WARN messages.
	 * @return the messages, in order
	 */
	public List<String> warnings() {
		return messages(Level.WARN);
	}

	/** Stops capturing and restores the logger. */
	@Override
	public void close() {
		this.logger.detachAppender(this.appender);
		this.logger.setLevel(this.previousLevel);
		this.logger.setAdditive(this.previousAdditive);
		this.appender.stop();
	}

}
