package io.github.kubeevents.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.github.kubeevents.Subscription;
import org.jspecify.annotations.Nullable;

/**
 * The checks of one properties record, collected so that its constructor reports every invalid value at once
 * rather than the first: {@code new Requirements().require(...).require(...).check()}.
 *
 * <p>Not thread-safe; one per constructor call.
 */
final class Requirements {

	private final List<InvalidKubeEventsPropertyException.Problem> problems = new ArrayList<>(0);

	/**
	 * Notes a problem unless {@code condition} holds.
	 * @param condition whether the value is valid
	 * @param property the property's full name
	 * @param value the value found
	 * @param requirement what a valid value is
	 * @return this
	 */
	Requirements require(boolean condition, String property, @Nullable Object value, String requirement) {
		if (!condition) {
			this.problems.add(new InvalidKubeEventsPropertyException.Problem(property, value, requirement, null));
		}
		return this;
	}

	/**
	 * Requires a queue capacity: its slots are allocated at startup, so a typo must not become an OutOfMemoryError.
	 * @param capacity the capacity
	 * @param property the property's full name
	 * @return this
	 */
	Requirements requireCapacity(int capacity, String property) {
		return require(capacity >= 1 && capacity <= Subscription.Options.MAX_QUEUE_CAPACITY, property, capacity,
				"must be between 1 and " + Subscription.Options.MAX_QUEUE_CAPACITY
						+ ", as a queue's slots are allocated at startup");
	}

	/**
	 * Throws when a requirement failed.
	 * @throws InvalidKubeEventsPropertyException naming every failed requirement, in the order checked
	 */
	void check() {
		if (!this.problems.isEmpty()) {
			throw new InvalidKubeEventsPropertyException(this.problems);
		}
	}

}
