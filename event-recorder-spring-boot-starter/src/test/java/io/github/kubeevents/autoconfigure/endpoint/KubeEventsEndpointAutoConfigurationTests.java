package io.github.kubeevents.autoconfigure.endpoint;

import java.nio.file.Path;
import java.util.List;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.autoconfigure.InvalidKubeEventsPropertyException;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.endpoint.KubeEventsEndpoint;
import io.github.kubeevents.testsupport.TestClusters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeEventsEndpointAutoConfiguration}, in the manner of Spring Boot's
 * {@code QuartzEndpointAutoConfigurationTests}.
 */
class KubeEventsEndpointAutoConfigurationTests {

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeEventsAutoConfiguration.class, KubeEventsEndpointAutoConfiguration.class))
			.withPropertyValues(TestClusters.noClusterProperties(this.tmp));
	}

	private ApplicationContextRunner exposed() {
		return runner().withPropertyValues("management.endpoints.web.exposure.include=kubeevents");
	}

	@Test
	void endpointIsAutoConfigured() {
		exposed().run((context) -> assertThat(context).hasSingleBean(KubeEventsEndpoint.class)
			.hasSingleBean(KubeEventsEndpointProperties.class));
	}

	@Test
	void endpointIsAutoConfiguredWhenExposedOverJmx() {
		runner().withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=kubeevents")
			.run((context) -> assertThat(context).hasSingleBean(KubeEventsEndpoint.class));
	}

	@Test
	void endpointNotAutoConfiguredWhenNotExposed() {
		runner().run((context) -> assertThat(context).doesNotHaveBean(KubeEventsEndpoint.class));
	}

	@Test
	void endpointCanBeDisabled() {
		exposed().withPropertyValues("management.endpoint.kubeevents.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsEndpoint.class));
	}

	@Test
	void endpointBacksOffWhenUserProvidedEndpointIsPresent() {
		exposed().withUserConfiguration(CustomEndpointConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(KubeEventsEndpoint.class)
				.hasBean("customEndpoint")
				.doesNotHaveBean("kubeEventsEndpoint"));
	}

	@Test
	void endpointIsNotAutoConfiguredWhenTheRecorderIsDisabled() {
		exposed().withPropertyValues("kubeevents.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsEndpoint.class));
	}

	@Test
	void endpointIsNotAutoConfiguredWithoutActuatorAutoConfigure() {
		exposed().withClassLoader(new FilteredClassLoader(ConditionalOnAvailableEndpoint.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsEndpoint.class)
				.hasSingleBean(EventRecorder.class));
	}

	@Test
	void endpointIsNotAutoConfiguredWithoutActuator() {
		exposed().withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsEndpoint.class)
				.hasSingleBean(EventRecorder.class));
	}

	@Test
	void propertiesDefaultToHiddenValuesAndALimitOf100() {
		exposed().run((context) -> {
			KubeEventsEndpointProperties properties = context.getBean(KubeEventsEndpointProperties.class);
			assertThat(properties.showValues()).isEqualTo(Show.NEVER);
			assertThat(properties.roles()).isEmpty();
			assertThat(properties.defaultLimit()).isEqualTo(100);
		});
	}

	@Test
	void propertiesAreBoundUnderManagementEndpointKubeevents() {
		exposed().withPropertyValues("management.endpoint.kubeevents.show-values=when-authorized",
				"management.endpoint.kubeevents.roles=ops,admin", "management.endpoint.kubeevents.default-limit=7")
			.run((context) -> {
				KubeEventsEndpointProperties properties = context.getBean(KubeEventsEndpointProperties.class);
				assertThat(properties.showValues()).isEqualTo(Show.WHEN_AUTHORIZED);
				assertThat(properties.roles()).containsExactlyInAnyOrder("ops", "admin");
				assertThat(properties.defaultLimit()).isEqualTo(7);
			});
	}

	@Test
	void showValuesReachTheEndpoint() {
		exposed().withPropertyValues("management.endpoint.kubeevents.show-values=always")
			.run((context) -> assertThat(context.getBean(KubeEventsEndpoint.class))
				.hasFieldOrPropertyWithValue("showValues", Show.ALWAYS));
	}

	@Test
	void defaultLimitReachesTheEndpoint() {
		exposed().withPropertyValues("management.endpoint.kubeevents.default-limit=7")
			.run((context) -> assertThat(context.getBean(KubeEventsEndpoint.class))
				.hasFieldOrPropertyWithValue("defaultLimit", 7));
	}

	@Test
	void negativeDefaultLimitFailsStartupNamingTheProperty() {
		exposed().withPropertyValues("management.endpoint.kubeevents.default-limit=-1").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(TestClusters.cause(context.getStartupFailure(), InvalidKubeEventsPropertyException.class))
				.hasMessage("management.endpoint.kubeevents.default-limit must be zero or positive, was '-1'");
		});
	}

	@Test
	void negativeCacheTimeToLiveFailsStartupNamingTheProperty() {
		exposed().withPropertyValues("management.endpoint.kubeevents.cache.time-to-live=-1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(TestClusters.cause(context.getStartupFailure(), InvalidKubeEventsPropertyException.class))
				.hasMessage("management.endpoint.kubeevents.cache.time-to-live must be zero or positive, was 'PT-1S'");
		});
	}

	@Test
	void zeroAndPositiveCacheTimeToLiveStart() {
		for (String timeToLive : new String[] { "0s", "10s" }) {
			exposed().withPropertyValues("management.endpoint.kubeevents.cache.time-to-live=" + timeToLive)
				.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(KubeEventsEndpoint.class));
		}
	}

	@Test
	void describesTheRecorder() {
		exposed().withPropertyValues("kubeevents.sink.mode=log", "kubeevents.component=orders", "kubeevents.host=pod-1")
			.run((context) -> {
				KubeEventsEndpoint.KubeEventsDescriptor descriptor = context.getBean(KubeEventsEndpoint.class)
					.kubeEvents(SecurityContext.NONE, null);
				assertThat(descriptor.component()).isEqualTo("orders");
				assertThat(descriptor.host()).isEqualTo("pod-1");
				assertThat(descriptor.sink())
					.isEqualTo(new KubeEventsEndpoint.SinkDescriptor("log", "log", "kubeevents.sink.mode=log", null, true, null));
				assertThat(descriptor.recorder().running()).isTrue();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomEndpointConfiguration {

		@Bean
		KubeEventsEndpoint customEndpoint() {
			return new KubeEventsEndpoint(EventBroadcaster.builder().build(),
					KubeEventsStatus.discarding("custom"), EventSource.of("custom"),
					1, Show.NEVER, List.of());
		}

	}

}
