package io.github.kubeevents.autoconfigure.health;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.health.KubeEventsHealthIndicator;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the
 * {@link KubeEventsHealthIndicator}, shown as {@code kubeevents} in the health endpoint. Needs
 * {@code spring-boot-health} on the classpath; switched off with {@code management.health.kubeevents.enabled=false};
 * {@code management.health.kubeevents.failures-in-a-row} sets when it turns {@code DEGRADED}
 * ({@link KubeEventsHealthProperties}).
 */
@AutoConfiguration(after = KubeEventsAutoConfiguration.class,
		beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnEnabledHealthIndicator("kubeevents")
@EnableConfigurationProperties(KubeEventsHealthProperties.class)
public final class KubeEventsHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnBean({ EventBroadcaster.class, KubeEventsStatus.class })
	@ConditionalOnMissingBean(name = "kubeeventsHealthIndicator")
	KubeEventsHealthIndicator kubeeventsHealthIndicator(EventBroadcaster broadcaster, KubeEventsStatus status,
			KubeEventsHealthProperties properties) {
		return new KubeEventsHealthIndicator(broadcaster, status, properties.failuresInARow());
	}

}
