package io.github.kubeevents.autoconfigure;

import java.util.List;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports the {@code kubeevents.*} names that the recorder does not bind with Spring Boot's "Description / Action"
 * block: first the renamed ones, each with where it is set, why it changed and the name to use instead, then the
 * unknown ones, each with where it is set and the nearest valid name. The {@code kubeevents.strict-properties=false}
 * way out is offered only when unknown names are in the report, since renamed ones fail startup either way.
 *
 * <p>Stateless, so thread-safe.
 */
final class KubeEventsPropertyNamesFailureAnalyzer extends AbstractFailureAnalyzer<KubeEventsPropertyNamesException> {

	private static final String SUBJECT = "The Kubernetes event recorder's configuration sets properties";

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, KubeEventsPropertyNamesException cause) {
		List<KubeEventsPropertyNamesException.Found> renamed = cause.found()
			.stream()
			.filter((found) -> found.kind() == KubeEventsPropertyNamesException.Kind.RENAMED)
			.toList();
		List<KubeEventsPropertyNamesException.Found> unknown = cause.found()
			.stream()
			.filter((found) -> found.kind() == KubeEventsPropertyNamesException.Kind.UNKNOWN)
			.toList();
		StringBuilder description = new StringBuilder();
		StringBuilder action = new StringBuilder("Update your application's configuration:\n");
		if (!renamed.isEmpty()) {
			description.append(SUBJECT).append(" that were renamed or removed:\n");
			for (KubeEventsPropertyNamesException.Found found : renamed) {
				appendName(description, found).append(": ").append(found.reason());
				action.append("\n\t- replace '")
					.append(found.name())
					.append("' with '")
					.append(found.suggestion())
					.append("'");
			}
		}
		if (!unknown.isEmpty()) {
			description.append(renamed.isEmpty() ? SUBJECT : "\n\nIt also sets properties")
				.append(" that do not exist:\n");
			for (KubeEventsPropertyNamesException.Found found : unknown) {
				appendName(description, found);
				action.append("\n\t- ");
				if (found.suggestion() != null) {
					action.append("replace '")
						.append(found.name())
						.append("' with '")
						.append(found.suggestion())
						.append("' (the nearest valid name), or remove it");
				}
				else {
					action.append("remove '").append(found.name()).append("'");
				}
			}
			action.append("\n\nEvery kubeevents.* property and its default is listed in docs/configuration.md of"
					+ " kube-events. To start anyway, with a warning");
			if (!renamed.isEmpty()) {
				action.append(" for the names that do not exist (the renamed ones fail startup either way)");
			}
			action.append(", set " + KubeEventsPropertyNames.STRICT_PROPERTY + "=false.");
		}
		return new FailureAnalysis(description.toString(), action.toString(), cause);
	}

	private static StringBuilder appendName(StringBuilder description, KubeEventsPropertyNamesException.Found found) {
		description.append("\n\t- '").append(found.name()).append("'");
		if (found.origin() != null) {
			description.append(" (").append(found.origin()).append(")");
		}
		return description;
	}

}
