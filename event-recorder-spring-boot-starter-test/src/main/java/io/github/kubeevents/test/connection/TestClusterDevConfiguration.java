package io.github.kubeevents.test.connection;

import io.github.kubeevents.test.cluster.EnvtestAssets;
import io.github.kubeevents.test.cluster.K3sTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.TestClusterBackend;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

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
 * engine answers ({@link KubernetesTestCluster#start(TestClusterBackend)}). With neither, the application does not
 * start: Spring Boot reports "APPLICATION FAILED TO START" with what is missing and what to install (the command that
 * builds the binaries on this machine among it), without a stack trace. Unlike in tests, nothing is skipped.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestClusterDevConfiguration {

	/** Creates the configuration; Spring does this. */
	public TestClusterDevConfiguration() {
	}

	@Bean(destroyMethod = "close")
	KubernetesTestCluster kubeEventsDevCluster(Environment environment) {
		String property = environment.getProperty(TestClusterBackend.SYSTEM_PROPERTY);
		return KubernetesTestCluster.start(TestClusterBackend.parse(property));
	}

	@Bean
	TestClusterConnectionDetails kubeEventsDevClusterConnectionDetails(KubernetesTestCluster kubeEventsDevCluster) {
		return new TestClusterConnectionDetails(kubeEventsDevCluster);
	}

	@Bean
	TestClusterInstructions kubeEventsDevClusterInstructions(KubernetesTestCluster kubeEventsDevCluster) {
		return new TestClusterInstructions(kubeEventsDevCluster);
	}

}
