package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.status.SinkClient;
import io.github.kubeevents.status.SinkTarget;
import java.util.Objects;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Which client events are written through, and why: the single {@link EventsClient} bean. The client
 * configurations contribute one under {@code kubeevents.sink.client} ({@link SinkClientCondition}); an
 * {@code EventsClient} bean of the application replaces them, whatever the property says.
 * <ul>
 * <li>{@code official}: the official client of the {@link KubeEventsConnectionDetails}
 * ({@link ConnectionDetailsEventsClient}).</li>
 * <li>{@code fabric8}: the {@code KubernetesClient} bean; without {@code event-recorder-fabric8} or without the
 * bean startup fails, naming the property.</li>
 * <li>{@code auto}: the {@code KubernetesClient} bean when there is one and the official client is not configured
 * by the application (an {@code ApiClient} bean, or {@code KubeEventsConnectionDetails} of its own); else the
 * official client.</li>
 * </ul>
 * The choice is of a client only: no client is a cluster, and every client writes only where the connection
 * details find one ({@link KubeEventsStatusResolver}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param other the target writing through a client other than the official one of the connection details (the
 * fabric8 one, the application's), or {@code null} for that official client
 * @param official the official client bean, or {@code null} for the connection details' own client (without the
 * bean, which only {@code kubeevents.sink.client=fabric8} leaves out) or another client
 * @param why why, e.g. {@code "kubeevents.sink.client=auto: a KubernetesClient bean and no official client configured"}
 */
record ClientChoice(SinkTarget.@Nullable OtherClient other, @Nullable ConnectionDetailsEventsClient official,
		String why) {

	/** {@link SinkTarget#clientName()} of an {@code EventsClient} bean of the application. */
	static final String APPLICATION = "application";

	ClientChoice {
		Objects.requireNonNull(why, "why");
	}

	/**
	 * Decides.
	 * @param configured {@code kubeevents.sink.client}
	 * @param bean the single {@code EventsClient} bean, or {@code null} when there is none
	 * @param fabric8Bean whether {@code bean} is the one of {@link KubeEventsFabric8Configuration}
	 * @param fabric8OnClasspath whether {@code event-recorder-fabric8} and fabric8's {@code kubernetes-client-api}
	 * are on the classpath
	 * @param kubernetesClientBean whether the application has a (single) fabric8 {@code KubernetesClient} bean;
	 * asked only with fabric8 on the classpath, to say why the official client was chosen
	 * @param connectionDetails the connection details of the official client
	 * @return the choice
	 * @throws InvalidKubeEventsPropertyException for {@code fabric8} without the module or the bean
	 */
	static ClientChoice decide(SinkClient configured, @Nullable EventsClient bean, boolean fabric8Bean,
			boolean fabric8OnClasspath, BooleanSupplier kubernetesClientBean,
			KubeEventsConnectionDetails connectionDetails) {
		String property = "kubeevents.sink.client=" + configured.tag();
		if (bean == null) {
			if (configured == SinkClient.FABRIC8) {
				throw new InvalidKubeEventsPropertyException("kubeevents.sink.client", configured.tag(),
						fabric8OnClasspath ? "needs a (single) fabric8 KubernetesClient bean"
								: "needs io.github.kubeevents:event-recorder-fabric8 and fabric8's kubernetes-client-api"
										+ " on the classpath");
			}
			return new ClientChoice(null, null, property);
		}
		if (bean instanceof ConnectionDetailsEventsClient official) {
			if (configured != SinkClient.AUTO) {
				return new ClientChoice(null, official, property);
			}
			if (fabric8OnClasspath && kubernetesClientBean.getAsBoolean() && officialConfigured(connectionDetails)) {
				return new ClientChoice(null, official, property + ": the official client is configured ("
						+ connectionDetails.description() + "), the KubernetesClient bean is not used");
			}
			return new ClientChoice(null, official, property + ": no fabric8 KubernetesClient bean");
		}
		if (fabric8Bean) {
			SinkTarget.OtherClient target = KubeEventsFabric8Configuration.target(bean, "KubernetesClient bean");
			return new ClientChoice(target, null, (configured == SinkClient.FABRIC8) ? property
					: property + ": a KubernetesClient bean and no official client configured");
		}
		String why = "an EventsClient bean of the application (" + bean.getClass().getName() + ")"
				+ ((configured != SinkClient.AUTO) ? ", " + property + " is not used" : "");
		SinkTarget.OtherClient target = bean.getClass().getName().equals(KubeEventsFabric8Configuration.EVENTS_CLIENT)
				? KubeEventsFabric8Configuration.target(bean, "Fabric8EventsClient bean")
				: new SinkTarget.OtherClient(bean, APPLICATION, null, "EventsClient bean");
		return new ClientChoice(target, null, why);
	}

	/**
	 * The note when the client's connection details find no cluster.
	 * @return e.g. {@code "a fabric8 KubernetesClient bean is a client, not a cluster (it points at https://...)"}
	 * @throws IllegalStateException for the official client
	 */
	String notACluster() {
		if (this.other == null) {
			throw new IllegalStateException("the official client writes where its connection details find a cluster");
		}
		String what = this.other.clientName().equals(SinkClient.FABRIC8.tag())
				? "a fabric8 " + this.other.description() : "an " + this.other.description() + " of the application";
		return what + " is a client, not a cluster"
				+ ((this.other.apiServer() != null) ? " (it points at " + this.other.apiServer() + ")" : "");
	}

	/** Whether the application configured the official client: an ApiClient bean or connection details of its own. */
	private static boolean officialConfigured(KubeEventsConnectionDetails connectionDetails) {
		return !(connectionDetails instanceof DetectedKubeEventsConnectionDetails detected)
				|| detected.hasApplicationClient();
	}

}
