package io.github.kubeevents.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports {@code kubeevents.sink.mode=kubernetes} without a usable cluster with Spring Boot's "Description / Action"
 * block instead of a stack trace.
 */
final class NoKubernetesClusterFailureAnalyzer extends AbstractFailureAnalyzer<NoKubernetesClusterException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NoKubernetesClusterException cause) {
		String description = "The Kubernetes event recorder is configured to write to a cluster "
				+ "(kubeevents.sink.mode=kubernetes), but " + cause.getMessage() + ".\n\nLooked at: " + cause.searched();
		String action = """
				Do one of these:
				\t- run the application in a Kubernetes pod (the service account is used),
				\t- point $KUBECONFIG at a kubeconfig, or create ~/.kube/config,
				\t- define an ApiClient or KubeEventsConnectionDetails bean (e.g. @ServiceConnection on a K3sContainer),
				\t- or set kubeevents.sink.mode=auto (write only when a cluster is found, else log events) or kubeevents.sink.mode=log.""";
		return new FailureAnalysis(description, action, cause);
	}

}
