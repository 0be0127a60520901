package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.status.SinkTarget;
import io.github.kubeevents.status.SinkClient;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeevents.fabric8.Fabric8EventsClient;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The fabric8 side of {@code kubeevents.sink.client}, imported by {@link KubeEventsAutoConfiguration} and active
 * only with {@code event-recorder-fabric8} and fabric8's {@code kubernetes-client-api} on the classpath: the
 * application's {@link KubernetesClient} bean, if any, as a client the recorder can write through. An application
 * without fabric8 never loads a fabric8 class.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = { "io.fabric8.kubernetes.client.KubernetesClient",
		"io.github.kubeevents.fabric8.Fabric8EventsClient" })
class KubeEventsFabric8Configuration {

	@Bean
	@ConditionalOnMissingBean
	Fabric8ClientBean kubeEventsFabric8Client(ObjectProvider<KubernetesClient> kubernetesClient) {
		return () -> {
			KubernetesClient client = kubernetesClient.getIfUnique();
			return (client == null) ? null
					: new SinkTarget.OtherClient(Fabric8EventsClient.of(client), SinkClient.FABRIC8.tag(),
							client.getMasterUrl().toString(), "KubernetesClient bean");
		};
	}

}
