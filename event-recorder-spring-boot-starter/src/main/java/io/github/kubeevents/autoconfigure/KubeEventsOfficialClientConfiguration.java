package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.sink.EventsClient;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The official client's side of {@code kubeevents.sink.client} ({@code auto} or {@code official}), imported by
 * {@link KubeEventsAutoConfiguration} after {@link KubeEventsFabric8Configuration}: the {@link EventsClient} over the
 * {@link KubeEventsConnectionDetails}, unless an {@code EventsClient} bean is already there (the application's own,
 * or the fabric8 one).
 */
@Configuration(proxyBeanMethods = false)
@Conditional(SinkClientCondition.Official.class)
class KubeEventsOfficialClientConfiguration {

	@Bean
	@ConditionalOnMissingBean(EventsClient.class)
	ConnectionDetailsEventsClient kubeEventsOfficialClient(KubeEventsConnectionDetails connectionDetails) {
		return new ConnectionDetailsEventsClient(connectionDetails);
	}

}
