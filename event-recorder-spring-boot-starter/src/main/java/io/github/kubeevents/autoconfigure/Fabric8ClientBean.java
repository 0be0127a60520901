package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.status.SinkTarget;
import org.jspecify.annotations.Nullable;

/**
 * The application's fabric8 {@code KubernetesClient} bean as a sink target, looked up when the status is resolved
 * (declared by {@link KubeEventsFabric8Configuration}, so this type names no fabric8 class).
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
interface Fabric8ClientBean {

	/**
	 * The target writing through the bean.
	 * @return the target, or {@code null} when the application has no (unique) {@code KubernetesClient} bean
	 */
	SinkTarget.@Nullable OtherClient target();

}
