package io.github.kubeevents.autoconfigure;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The configuration sets {@code kubeevents.*} properties that were renamed or removed. Thrown before the properties
 * are bound, so startup fails; {@link RemovedKubeEventsPropertiesFailureAnalyzer} turns it into Spring Boot's
 * "Description / Action" report naming each replacement.
 *
 * <p>Immutable.
 */
final class RemovedKubeEventsPropertiesException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final transient List<Found> found;

	RemovedKubeEventsPropertiesException(List<Found> found) {
		super("Removed kubeevents properties are set: " + found.stream()
			.map((f) -> f.replacement().name() + " (use " + f.replacement().replacement() + ")")
			.collect(Collectors.joining(", ")));
		this.found = List.copyOf(found);
	}

	/** @return the removed names found, in the order of {@link RemovedKubeEventsProperties#REPLACEMENTS} */
	List<Found> found() {
		return this.found;
	}

	/**
	 * A removed name that is set.
	 * @param replacement the name and its replacement
	 * @param value the value set
	 * @param origin where it is set, when known (e.g. {@code class path resource [application.yaml] - 3:9})
	 */
	record Found(RemovedKubeEventsProperties.Replacement replacement, @Nullable Object value, @Nullable String origin) {
	}

}
