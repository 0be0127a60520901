package io.github.kubeevents.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports unknown {@code kubeevents.*} names with Spring Boot's "Description / Action" block: each name found, where
 * it is set, and the nearest valid name.
 */
final class UnknownKubeEventsPropertiesFailureAnalyzer
		extends AbstractFailureAnalyzer<UnknownKubeEventsPropertiesException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnknownKubeEventsPropertiesException cause) {
		StringBuilder description = new StringBuilder(
				"The Kubernetes event recorder's configuration sets properties that do not exist:\n");
		StringBuilder action = new StringBuilder("Update your application's configuration:\n");
		for (UnknownKubeEventsPropertiesException.Found found : cause.found()) {
			description.append("\n\t- '").append(found.name()).append("'");
			if (found.origin() != null) {
				description.append(" (").append(found.origin()).append(")");
			}
			action.append("\n\t- ");
			if (found.nearest() != null) {
				action.append("replace '").append(found.name()).append("' with '").append(found.nearest())
					.append("' (the nearest valid name), or remove it");
			}
			else {
				action.append("remove '").append(found.name()).append("'");
			}
		}
		action.append("\n\nEvery kubeevents.* property and its default is listed in docs/configuration.md of kube-events. To start"
				+ " anyway, with a warning, set " + UnknownKubeEventsProperties.STRICT_PROPERTY + "=false.");
		return new FailureAnalysis(description.toString(), action.toString(), cause);
	}

}
