package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.Subscription;
import org.jspecify.annotations.Nullable;

/**
 * A {@code kubeevents.*} property has a value the recorder cannot work with. Thrown while the properties are
 * bound, so startup fails; {@link InvalidKubeEventsPropertyFailureAnalyzer} turns it into Spring Boot's
 * "Description / Action" report.
 *
 * <p>Immutable.
 */
public final class InvalidKubeEventsPropertyException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String property;

	private final @Nullable String value;

	private final String requirement;

	/**
	 * An invalid value.
	 * @param property the property's full name, e.g. {@code kubeevents.sink.retry.max-attempts}
	 * @param value the value found, as text
	 * @param requirement what a valid value is, e.g. {@code "must be at least 1"}
	 */
	public InvalidKubeEventsPropertyException(String property, @Nullable Object value, String requirement) {
		super(property + " " + requirement + ", was " + ((value != null) ? "'" + value + "'" : "not set"));
		this.property = property;
		this.value = (value != null) ? value.toString() : null;
		this.requirement = requirement;
	}

	/** @return the property's full name */
	public String property() {
		return this.property;
	}

	/** @return the value found, or {@code null} when the property was not set */
	public @Nullable String value() {
		return this.value;
	}

	/** @return what a valid value is */
	public String requirement() {
		return this.requirement;
	}

	static void require(boolean condition, String property, @Nullable Object value, String requirement) {
		if (!condition) {
			throw new InvalidKubeEventsPropertyException(property, value, requirement);
		}
	}

	/** A queue capacity: its slots are allocated at startup, so a typo must not become an OutOfMemoryError. */
	static void requireCapacity(int capacity, String property) {
		require(capacity >= 1 && capacity <= Subscription.Options.MAX_QUEUE_CAPACITY, property, capacity,
				"must be between 1 and " + Subscription.Options.MAX_QUEUE_CAPACITY
						+ ", as a queue's slots are allocated at startup");
	}

}
