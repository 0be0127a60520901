package io.github.kubeevents.autoconfigure;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The configuration sets {@code kubeevents.*} names that nothing binds. Thrown before the properties are bound, so
 * startup fails; {@link UnknownKubeEventsPropertiesFailureAnalyzer} turns it into Spring Boot's "Description /
 * Action" report naming the nearest valid name of each.
 *
 * <p>Immutable.
 */
final class UnknownKubeEventsPropertiesException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final transient List<Found> found;

	UnknownKubeEventsPropertiesException(List<Found> found) {
		super("Unknown kubeevents properties are set: " + summary(found));
		this.found = List.copyOf(found);
	}

	/** @return the unknown names found, sorted by name */
	List<Found> found() {
		return this.found;
	}

	/** The names with their nearest valid name, e.g. {@code kubeevents.queue.capasity (did you mean ...?)}. */
	static String summary(List<Found> found) {
		return found.stream()
			.map((f) -> f.name() + ((f.nearest() != null) ? " (did you mean " + f.nearest() + "?)" : ""))
			.collect(Collectors.joining(", "));
	}

	/**
	 * An unknown name that is set.
	 * @param name the name, in its canonical form (e.g. {@code kubeevents.queue.capasity})
	 * @param value the value set
	 * @param origin where it is set, when known (e.g. {@code class path resource [application.yaml] - 3:9})
	 * @param nearest the valid name nearest to it, or {@code null} when no metadata is on the class path
	 */
	record Found(String name, @Nullable Object value, @Nullable String origin, @Nullable String nearest) {
	}

}
