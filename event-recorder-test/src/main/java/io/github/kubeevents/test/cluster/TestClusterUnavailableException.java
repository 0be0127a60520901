package io.github.kubeevents.test.cluster;

import java.util.Objects;

/**
 * No Kubernetes test cluster can run on this machine: neither the local binaries nor Testcontainers K3s with a Docker
 * engine (or not the backend that was asked for). Thrown by {@link KubernetesTestCluster#start(TestClusterBackend)}
 * and, under {@code CI=true} (where a missing cluster fails rather than skips the tests), by
 * {@link TestClusterExtension}.
 *
 * <p>The message is the whole report, in Spring Boot's failure-analysis shape: {@link #description()} (what is
 * missing and why), then {@link #action()} (what to install or set, with the command that builds the binaries on this
 * machine). It carries no stack trace: the cause is the machine, not the code that asked, so the report is all a
 * reader needs. Spring Boot applications that start a cluster ({@code TestClusterDevConfiguration} of
 * event-recorder-spring-boot-starter-test) report it as "APPLICATION FAILED TO START" with these two parts.
 *
 * <p>Immutable.
 */
public class TestClusterUnavailableException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String description;

	private final String action;

	/**
	 * An exception with both parts of the report.
	 * @param description what is missing and why, e.g. {@code No local control plane: KUBEBUILDER_ASSETS=/x lacks an
	 * executable etcd.}
	 * @param action what to do, one or more lines
	 */
	public TestClusterUnavailableException(String description, String action) {
		super(Objects.requireNonNull(description, "description") + System.lineSeparator() + "Action: "
				+ Objects.requireNonNull(action, "action"));
		this.description = description;
		this.action = action;
	}

	/**
	 * What is missing and why.
	 * @return one or more sentences
	 */
	public String description() {
		return this.description;
	}

	/**
	 * What to install or set to get a cluster.
	 * @return one or more lines
	 */
	public String action() {
		return this.action;
	}

	/**
	 * No stack trace: the report says it all.
	 * @return this exception, without filling in the stack trace
	 */
	@Override
	public synchronized Throwable fillInStackTrace() {
		return this;
	}

}
