package io.github.kubeevents.autoconfigure.endpoint;

import java.time.Duration;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.autoconfigure.InvalidKubeEventsPropertyException;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.endpoint.KubeEventsEndpoint;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the
 * {@link KubeEventsEndpoint}. Needs Spring Boot Actuator on the classpath, the endpoint to be available
 * ({@code management.endpoints.web.exposure.include=kubeevents}, access not {@code none}), and the recorder
 * beans of {@link KubeEventsAutoConfiguration}.
 */
@AutoConfiguration(after = KubeEventsAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnAvailableEndpoint(KubeEventsEndpoint.class)
@EnableConfigurationProperties(KubeEventsEndpointProperties.class)
public final class KubeEventsEndpointAutoConfiguration {

	private static final String TIME_TO_LIVE = "management.endpoint.kubeevents.cache.time-to-live";

	@Bean
	@ConditionalOnBean({ EventBroadcaster.class, KubeEventsStatus.class, EventSource.class })
	@ConditionalOnMissingBean
	KubeEventsEndpoint kubeEventsEndpoint(EventBroadcaster broadcaster, KubeEventsStatus status, EventSource source,
			KubeEventsEndpointProperties properties, Environment environment) {
		requireValidTimeToLive(environment);
		return new KubeEventsEndpoint(broadcaster, status, source, properties.defaultLimit(),
				properties.showValues(), properties.roles());
	}

	/**
	 * Fails on a negative {@code management.endpoint.kubeevents.cache.time-to-live}, which Spring Boot binds for
	 * every endpoint and silently treats as "no caching".
	 */
	private static void requireValidTimeToLive(Environment environment) {
		Binder.get(environment).bind(TIME_TO_LIVE, Duration.class).ifBound((timeToLive) -> {
			if (timeToLive.isNegative()) {
				throw new InvalidKubeEventsPropertyException(TIME_TO_LIVE, timeToLive, "must be zero or positive");
			}
		});
	}

}
