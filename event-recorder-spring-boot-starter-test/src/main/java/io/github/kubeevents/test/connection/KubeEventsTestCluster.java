package io.github.kubeevents.test.connection;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.github.kubeevents.test.cluster.TestClusterExtension;
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
 * <p>Meta-annotated with {@link WithTestCluster} (default settings); a {@code @WithTestCluster} on the class may
 * pick the backend, but not {@code isolated} or {@code eventTtl}: those give the class a cluster of its own, which
 * the Spring test context (created and cached apart from the JUnit extension) cannot reach, so they fail the
 * context with an explanation. Contexts are cached per backend and identity.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@WithTestCluster
public @interface KubeEventsTestCluster {

	/**
	 * The identity the recorder writes as.
	 * @return {@link Identity#ADMIN} by default; {@link Identity#RESTRICTED} makes every Event write answer 403
	 */
	Identity identity() default Identity.ADMIN;

}
