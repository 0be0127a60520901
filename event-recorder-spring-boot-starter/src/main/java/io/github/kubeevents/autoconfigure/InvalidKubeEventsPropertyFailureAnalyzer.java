package io.github.kubeevents.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports an invalid {@code kubeevents.*} value with Spring Boot's "Description / Action" block, naming the
 * property, the value and what a valid value is. Ordered before Boot's generic bind-failure analyzer.
 */
final class InvalidKubeEventsPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidKubeEventsPropertyException>
		implements Ordered {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidKubeEventsPropertyException cause) {
		String description = "Invalid value for the Kubernetes event recorder's property '" + cause.property() + "': "
				+ ((cause.value() != null) ? "'" + cause.value() + "'" : "not set") + " (" + cause.requirement() + ").";
		String action = "Update '" + cause.property() + "' in your application's configuration, or remove it to use"
				+ " the default. Every kubeevents.* property and its default is listed in docs/configuration.md of kube-events.";
		return new FailureAnalysis(description, action, cause);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
