package io.github.kubeevents.test.connection;

import java.nio.file.Path;
import java.util.Optional;

import io.github.kubeevents.test.cluster.EnvtestAssets;
import io.github.kubeevents.test.cluster.K3sTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.github.kubeevents.test.cluster.TestClusterBackend;
import org.testcontainers.DockerClientFactory;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * A real Kubernetes API server for local runs of an application, for Spring Boot's dev-time pattern: a
 * {@code TestMyApplication} in {@code src/test/java} that runs
 * <pre>{@code
 * SpringApplication.from(MyApplication::main).with(TestClusterDevConfiguration.class).run(args);
 * }</pre>
 * ({@code ./mvnw spring-boot:test-run}). It starts a {@link KubernetesTestCluster} for the life of the application
 * context, connects the recorder to it with {@link TestClusterConnectionDetails} (admin identity), and, once the
 * application is ready, logs how to look at the Events it writes ({@link TestClusterInstructions}: {@code curl}
 * with the CA and the admin token, and {@code kubectl} with a kubeconfig). The cluster and those files are removed
 * when the context closes.
 *
 * <p>Which backend: {@code kubeevents.test.cluster} ({@code local}, {@code k3s} or {@code auto}; a system property
 * or any Spring property), else local binaries when {@link EnvtestAssets} finds kube-apiserver and etcd, else K3s
 * ({@link K3sTestCluster}) when {@code org.testcontainers:testcontainers-k3s} is on the classpath and a Docker
 * engine answers. With neither, startup fails with what to install. Unlike in tests, nothing is skipped.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestClusterDevConfiguration {

	private static final String K3S_CLASS = "org.testcontainers.k3s.K3sContainer";

	/** Creates the configuration; Spring does this. */
	public TestClusterDevConfiguration() {
	}

	@Bean(destroyMethod = "close")
	KubernetesTestCluster kubeEventsDevCluster(Environment environment) {
		String property = environment.getProperty(TestClusterBackend.SYSTEM_PROPERTY);
		return start(TestClusterBackend.parse(property));
	}

	@Bean
	TestClusterConnectionDetails kubeEventsDevClusterConnectionDetails(KubernetesTestCluster kubeEventsDevCluster) {
		return new TestClusterConnectionDetails(kubeEventsDevCluster);
	}

	@Bean
	TestClusterInstructions kubeEventsDevClusterInstructions(KubernetesTestCluster kubeEventsDevCluster) {
		return new TestClusterInstructions(kubeEventsDevCluster);
	}

	/**
	 * Starts a cluster of {@code backend}, or of the first available backend for {@link TestClusterBackend#AUTO}.
	 * @param backend the backend
	 * @return the running cluster; the caller closes it
	 * @throws IllegalStateException when the backend is not available (the message says what to install)
	 */
	static KubernetesTestCluster start(TestClusterBackend backend) {
		EnvtestAssets.Result assets = EnvtestAssets.locate();
		if (backend != TestClusterBackend.K3S) {
			Optional<Path> directory = assets.directory();
			if (directory.isPresent()) {
				return LocalControlPlane.builder().assetsDirectory(directory.get()).start();
			}
			if (backend == TestClusterBackend.LOCAL) {
				throw new IllegalStateException("No kube-apiserver and etcd for the local test cluster: "
						+ assets.reason() + ". " + LOCAL_HOW);
			}
		}
		String k3sMissing = k3sMissing();
		if (k3sMissing == null) {
			return K3s.start();
		}
		if (backend == TestClusterBackend.K3S) {
			throw new IllegalStateException("No K3s test cluster: " + k3sMissing + ". " + K3S_HOW);
		}
		throw new IllegalStateException("No Kubernetes test cluster for this run. Local binaries: " + assets.reason()
				+ "; " + LOCAL_HOW + " K3s: " + k3sMissing + "; " + K3S_HOW);
	}

	private static final String LOCAL_HOW = "Set KUBEBUILDER_ASSETS to a directory holding both (e.g. from"
			+ " setup-envtest, or kube-events' scripts/envtest-assets.sh, which builds them with Go).";

	private static final String K3S_HOW = "Add org.testcontainers:testcontainers-k3s to the test classpath and run a"
			+ " Docker engine that can start privileged containers.";

	private static String k3sMissing() {
		if (!ClassUtils.isPresent(K3S_CLASS, TestClusterDevConfiguration.class.getClassLoader())) {
			return "org.testcontainers:testcontainers-k3s is not on the classpath";
		}
		return K3s.dockerAvailable() ? null : "no Docker engine answers";
	}

	/** Links Testcontainers only after it was found on the classpath. */
	private static final class K3s {

		static boolean dockerAvailable() {
			try {
				return DockerClientFactory.instance().isDockerAvailable();
			}
			catch (Throwable ex) {
				return false;
			}
		}

		static KubernetesTestCluster start() {
			return K3sTestCluster.builder().start();
		}

	}

}
