package io.github.kubeevents.test.cluster;

import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;

/**
 * What {@link BackendSelector} needs to know about this machine, answered for real: the system property
 * {@value TestClusterBackend#SYSTEM_PROPERTY}, where {@link EnvtestAssets} finds the local binaries, whether
 * Testcontainers K3s is on the classpath (checked by class name, so Testcontainers stays optional), and whether a
 * Docker engine answers (asked once per JVM, then remembered). A machine with nothing that could lead to Docker
 * ({@link DockerHints}) gets one INFO line and is not asked through Testcontainers, which would log several ERROR
 * lines; wherever Docker might be, Testcontainers decides, so the answer is the one
 * {@code @Testcontainers(disabledWithoutDocker = true)} gets. Thread-safe.
 */
final class MachineEnvironment implements BackendSelector.Environment {

	/** The one instance. */
	static final MachineEnvironment INSTANCE = new MachineEnvironment(DockerHints.machine(),
			MachineEnvironment::isDockerAvailable);

	private static final Logger logger = LoggerFactory.getLogger(MachineEnvironment.class);

	private static final String TESTCONTAINERS_K3S_CLASS = "org.testcontainers.k3s.K3sContainer";

	private final DockerHints dockerHints;

	private final BooleanSupplier testcontainers;

	private volatile Boolean dockerAvailable;

	/**
	 * An environment.
	 * @param dockerHints what could lead to a Docker engine
	 * @param testcontainers asks Testcontainers whether a Docker engine answers
	 */
	MachineEnvironment(DockerHints dockerHints, BooleanSupplier testcontainers) {
		this.dockerHints = dockerHints;
		this.testcontainers = testcontainers;
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
			synchronized (this) {
				available = this.dockerAvailable;
				if (available == null) {
					available = askDocker();
					this.dockerAvailable = available;
				}
			}
		}
		return available;
	}

	private boolean askDocker() {
		String hint = this.dockerHints.first();
		if (hint == null) {
			logger.info("No Docker engine on this machine (no DOCKER_HOST, no Testcontainers or Docker configuration,"
					+ " no Docker socket): the K3s test cluster backend is unavailable");
			return false;
		}
		return this.testcontainers.getAsBoolean();
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
