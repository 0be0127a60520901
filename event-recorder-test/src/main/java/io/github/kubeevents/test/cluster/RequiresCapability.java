package io.github.kubeevents.test.cluster;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;

/**
 * Declares what a test needs beyond the basics of every {@link KubernetesTestCluster}.
 *
 * <ul>
 *   <li>On a test class: {@link TestClusterBackend#AUTO} only picks a backend that can do all of it; a class whose
 *       backend is fixed (by {@link WithTestCluster#backend()} or the system property) and cannot is skipped, also
 *       under {@code CI=true} (it is not a missing cluster, the test does not apply).</li>
 *   <li>On a test method: the method is skipped when the class's backend cannot do it (e.g. a scenario inherited by a
 *       K3s subclass that needs the API server stopped).</li>
 * </ul>
 * Evaluated by {@link TestClusterExtension} (register it, e.g. with {@link WithTestCluster}).
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface RequiresCapability {

	/**
	 * The capabilities needed.
	 * @return all of them are needed
	 */
	Capability[] value();

}
