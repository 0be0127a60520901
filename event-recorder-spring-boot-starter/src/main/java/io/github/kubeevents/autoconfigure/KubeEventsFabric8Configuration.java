package io.github.kubeevents.autoconfigure;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeevents.fabric8.Fabric8EventsClient;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.status.SinkClient;
import io.github.kubeevents.status.SinkTarget;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The fabric8 side of {@code kubeevents.sink.client}, imported by {@link KubeEventsAutoConfiguration} (before
 * {@link KubeEventsOfficialClientConfiguration}) and active only with {@code event-recorder-fabric8} and fabric8's
 * {@code kubernetes-client-api} on the classpath: the application's (single) {@link KubernetesClient} bean as the
 * {@link EventsClient} events are written through, for {@code fabric8}, and for {@code auto} when the application
 * did not configure the official client ({@link SinkClientCondition.Fabric8}); unless an {@code EventsClient} bean
 * is already there. An application without fabric8 never loads a fabric8 class.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = { KubeEventsFabric8Configuration.KUBERNETES_CLIENT, KubeEventsFabric8Configuration.EVENTS_CLIENT })
class KubeEventsFabric8Configuration {

	static final String KUBERNETES_CLIENT = "io.fabric8.kubernetes.client.KubernetesClient";

	static final String EVENTS_CLIENT = "io.github.kubeevents.fabric8.Fabric8EventsClient";

	/** The name of the bean, by which the status tells it from a {@code Fabric8EventsClient} of the application. */
	static final String BEAN_NAME = "kubeEventsFabric8Client";

	@Bean(BEAN_NAME)
	@ConditionalOnMissingBean(EventsClient.class)
	@ConditionalOnSingleCandidate(KubernetesClient.class)
	@Conditional(SinkClientCondition.Fabric8.class)
	Fabric8EventsClient kubeEventsFabric8Client(KubernetesClient kubernetesClient) {
		return Fabric8EventsClient.of(kubernetesClient);
	}

	/**
	 * A {@code Fabric8EventsClient} as a sink target; called only for a client of that class, so that the
	 * auto-configuration names no fabric8 class.
	 * @param client the client, a {@code Fabric8EventsClient}
	 * @param source where it comes from, e.g. {@code "KubernetesClient bean"}
	 * @return the target, naming the client's master URL
	 */
	static SinkTarget.OtherClient target(EventsClient client, String source) {
		Fabric8EventsClient fabric8 = (Fabric8EventsClient) client;
		return new SinkTarget.OtherClient(fabric8, SinkClient.FABRIC8.tag(),
				fabric8.client().getMasterUrl().toString(), source);
	}

}
