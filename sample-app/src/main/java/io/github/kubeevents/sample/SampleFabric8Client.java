package io.github.kubeevents.sample;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With {@code --kubeevents.sink.client=fabric8}, the sample has what a fabric8-based operator has: a
 * {@link KubernetesClient} bean (fabric8's own configuration: {@code $KUBECONFIG}, {@code ~/.kube/config} or the
 * in-cluster service account), which the starter then writes events through instead of the official client, where
 * it would write with the official client (in a pod, or with {@code --kubeevents.kubeconfig.enabled=true}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "kubeevents.sink.client", havingValue = "fabric8")
class SampleFabric8Client {

	@Bean
	KubernetesClient kubernetesClient() {
		return new KubernetesClientBuilder().build();
	}

}
