package io.github.kubeevents.test.cluster;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class a real Kubernetes API server through {@link TestClusterExtension}: declare a
 * {@link KubernetesTestCluster} parameter (constructor, {@code @BeforeAll}, {@code @BeforeEach} or test method).
 *
 * <pre>{@code
 * @WithTestCluster
 * class MyControllerIT {
 *     @Test
 *     void writesAnEvent(KubernetesTestCluster cluster) throws ApiException {
 *         CoreV1Api api = new CoreV1Api(cluster.adminClient());
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>With the defaults (any backend, default TTL, not isolated) all such classes of a test JVM share one cluster per
 * backend, started on first use and stopped at the end of the run. Any other setting of {@link #eventTtl()} or
 * {@link #isolated()} gives the class its own cluster, started before its first test and closed after its last.
 * {@link #namespacePerClass()} gives it a namespace of its own on its cluster.
 *
 * <p>Found on the test class, its superclasses (it is {@link Inherited}) and, for {@code @Nested} classes, the
 * enclosing classes; the nearest wins. See {@link TestClusterExtension} for how the backend is picked and what
 * happens when none is available.
 */
@Target({ ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(TestClusterExtension.class)
public @interface WithTestCluster {

	/**
	 * Which backend.
	 * @return {@link TestClusterBackend#AUTO} (the default: the system property
	 * {@value TestClusterBackend#SYSTEM_PROPERTY}, else local binaries, else K3s) or a fixed backend
	 */
	TestClusterBackend backend() default TestClusterBackend.AUTO;

	/**
	 * The API server's {@code --event-ttl}, e.g. {@code 5s}, {@code 500ms}, {@code 2m}, {@code 1h} or
	 * {@code PT5S}. A non-empty value gives the class its own cluster.
	 * @return the TTL; empty (the default) means 1 hour, on a shared cluster
	 */
	String eventTtl() default "";

	/**
	 * Whether the class gets its own cluster even with the default settings, e.g. because it stops or freezes the API
	 * server, which would disturb other classes.
	 * @return {@code false} by default
	 */
	boolean isolated() default false;

	/**
	 * Whether the class gets a namespace of its own ({@link TestNamespace}), so that its objects and their Events
	 * are apart from those of the other classes on the same cluster: created before the class's first test (on the
	 * class's cluster, shared or not), injected into parameters of type {@link TestNamespace} (constructor,
	 * {@code @BeforeAll}, {@code @BeforeEach}, test methods), and deleted after the class's last test. {@code @Nested}
	 * classes use their enclosing class's namespace.
	 * <pre>{@code
	 * @WithTestCluster(namespacePerClass = true)
	 * class WidgetControllerIT {
	 *     @Test
	 *     void reportsAFailedCreate(KubernetesTestCluster cluster, TestNamespace namespace) { ... namespace.name() ... }
	 * }
	 * }</pre>
	 * @return {@code false} by default (no namespace is created)
	 */
	boolean namespacePerClass() default false;

}
