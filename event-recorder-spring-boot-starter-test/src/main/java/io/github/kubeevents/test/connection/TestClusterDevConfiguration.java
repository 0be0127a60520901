package io.github.kubeevents.test.connection;

import java.time.Duration;
import java.util.Arrays;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.test.cluster.EnvtestAssets;
import io.github.kubeevents.test.cluster.K3sTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.github.kubeevents.test.cluster.TestClusterBackend;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
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
 * <p><b>The cluster outlives the recorder.</b> It is stopped when the context destroys it: after the recorder's
 * lifecycle stopped (its last writes, the final counts of series, are done) and after the {@link EventBroadcaster}
 * beans were shut down, which depend on it. On Ctrl-C (the JVM's shutdown), the local control plane's own shutdown
 * hook, which would otherwise kill etcd and kube-apiserver while Spring Boot's hook is still closing the context,
 * closes the context first and waits for it ({@link LocalControlPlane#bindToOwner}), up to
 * {@link #OWNER_CLOSE_TIMEOUT}; a JVM that exits without closing the context (no Spring Boot shutdown hook) thus
 * closes it there too.
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

	/**
	 * How long the local control plane's JVM shutdown hook waits for the context to close it: the recorder's stop
	 * ({@code kubeevents.shutdown-timeout}, 10 s) and the other shutdown phases
	 * ({@code spring.lifecycle.timeout-per-shutdown-phase}, 30 s each) fit.
	 */
	public static final Duration OWNER_CLOSE_TIMEOUT = Duration.ofMinutes(2);

	/** The name of the cluster's bean. */
	static final String CLUSTER_BEAN_NAME = "kubeEventsDevCluster";

	/** Creates the configuration; Spring does this. */
	public TestClusterDevConfiguration() {
	}

	@Bean(destroyMethod = "close")
	KubernetesTestCluster kubeEventsDevCluster(Environment environment, ApplicationContext context) {
		String property = environment.getProperty(TestClusterBackend.SYSTEM_PROPERTY);
		KubernetesTestCluster cluster = KubernetesTestCluster.start(TestClusterBackend.parse(property));
		if (cluster instanceof LocalControlPlane local && context instanceof ConfigurableApplicationContext owner) {
			// K3s has no shutdown hook of its own: Testcontainers removes the container after the JVM exited
			local.bindToOwner(owner::close, OWNER_CLOSE_TIMEOUT);
		}
		return cluster;
	}

	/**
	 * Makes every {@link EventBroadcaster} bean depend on the cluster, so that the context destroys the broadcaster
	 * (which writes what was recorded after the recorder's lifecycle stopped) before the cluster.
	 * @return the post-processor
	 */
	@Bean
	static BeanFactoryPostProcessor kubeEventsDevClusterOutlivesTheRecorder() {
		return (beanFactory) -> {
			for (String name : beanFactory.getBeanNamesForType(EventBroadcaster.class, true, false)) {
				if (beanFactory.containsBeanDefinition(name)) {
					BeanDefinition definition = beanFactory.getBeanDefinition(name);
					String[] dependsOn = definition.getDependsOn();
					String[] extended = (dependsOn != null) ? Arrays.copyOf(dependsOn, dependsOn.length + 1)
							: new String[1];
					extended[extended.length - 1] = CLUSTER_BEAN_NAME;
					definition.setDependsOn(extended);
				}
			}
		};
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
