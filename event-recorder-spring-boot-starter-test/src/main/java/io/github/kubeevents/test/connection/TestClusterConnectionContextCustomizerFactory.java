package io.github.kubeevents.test.connection;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.github.kubeevents.test.cluster.TestClusterBackend;
import io.github.kubeevents.test.cluster.TestClusterExtension;
import io.github.kubeevents.test.cluster.TestNamespace;
import io.github.kubeevents.test.cluster.WithTestCluster;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Registers a {@link TestClusterConnectionDetails} bean for test classes annotated with
 * {@link KubeEventsTestCluster}, and with {@link KubeEventsTestCluster#namespacePerClass()} the class's
 * {@link TestNamespace}: created on the shared cluster when the context is created, its name in the environment
 * ({@value KubeEventsTestCluster#NAMESPACE_PROPERTY}), deleted when the context is destroyed (after the recorder has
 * stopped). Registered in {@code META-INF/spring.factories}.
 *
 * <p>Stateless and thread-safe.
 */
class TestClusterConnectionContextCustomizerFactory implements ContextCustomizerFactory {

	/** The name of the registered bean. */
	static final String BEAN_NAME = "kubeEventsTestClusterConnectionDetails";

	/** The name of the namespace's bean. */
	static final String NAMESPACE_BEAN_NAME = "kubeEventsTestNamespace";

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
			if (with.namespacePerClass() && annotation.namespacePerClass()) {
				throw new IllegalStateException(testClass.getName() + " asks for a namespace of its own twice:"
						+ " @KubeEventsTestCluster(namespacePerClass = true) gives the application one (property "
						+ KubeEventsTestCluster.NAMESPACE_PROPERTY + ", a TestNamespace bean, a context of the class's"
						+ " own), @WithTestCluster(namespacePerClass = true) gives the test one as a parameter (the"
						+ " context stays shared). Keep one of them");
			}
			backend = with.backend();
		}
		return new Customizer(backend, annotation.identity(), annotation.namespacePerClass() ? testClass : null);
	}

	/**
	 * Registers the beans; equal for the same backend and identity (so such test classes share a cached context),
	 * and for a class with a namespace of its own only to itself.
	 */
	static final class Customizer implements ContextCustomizer {

		private final TestClusterBackend backend;

		private final Identity identity;

		/** The class that gets a namespace of its own, else {@code null}. */
		private final @Nullable Class<?> namespaceFor;

		Customizer(TestClusterBackend backend, Identity identity, @Nullable Class<?> namespaceFor) {
			this.backend = backend;
			this.identity = identity;
			this.namespaceFor = namespaceFor;
		}

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
			if (!(context.getBeanFactory() instanceof BeanDefinitionRegistry registry)) {
				throw new IllegalStateException(
						"@KubeEventsTestCluster needs a BeanDefinitionRegistry, not " + context.getBeanFactory());
			}
			TestClusterBackend backend = this.backend;
			Identity identity = this.identity;
			if (this.namespaceFor != null) {
				// created now, so that it exists before any bean of the application uses its name
				TestNamespace namespace = TestNamespace.create(TestClusterExtension.sharedCluster(backend),
						this.namespaceFor.getSimpleName());
				context.getEnvironment()
					.getPropertySources()
					.addFirst(new MapPropertySource(NAMESPACE_BEAN_NAME,
							Map.of(KubeEventsTestCluster.NAMESPACE_PROPERTY, namespace.name())));
				// registered first, so created first and destroyed last: after the recorder wrote what it held
				RootBeanDefinition namespaceDefinition = new RootBeanDefinition(TestNamespace.class, () -> namespace);
				namespaceDefinition.setDestroyMethodName("close");
				registry.registerBeanDefinition(NAMESPACE_BEAN_NAME, namespaceDefinition);
			}
			RootBeanDefinition definition = new RootBeanDefinition(TestClusterConnectionDetails.class,
					() -> new TestClusterConnectionDetails(TestClusterExtension.sharedCluster(backend), identity));
			registry.registerBeanDefinition(BEAN_NAME, definition);
		}

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof Customizer that && this.backend == that.backend && this.identity == that.identity
					&& this.namespaceFor == that.namespaceFor;
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.backend, this.identity, this.namespaceFor);
		}

		@Override
		public String toString() {
			return "KubeEventsTestCluster(backend=" + this.backend + ", identity=" + this.identity
					+ ((this.namespaceFor != null) ? ", namespace of " + this.namespaceFor.getName() : "") + ")";
		}

	}

}
