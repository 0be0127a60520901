package io.github.kubeevents.autoconfigure.health;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.health.KubeEventsHealthIndicator;
import io.github.kubeevents.testsupport.TestClusters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link KubeEventsHealthContributorAutoConfiguration}.
 */
class KubeEventsHealthContributorAutoConfigurationTests {

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class,
					KubeEventsHealthContributorAutoConfiguration.class))
			.withPropertyValues(TestClusters.noClusterProperties(this.tmp));
	}

	@Test
	void indicatorIsAutoConfiguredAndUpWhileRunning() {
		runner().run((context) -> {
			assertThat(context).hasSingleBean(KubeEventsHealthIndicator.class).hasBean("kubeeventsHealthIndicator");
			Health health = context.getBean(KubeEventsHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).isEqualTo(
					Map.of("sink", "log", "queueDepth", 0, "queueCapacity", 10000, "accepted", 0L, "dropped", 0L,
							"rejectedInARow", 0L));
		});
	}

	@Test
	void indicatorCountsDrops() {
		runner().withPropertyValues("kubeevents.sink.mode=none").run((context) -> {
			context.getBean(EventRecorder.class).event(TestClusters.pod("web-1"), EventType.NORMAL, "", "no reason");
			Health health = context.getBean(KubeEventsHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).isEqualTo(
					Map.of("sink", "none", "queueDepth", 0, "queueCapacity", 10000, "accepted", 0L, "dropped", 1L,
							"rejectedInARow", 0L));
		});
	}

	@Test
	void indicatorIsDownOnceShutDown() {
		runner().run((context) -> {
			context.getBean(EventBroadcaster.class).shutdown(Duration.ofSeconds(5));
			Health health = context.getBean(KubeEventsHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails()).containsEntry("state", "shut down");
		});
	}

	@Test
	void indicatorCanBeDisabled() {
		runner().withPropertyValues("management.health.kubeevents.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsHealthIndicator.class));
	}

	@Test
	void indicatorFollowsTheDefaultsSwitch() {
		runner().withPropertyValues("management.health.defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsHealthIndicator.class));
	}

	@Test
	void indicatorNeedsSpringBootHealth() {
		runner().withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsHealthIndicator.class)
				.hasSingleBean(EventRecorder.class));
	}

	@Test
	void indicatorIsNotAutoConfiguredWhenTheRecorderIsDisabled() {
		runner().withPropertyValues("kubeevents.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsHealthIndicator.class));
	}

	@Test
	void indicatorBacksOffWhenUserProvidedIndicatorIsPresent() {
		runner().withBean("kubeeventsHealthIndicator", HealthIndicator.class, () -> () -> Health.unknown().build())
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsHealthIndicator.class)
				.hasBean("kubeeventsHealthIndicator"));
	}

}
