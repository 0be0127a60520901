package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.EventBroadcaster;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the
 * {@link KubeEventsMeterBinder}. Needs Micrometer on the classpath and a {@link MeterRegistry} bean (Spring Boot
 * binds every {@code MeterBinder} bean to it).
 */
@AutoConfiguration(after = KubeEventsAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, EventBroadcaster.class })
public final class KubeEventsMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	KubeEventsMeterBinder kubeEventsMeterBinder(EventBroadcaster broadcaster) {
		return new KubeEventsMeterBinder(broadcaster);
	}

}
