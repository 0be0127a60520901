package io.github.kubeevents.autoconfigure;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * The configuration sets {@code kubeevents.*} names that the recorder does not bind: renamed or removed ones, and
 * unknown ones. Thrown before the properties are bound, so startup fails; {@link KubeEventsPropertyNamesFailureAnalyzer}
 * turns it into Spring Boot's "Description / Action" report naming the replacement or the nearest valid name of each.
 *
 * <p>Immutable.
 */
final class KubeEventsPropertyNamesException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final transient List<Found> found;

	/**
	 * Creates the exception.
	 * @param found the names found: the renamed ones first, then the unknown ones
	 */
	KubeEventsPropertyNamesException(List<Found> found) {
		super("Renamed or unknown kubeevents properties are set: " + summary(found));
		this.found = List.copyOf(found);
	}

	/**
	 * The names found.
	 * @return the renamed names in the order of {@link KubeEventsPropertyNames#RENAMED}, then the unknown names sorted
	 * by name
	 */
	List<Found> found() {
		return this.found;
	}

	/**
	 * The names with their replacement or nearest valid name, e.g. {@code kubeevents.api (use kubeevents.sink.api),
	 * kubeevents.queue.capasity (did you mean kubeevents.queue.capacity?)}.
	 * @param found the names
	 * @return the summary, one line
	 */
	static String summary(List<Found> found) {
		return found.stream().map(Found::summary).collect(Collectors.joining(", "));
	}

	/** What is wrong with a name. */
	enum Kind {

		/** Renamed or removed: the value would be lost, so it fails startup even when not strict. */
		RENAMED,

		/** Not a name of the recorder nor of any configuration metadata on the class path, typically a typo. */
		UNKNOWN

	}

	/**
	 * A name that is set and that the recorder does not bind.
	 * @param name the name, in its canonical form (e.g. {@code kubeevents.queue.capasity})
	 * @param value the value set
	 * @param origin where it is set, when known (e.g. {@code class path resource [application.yaml] - 3:9})
	 * @param kind whether it is renamed or unknown
	 * @param suggestion the replacement of a renamed name; the valid name nearest to an unknown one, or {@code null}
	 * when no metadata is on the class path
	 * @param reason why a renamed name changed, in a few words; {@code null} for an unknown name
	 */
	record Found(String name, @Nullable Object value, @Nullable String origin, Kind kind, @Nullable String suggestion,
			@Nullable String reason) {

		static Found renamed(String name, @Nullable Object value, @Nullable String origin, String replacement,
				String reason) {
			return new Found(name, value, origin, Kind.RENAMED, replacement, reason);
		}

		static Found unknown(String name, @Nullable Object value, @Nullable String origin, @Nullable String nearest) {
			return new Found(name, value, origin, Kind.UNKNOWN, nearest, null);
		}

		private String summary() {
			if (this.suggestion == null) {
				return this.name;
			}
			return this.name + ((this.kind == Kind.RENAMED) ? " (use " + this.suggestion + ")"
					: " (did you mean " + this.suggestion + "?)");
		}

	}

}
