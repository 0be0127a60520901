package io.github.kubeevents.test.cluster;

import org.testcontainers.DockerClientFactory;

/**
 * What {@link BackendSelector} needs to know about this machine, answered for real: the system property
 * {@value TestClusterBackend#SYSTEM_PROPERTY}, where {@link EnvtestAssets} finds the local binaries, whether
 * Testcontainers K3s is on the classpath (checked by class name, so Testcontainers stays optional), and whether a
 * Docker engine answers (asked once per JVM, then remembered). Thread-safe.
 */
final class MachineEnvironment implements BackendSelector.Environment {

	/** The one instance. */
	static final MachineEnvironment INSTANCE = new MachineEnvironment();

	private static final String TESTCONTAINERS_K3S_CLASS = "org.testcontainers.k3s.K3sContainer";

	private volatile Boolean dockerAvailable;

	private MachineEnvironment() {
	}

	@Override
	public String systemProperty() {
		return System.getProperty(TestClusterBackend.SYSTEM_PROPERTY);
	}

	@Override
	public EnvtestAssets.Result localAssets() {
		return EnvtestAssets.locate();
	}

	@Override
	public boolean testcontainersPresent() {
		return isPresent(TESTCONTAINERS_K3S_CLASS);
	}

	@Override
	public boolean dockerAvailable() {
		Boolean available = this.dockerAvailable;
		if (available == null) {
			available = isDockerAvailable();
			this.dockerAvailable = available;
		}
		return available;
	}

	/** Asks Testcontainers (only called once it was found on the classpath); {@code false} when the check fails. */
	private static boolean isDockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (Throwable ex) {
			return false;
		}
	}

	private static boolean isPresent(String className) {
		try {
			Class.forName(className, false, MachineEnvironment.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

}
