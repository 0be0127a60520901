package io.github.kubeevents;

import java.util.Optional;

/**
 * The two event types the API server accepts ({@code core/v1 Event.type}).
 *
 * <p>Immutable and thread-safe.
 */
public enum EventType {

	/** Information only; nothing to worry about ({@code "Normal"}). */
	NORMAL("Normal"),

	/** Something may be wrong ({@code "Warning"}). */
	WARNING("Warning");

	private final String value;

	EventType(String value) {
		this.value = value;
	}

	/**
	 * The value written to the API server.
	 * @return {@code "Normal"} or {@code "Warning"}
	 */
	public String value() {
		return this.value;
	}

	/**
	 * Parses the exact wire value, like client-go's {@code ValidateEventType}: only {@code "Normal"} and
	 * {@code "Warning"} (case-sensitive) are accepted.
	 * @param value the wire value, may be {@code null}
	 * @return the type, or empty when {@code value} is not exactly one of the two
	 */
	public static Optional<EventType> fromValue(String value) {
		for (EventType type : values()) {
			if (type.value.equals(value)) {
				return Optional.of(type);
			}
		}
		return Optional.empty();
	}

	@Override
	public String toString() {
		return this.value;
	}

}
