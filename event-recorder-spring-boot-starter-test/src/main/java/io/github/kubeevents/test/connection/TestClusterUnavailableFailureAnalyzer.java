package io.github.kubeevents.test.connection;

import io.github.kubeevents.test.cluster.TestClusterUnavailableException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an application that could not start its test cluster ({@link TestClusterDevConfiguration}, e.g. in
 * {@code spring-boot:test-run} on a machine without the local binaries and without Docker) with Spring Boot's
 * "Description / Action" block: the exception's own two parts, instead of a stack trace through the bean factory.
 * Registered in {@code META-INF/spring.factories}.
 */
final class TestClusterUnavailableFailureAnalyzer extends AbstractFailureAnalyzer<TestClusterUnavailableException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, TestClusterUnavailableException cause) {
		return new FailureAnalysis(cause.description(), cause.action(), cause);
	}

}
