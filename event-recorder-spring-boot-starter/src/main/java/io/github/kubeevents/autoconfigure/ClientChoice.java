package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.status.SinkTarget;
import io.github.kubeevents.status.SinkClient;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Which client events are written through ({@code kubeevents.sink.client}), and why: the application's fabric8
 * {@code KubernetesClient} bean ({@link #fabric8()} not {@code null}) or the official client of the
 * {@link KubeEventsConnectionDetails}.
 * <ul>
 * <li>{@code official}: the official client.</li>
 * <li>{@code fabric8}: the {@code KubernetesClient} bean; without {@code event-recorder-fabric8} or without the
 * bean startup fails, naming the property.</li>
 * <li>{@code auto}: the {@code KubernetesClient} bean when there is one and the official client is not configured
 * by the application (an {@code ApiClient} bean, or {@code KubeEventsConnectionDetails} of its own); else the
 * official client.</li>
 * </ul>
 * The choice is of a client only: the bean is not a cluster, and either client writes only where the connection
 * details find one ({@link KubeEventsStatusResolver}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param fabric8 the target writing through the {@code KubernetesClient} bean, or {@code null} for the official
 * client
 * @param why why, e.g. {@code "kubeevents.sink.client=auto: a KubernetesClient bean and no official client configured"}
 */
record ClientChoice(SinkTarget.@Nullable OtherClient fabric8, String why) {

	ClientChoice {
		Objects.requireNonNull(why, "why");
	}

	/**
	 * Decides. Looks at the {@code KubernetesClient} bean only when the configured client may use it.
	 * @param configured {@code kubeevents.sink.client}
	 * @param fabric8 the application's {@code KubernetesClient} bean, or {@code null} without
	 * {@code event-recorder-fabric8} on the classpath
	 * @param connectionDetails the connection details of the official client
	 * @return the choice
	 * @throws InvalidKubeEventsPropertyException for {@code fabric8} without the module or the bean
	 */
	static ClientChoice decide(SinkClient configured, @Nullable Fabric8ClientBean fabric8,
			KubeEventsConnectionDetails connectionDetails) {
		String property = "kubeevents.sink.client=" + configured.tag();
		if (configured == SinkClient.OFFICIAL) {
			return new ClientChoice(null, property);
		}
		if (configured == SinkClient.FABRIC8) {
			if (fabric8 == null) {
				throw new InvalidKubeEventsPropertyException("kubeevents.sink.client", configured.tag(),
						"needs io.github.kubeevents:event-recorder-fabric8 and fabric8's kubernetes-client-api on the"
								+ " classpath");
			}
			SinkTarget.OtherClient target = fabric8.target();
			if (target == null) {
				throw new InvalidKubeEventsPropertyException("kubeevents.sink.client", configured.tag(),
						"needs a (single) fabric8 KubernetesClient bean");
			}
			return new ClientChoice(target, property);
		}
		SinkTarget.OtherClient target = (fabric8 != null) ? fabric8.target() : null;
		if (target == null) {
			return new ClientChoice(null, property + ": no fabric8 KubernetesClient bean");
		}
		if (officialConfigured(connectionDetails)) {
			return new ClientChoice(null, property + ": the official client is configured ("
					+ connectionDetails.description() + "), the KubernetesClient bean is not used");
		}
		return new ClientChoice(target, property + ": a KubernetesClient bean and no official client configured");
	}

	/** Whether the application configured the official client: an ApiClient bean or connection details of its own. */
	private static boolean officialConfigured(KubeEventsConnectionDetails connectionDetails) {
		return !(connectionDetails instanceof DetectedKubeEventsConnectionDetails detected)
				|| detected.hasApplicationClient();
	}

}
