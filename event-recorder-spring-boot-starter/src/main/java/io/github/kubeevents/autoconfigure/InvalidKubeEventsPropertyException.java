package io.github.kubeevents.autoconfigure;

import java.io.Serializable;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * {@code kubeevents.*} properties have values the recorder cannot work with: out of range, not convertible to the
 * property's type, or a duration without a unit. Every invalid value found is in one exception, thrown before the application's beans are created, so startup fails once with all of
 * them; {@link InvalidKubeEventsPropertyFailureAnalyzer} turns it into Spring Boot's "Description / Action" report.
 *
 * <p>Immutable.
 */
public final class InvalidKubeEventsPropertyException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final List<Problem> problems;

	/**
	 * One invalid value.
	 * @param property the property's full name, e.g. {@code kubeevents.sink.retry.max-attempts}
	 * @param value the value found, as text
	 * @param requirement what a valid value is, e.g. {@code "must be at least 1"}
	 */
	public InvalidKubeEventsPropertyException(String property, @Nullable Object value, String requirement) {
		this(List.of(new Problem(property, value, requirement, null)));
	}

	/**
	 * Invalid values.
	 * @param problems at least one
	 */
	InvalidKubeEventsPropertyException(List<Problem> problems) {
		super(problems.stream().map(Problem::summary).collect(Collectors.joining("; ")));
		if (problems.isEmpty()) {
			throw new IllegalArgumentException("no problem");
		}
		this.problems = List.copyOf(problems);
	}

	/** @return the first invalid property's full name */
	public String property() {
		return this.problems.get(0).property();
	}

	/** @return the first invalid value found, or {@code null} when the property was not set */
	public @Nullable String value() {
		return this.problems.get(0).value();
	}

	/** @return what a valid value of the first invalid property is */
	public String requirement() {
		return this.problems.get(0).requirement();
	}

	/**
	 * Every invalid value found.
	 * @return at least one; sorted by property name when found at startup
	 */
	List<Problem> problems() {
		return this.problems;
	}

	/**
	 * One invalid value.
	 * @param property the property's full name
	 * @param value the value found, as text; {@code null} when the property was not set
	 * @param requirement what a valid value is
	 * @param origin where the value is set, when known (e.g. {@code class path resource [application.yaml] - 3:9})
	 */
	record Problem(String property, @Nullable String value, String requirement,
			@Nullable String origin) implements Serializable {

		Problem(String property, @Nullable Object value, String requirement, @Nullable String origin) {
			this(property, (value != null) ? value.toString() : null, requirement, origin);
		}

		/**
		 * The same problem, where its value is set.
		 * @param origin where the value is set, or {@code null}
		 * @return a copy
		 */
		Problem withOrigin(@Nullable String origin) {
			return new Problem(this.property, this.value, this.requirement, origin);
		}

		/** The value as a report quotes it: {@code '5'}, or {@code not set}. */
		String quotedValue() {
			return (this.value != null) ? "'" + this.value + "'" : "not set";
		}

		private String summary() {
			return this.property + " " + this.requirement + ", was " + quotedValue();
		}

	}

}
