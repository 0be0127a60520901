package io.github.kubeevents.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports renamed or removed {@code kubeevents.*} properties with Spring Boot's "Description / Action" block: each
 * name found, where it is set, and the name to use instead.
 */
final class RemovedKubeEventsPropertiesFailureAnalyzer
		extends AbstractFailureAnalyzer<RemovedKubeEventsPropertiesException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RemovedKubeEventsPropertiesException cause) {
		StringBuilder description = new StringBuilder(
				"The Kubernetes event recorder's configuration sets properties that were renamed or removed:\n");
		StringBuilder action = new StringBuilder("Update your application's configuration:\n");
		for (RemovedKubeEventsPropertiesException.Found found : cause.found()) {
			RemovedKubeEventsProperties.Replacement replacement = found.replacement();
			description.append("\n\t- '").append(replacement.name()).append("'");
			if (found.origin() != null) {
				description.append(" (").append(found.origin()).append(")");
			}
			description.append(": ").append(replacement.reason());
			action.append("\n\t- replace '")
				.append(replacement.name())
				.append("' with '")
				.append(replacement.replacement())
				.append("'");
		}
		return new FailureAnalysis(description.toString(), action.toString(), cause);
	}

}
