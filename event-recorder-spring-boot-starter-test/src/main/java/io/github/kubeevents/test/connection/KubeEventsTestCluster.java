package io.github.kubeevents.test.connection;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.TestClusterExtension;
import io.github.kubeevents.test.cluster.TestNamespace;
import io.github.kubeevents.test.cluster.WithTestCluster;

/**
 * Gives a {@code @SpringBootTest} class a real Kubernetes API server and connects the application's recorder to
 * it: the class gets the shared {@link KubernetesTestCluster} of {@link WithTestCluster} (local binaries, else K3s
 * where Docker answers, else the class is skipped; see {@link TestClusterExtension}), and the application context a
 * {@link TestClusterConnectionDetails} bean for it, which the starter prefers over an {@code ApiClient} bean and
 * its own detection. This is the local-binaries counterpart of
 * {@code @Container @ServiceConnection static K3sContainer k3s}.
 * <pre>{@code
 * @SpringBootTest
 * @KubeEventsTestCluster
 * class WidgetServiceIT {
 *     @Autowired WidgetService widgets;
 *
 *     @Test
 *     void writesTheEvent(KubernetesTestCluster cluster) {
 *         widgets.create("w-1");
 *         CoreV1Api api = new CoreV1Api(cluster.adminClient());
 *         await().untilAsserted(() -> assertThat(api.listNamespacedEvent("default").execute().getItems())
 *             .anySatisfy((e) -> assertThat(e.getReason()).isEqualTo("Created")));
 *     }
 * }
 * }</pre>
 *
 * <p><b>A namespace per test class.</b> Classes share the cluster, and so namespace {@code default}. With
 * {@link #namespacePerClass()} the class gets a {@link TestNamespace} of its own, which the application knows: its
 * name is the property {@value #NAMESPACE_PROPERTY} of the application's environment, and the namespace is a bean
 * ({@code @Autowired TestNamespace}). Such a class gets an application context of its own, closed after the class
 * (the recorder writes what it holds), and then the namespace is deleted:
 * <pre>{@code
 * @SpringBootTest(properties = "widgets.namespace=${kubeevents.test.namespace}")
 * @KubeEventsTestCluster(namespacePerClass = true)
 * class WidgetControllerIT {
 *     @Autowired TestNamespace namespace;
 *     ...
 *         assertThat(ClusterEvents.read(cluster, this.namespace.name()).about("Widget", this.namespace.name(), "w-1"))
 * }
 * }</pre>
 * When only the test needs the namespace (it passes it to the code under test, e.g. in the objects it creates),
 * {@code @WithTestCluster(namespacePerClass = true)} next to this annotation gives the test a {@code TestNamespace}
 * parameter instead, and the application context stays shared with the other classes of the same configuration.
 *
 * <p>Meta-annotated with {@link WithTestCluster} (default settings); a {@code @WithTestCluster} on the class may
 * pick the backend and ask for a namespace, but not {@code isolated} or {@code eventTtl}: those give the class a
 * cluster of its own, which the Spring test context (created and cached apart from the JUnit extension) cannot
 * reach, so they fail the context with an explanation (as does asking for a namespace on both annotations). Contexts
 * are cached per backend and identity, and per class with {@link #namespacePerClass()}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@WithTestCluster
public @interface KubeEventsTestCluster {

	/** The property holding the name of the class's namespace, with {@link #namespacePerClass()}. */
	String NAMESPACE_PROPERTY = "kubeevents.test.namespace";

	/**
	 * The identity the recorder writes as.
	 * @return {@link Identity#ADMIN} by default; {@link Identity#RESTRICTED} makes every Event write answer 403
	 */
	Identity identity() default Identity.ADMIN;

	/**
	 * Whether the class gets a namespace of its own on the cluster, known to the application (property
	 * {@value #NAMESPACE_PROPERTY}, a {@link TestNamespace} bean), with an application context of its own that is
	 * closed after the class; the namespace is deleted then.
	 * @return {@code false} by default
	 */
	boolean namespacePerClass() default false;

}
