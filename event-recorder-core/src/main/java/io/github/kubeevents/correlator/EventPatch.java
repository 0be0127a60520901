package io.github.kubeevents.correlator;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The strategic-merge patch for a repeated core/v1 Event: exactly {@code count}, {@code lastTimestamp} and,
 * when not empty, {@code message} (what client-go's two-way diff produces). It carries no resourceVersion, so
 * the update is unconditional.
 *
 * <p>Immutable and thread-safe.
 *
 * @param count the new count
 * @param lastTimestamp the new last timestamp (UTC, whole seconds)
 * @param message the latest message, may be empty
 */
public record EventPatch(int count, OffsetDateTime lastTimestamp, String message) {

	/**
	 * The patch body as an ordered map, ready to be serialised with the client's JSON (never by string
	 * formatting, so quotes and unicode in messages are safe). The timestamp is RFC 3339 in UTC, e.g.
	 * {@code 2026-11-30T12:00:00Z}.
	 * @return {@code {"count":N,"lastTimestamp":"...","message":"..."}}
	 */
	public Map<String, Object> toMap() {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("count", this.count);
		body.put("lastTimestamp", DateTimeFormatter.ISO_INSTANT.format(this.lastTimestamp.toInstant()));
		if (this.message != null && !this.message.isEmpty()) {
			body.put("message", this.message);
		}
		return body;
	}

}
