package io.github.kubeevents;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs every event as one line with the fields of client-go's {@code StartStructuredLogging}:
 * {@code Event occurred object="ns/name" fieldPath="" kind="Pod" apiVersion="v1" type="Normal" reason="Started" message="..."}
 * ({@code action="..."} is added before the message when the event has one). The same fields are attached as
 * SLF4J 2 key-value pairs (the message as {@value #MESSAGE_KEY}), so Spring Boot's structured logging (ECS,
 * Logstash, GELF) emits them as JSON fields while plain text stays readable. The key-values carry the text escaped
 * as the message escapes it ({@link LogText#oneLine}, unquoted): backends such as slf4j-simple and Logback's
 * default layout print key-values unescaped, and a library cannot know which backend or encoder a record reaches,
 * so a JSON field shows a line break as the two characters {@code \n}. Logged at INFO to the logger
 * {@value #LOGGER_NAME}, so it can be tuned or silenced separately.
 *
 * <p>Thread-safe.
 */
final class EventLoggingHandler implements EventHandler {

	static final String LOGGER_NAME = "io.github.kubeevents.events";

	/**
	 * The key of the event's message: not {@code message}, which Spring Boot's ECS and Logstash formats write for
	 * the log message and refuse to write twice (the whole line was lost); {@code note} is the message's name in
	 * events.k8s.io/v1.
	 */
	static final String MESSAGE_KEY = "note";

	private static final Logger LOGGER = LoggerFactory.getLogger(LOGGER_NAME);

	private final Logger logger;

	EventLoggingHandler() {
		this(LOGGER);
	}

	/** Logs to {@code logger}: tests print through an SLF4J backend other than the bound one. */
	EventLoggingHandler(Logger logger) {
		this.logger = logger;
	}

	@Override
	public void onEvent(RecordedEvent event) {
		if (!this.logger.isInfoEnabled()) {
			return;
		}
		InvolvedObject ref = event.regarding();
		var line = this.logger.atInfo()
			.setMessage(format(event))
			.addKeyValue("object", LogText.oneLine(ref.displayName()))
			.addKeyValue("kind", LogText.oneLineOrNull(ref.kind()))
			.addKeyValue("apiVersion", LogText.oneLineOrNull(ref.apiVersion()))
			.addKeyValue("type", event.type().value())
			.addKeyValue("reason", LogText.oneLine(event.reason()));
		if (ref.fieldPath() != null) {
			line = line.addKeyValue("fieldPath", LogText.oneLine(ref.fieldPath()));
		}
		if (event.action() != null) {
			line = line.addKeyValue("action", LogText.oneLine(event.action()));
		}
		line.addKeyValue(MESSAGE_KEY, LogText.oneLine(event.message())).log();
	}

	/** The text logged for {@code event}. */
	static String format(RecordedEvent event) {
		InvolvedObject ref = event.regarding();
		StringBuilder line = new StringBuilder(160).append("Event occurred");
		field(line, "object", ref.displayName());
		field(line, "fieldPath", ref.fieldPath());
		field(line, "kind", ref.kind());
		field(line, "apiVersion", ref.apiVersion());
		field(line, "type", event.type().value());
		field(line, "reason", event.reason());
		if (event.action() != null) {
			field(line, "action", event.action());
		}
		field(line, "message", event.message());
		return line.toString();
	}

	private static void field(StringBuilder line, String key, @Nullable String value) {
		line.append(' ').append(key).append('=');
		LogText.appendQuoted(line, value);
	}

}
