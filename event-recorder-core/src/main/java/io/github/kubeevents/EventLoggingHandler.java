package io.github.kubeevents;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs every event as one structured line, with the key/value fields of client-go's
 * {@code StartStructuredLogging}:
 * {@code Event occurred object="ns/name" fieldPath="" kind="Pod" apiVersion="v1" type="Normal" reason="Started" message="..."}.
 * Logged at INFO to the logger {@value #LOGGER_NAME}, so it can be tuned or silenced separately.
 *
 * <p>Thread-safe.
 */
public final class EventLoggingHandler implements EventHandler {

	/** The logger's name. */
	public static final String LOGGER_NAME = "io.github.kubeevents.events";

	private static final Logger logger = LoggerFactory.getLogger(LOGGER_NAME);

	@Override
	public void onEvent(CoreV1Event event) {
		if (logger.isInfoEnabled()) {
			logger.info(format(event));
		}
	}

	/**
	 * The line logged for {@code event}.
	 * @param event the event
	 * @return the line
	 */
	public static String format(CoreV1Event event) {
		V1ObjectReference ref = (event.getInvolvedObject() != null) ? event.getInvolvedObject()
				: new V1ObjectReference();
		StringBuilder line = new StringBuilder(160).append("Event occurred");
		field(line, "object", Events.objectKey(event));
		field(line, "fieldPath", ref.getFieldPath());
		field(line, "kind", ref.getKind());
		field(line, "apiVersion", ref.getApiVersion());
		field(line, "type", event.getType());
		field(line, "reason", event.getReason());
		field(line, "message", event.getMessage());
		return line.toString();
	}

	private static void field(StringBuilder line, String key, String value) {
		line.append(' ').append(key).append("=\"");
		String text = (value != null) ? value : "";
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> line.append("\\\"");
				case '\\' -> line.append("\\\\");
				case '\n' -> line.append("\\n");
				case '\r' -> line.append("\\r");
				case '\t' -> line.append("\\t");
				default -> line.append(c);
			}
		}
		line.append('"');
	}

}
