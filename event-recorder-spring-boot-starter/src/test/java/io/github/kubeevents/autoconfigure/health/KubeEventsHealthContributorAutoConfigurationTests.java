package io.github.kubeevents.autoconfigure.health;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.autoconfigure.InvalidKubeEventsPropertyException;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.health.KubeEventsHealthIndicator;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.testsupport.InMemoryEventSink;
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
import static org.awaitility.Awaitility.await;

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
							"failedInARow", 0L, "rejectedInARow", 0L));
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
							"failedInARow", 0L, "rejectedInARow", 0L));
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
	void degradedAfterTheConfiguredFailuresInARow() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runner().withBean(EventSink.class, () -> sink)
			.withPropertyValues("management.health.kubeevents.failures-in-a-row=2")
			.run((context) -> {
				assertThat(context.getBean(KubeEventsHealthProperties.class).failuresInARow()).isEqualTo(2);
				EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
				EventRecorder recorder = context.getBean(EventRecorder.class);
				KubeEventsHealthIndicator indicator = context.getBean(KubeEventsHealthIndicator.class);
				recorder.event(TestClusters.pod("web-0"), EventType.WARNING, "BackOff", "m");
				await().atMost(Duration.ofSeconds(10)).until(() -> sink.created().size() == 1);
				for (int i = 1; i <= 2; i++) {
					sink.failNext(EventSinkException.status(422, "Invalid", "bad"));
					recorder.event(TestClusters.pod("web-" + i), EventType.WARNING, "BackOff", "m");
					long refused = i;
					await().atMost(Duration.ofSeconds(10)).until(() -> broadcaster.stats().rejectedInARow() == refused
							&& broadcaster.stats().failedInARow() == refused);
					assertThat(indicator.health().getStatus()).as("after %d refusals", i)
						.isEqualTo((i < 2) ? Status.UP : KubeEventsHealthIndicator.DEGRADED);
				}
			});
	}

	@Test
	void theDefaultThresholdIsTheIndicatorsConstantAndBelowOneIsRefused() {
		runner().run((context) -> assertThat(context.getBean(KubeEventsHealthProperties.class).failuresInARow())
			.isEqualTo(KubeEventsHealthIndicator.FAILURES_IN_A_ROW)
			.isEqualTo(3));
		runner().withPropertyValues("management.health.kubeevents.failures-in-a-row=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidKubeEventsPropertyException.class)
				.hasMessage("management.health.kubeevents.failures-in-a-row must be at least 1, was '0'"));
	}

	@Test
	void indicatorBacksOffWhenUserProvidedIndicatorIsPresent() {
		runner().withBean("kubeeventsHealthIndicator", HealthIndicator.class, () -> () -> Health.unknown().build())
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsHealthIndicator.class)
				.hasBean("kubeeventsHealthIndicator"));
	}

}
