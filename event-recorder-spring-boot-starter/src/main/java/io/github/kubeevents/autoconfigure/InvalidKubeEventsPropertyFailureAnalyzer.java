package io.github.kubeevents.autoconfigure;

import java.util.List;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports invalid {@code kubeevents.*} values with Spring Boot's "Description / Action" block: one invalid value in
 * one sentence, several in a list with one line per property; each names the property, where it is set when known,
 * the value and what a valid value is. Ordered before Boot's generic bind-failure analyzer.
 *
 * <p>Stateless, so thread-safe.
 */
final class InvalidKubeEventsPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidKubeEventsPropertyException>
		implements Ordered {

	private static final String DOCS = "Every kubeevents.* property and its default is listed in docs/configuration.md"
			+ " of kube-events.";

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidKubeEventsPropertyException cause) {
		List<InvalidKubeEventsPropertyException.Problem> problems = cause.problems();
		if (problems.size() == 1) {
			InvalidKubeEventsPropertyException.Problem problem = problems.get(0);
			String description = "Invalid value for the Kubernetes event recorder's property '" + problem.property()
					+ "'" + origin(problem) + ": " + problem.quotedValue() + " (" + problem.requirement() + ").";
			String action = "Update '" + problem.property() + "' in your application's configuration, or remove it to"
					+ " use the default. " + DOCS;
			return new FailureAnalysis(description, action, cause);
		}
		StringBuilder description = new StringBuilder(
				"Invalid values for the Kubernetes event recorder's properties:\n");
		for (InvalidKubeEventsPropertyException.Problem problem : problems) {
			description.append("\n\t- '")
				.append(problem.property())
				.append("'")
				.append(origin(problem))
				.append(": ")
				.append(problem.quotedValue())
				.append(" (")
				.append(problem.requirement())
				.append(")");
		}
		String action = "Update these properties in your application's configuration, or remove them to use the"
				+ " defaults. " + DOCS;
		return new FailureAnalysis(description.toString(), action, cause);
	}

	private static String origin(InvalidKubeEventsPropertyException.Problem problem) {
		return (problem.origin() != null) ? " (" + problem.origin() + ")" : "";
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
