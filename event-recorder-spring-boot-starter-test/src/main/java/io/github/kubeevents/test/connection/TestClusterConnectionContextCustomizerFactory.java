package io.github.kubeevents.test.connection;

import java.util.List;
import java.util.Objects;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.github.kubeevents.test.cluster.TestClusterBackend;
import io.github.kubeevents.test.cluster.TestClusterExtension;
import io.github.kubeevents.test.cluster.WithTestCluster;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Registers a {@link TestClusterConnectionDetails} bean for test classes annotated with
 * {@link KubeEventsTestCluster}. Registered in {@code META-INF/spring.factories}.
 *
 * <p>Stateless and thread-safe.
 */
class TestClusterConnectionContextCustomizerFactory implements ContextCustomizerFactory {

	/** The name of the registered bean. */
	static final String BEAN_NAME = "kubeEventsTestClusterConnectionDetails";

	TestClusterConnectionContextCustomizerFactory() {
	}

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		KubeEventsTestCluster annotation = TestContextAnnotationUtils.findMergedAnnotation(testClass,
				KubeEventsTestCluster.class);
		if (annotation == null) {
			return null;
		}
		WithTestCluster with = TestContextAnnotationUtils.findMergedAnnotation(testClass, WithTestCluster.class);
		TestClusterBackend backend = TestClusterBackend.AUTO;
		if (with != null) {
			if (with.isolated() || !with.eventTtl().isBlank()) {
				throw new IllegalStateException("@KubeEventsTestCluster on " + testClass.getName()
						+ " connects the application to the shared test cluster, but @WithTestCluster(isolated = "
						+ with.isolated() + ", eventTtl = \"" + with.eventTtl() + "\") gives the class a cluster of its"
						+ " own, which the Spring test context cannot reach. Drop those attributes, or declare a"
						+ " TestClusterConnectionDetails bean for the cluster yourself");
			}
			backend = with.backend();
		}
		return new Customizer(backend, annotation.identity());
	}

	/**
	 * Registers the bean; equal for the same backend and identity, so such test classes share a cached context.
	 */
	static final class Customizer implements ContextCustomizer {

		private final TestClusterBackend backend;

		private final Identity identity;

		Customizer(TestClusterBackend backend, Identity identity) {
			this.backend = backend;
			this.identity = identity;
		}

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
			if (!(context.getBeanFactory() instanceof BeanDefinitionRegistry registry)) {
				throw new IllegalStateException(
						"@KubeEventsTestCluster needs a BeanDefinitionRegistry, not " + context.getBeanFactory());
			}
			TestClusterBackend backend = this.backend;
			Identity identity = this.identity;
			RootBeanDefinition definition = new RootBeanDefinition(TestClusterConnectionDetails.class,
					() -> new TestClusterConnectionDetails(TestClusterExtension.sharedCluster(backend), identity));
			registry.registerBeanDefinition(BEAN_NAME, definition);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof Customizer that && this.backend == that.backend && this.identity == that.identity;
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.backend, this.identity);
		}

		@Override
		public String toString() {
			return "KubeEventsTestCluster(backend=" + this.backend + ", identity=" + this.identity + ")";
		}

	}

}
