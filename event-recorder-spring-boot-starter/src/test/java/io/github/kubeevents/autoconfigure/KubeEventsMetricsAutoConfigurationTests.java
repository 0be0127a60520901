package io.github.kubeevents.autoconfigure;

import java.nio.file.Path;
import java.util.Arrays;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.sink.EventSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsMetricsAutoConfiguration} and {@link KubeEventsMeterBinder}.
 */
class KubeEventsMetricsAutoConfigurationTests {

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class, KubeEventsAutoConfiguration.class,
					KubeEventsMetricsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> TestClusters.noCluster(this.tmp))
			.withBean(SimpleMeterRegistry.class);
	}

	private static double counter(AssertableApplicationContext context, String name, String... tags) {
		return context.getBean(MeterRegistry.class).get(name).tags(tags).functionCounter().count();
	}

	private static double gauge(AssertableApplicationContext context, String name) {
		return context.getBean(MeterRegistry.class).get(name).gauge().value();
	}

	@Test
	void registersEveryMeter() {
		runner().withPropertyValues("kubeevents.queue.capacity=5").run((context) -> {
			assertThat(context).hasSingleBean(KubeEventsMeterBinder.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.find("kubeevents.events.dropped").functionCounters())
				.extracting((counter) -> counter.getId().getTag("reason"))
				.containsExactlyInAnyOrder(Arrays.stream(DropReason.values()).map(DropReason::tag).toArray(String[]::new));
			for (DropReason reason : DropReason.values()) {
				assertThat(counter(context, "kubeevents.events.dropped", "reason", reason.tag())).isZero();
			}
			assertThat(counter(context, "kubeevents.sink.writes", "result", "created")).isZero();
			assertThat(counter(context, "kubeevents.sink.writes", "result", "patched")).isZero();
			assertThat(counter(context, "kubeevents.sink.retries")).isZero();
			assertThat(counter(context, "kubeevents.sink.failures")).isZero();
			assertThat(gauge(context, "kubeevents.queue.depth")).isZero();
			assertThat(gauge(context, "kubeevents.queue.capacity")).isEqualTo(5.0);
		});
	}

	@Test
	void countsDropsByReason() {
		runner().withPropertyValues("kubeevents.sink=none").run((context) -> {
			EventRecorder recorder = context.getBean(EventRecorder.class);
			recorder.event(TestClusters.pod("web-1"), "Critical", "Reason", "bad type");
			recorder.event(TestClusters.pod("web-1"), "Critical", "Reason", "bad type");
			assertThat(counter(context, "kubeevents.events.dropped", "reason", "invalid_input")).isEqualTo(2.0);
			assertThat(counter(context, "kubeevents.events.dropped", "reason", "queue_full")).isZero();
		});
	}

	@Test
	void countsSinkWritesRetriesAndFailures() {
		InMemoryEventSink sink = new InMemoryEventSink(3);
		runner().withPropertyValues("kubeevents.retry.max-attempts=2", "kubeevents.retry.sleep=0s")
			.withBean(EventSink.class, () -> sink)
			.run((context) -> {
				EventRecorder recorder = context.getBean(EventRecorder.class);
				recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "fails twice");
				recorder.event(TestClusters.pod("web-2"), EventType.NORMAL, "Started", "fails once, then written");
				recorder.event(TestClusters.pod("web-2"), EventType.NORMAL, "Started", "fails once, then written");
				await().until(() -> counter(context, "kubeevents.sink.writes", "result", "patched") == 1.0);
				assertThat(counter(context, "kubeevents.sink.writes", "result", "created")).isEqualTo(1.0);
				assertThat(counter(context, "kubeevents.sink.retries")).isEqualTo(2.0);
				assertThat(counter(context, "kubeevents.sink.failures")).isEqualTo(1.0);
				assertThat(counter(context, "kubeevents.events.dropped", "reason", "retries_exhausted")).isEqualTo(1.0);
				assertThat(counter(context, "kubeevents.events.accepted")).isEqualTo(3.0);
			});
	}

	@Test
	void noBinderWithoutMeterRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class,
					KubeEventsMetricsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> TestClusters.noCluster(this.tmp))
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsMeterBinder.class)
				.hasSingleBean(EventBroadcaster.class));
	}

	@Test
	void noBinderWithoutMicrometer() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class,
					KubeEventsMetricsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> TestClusters.noCluster(this.tmp))
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsMeterBinder.class)
				.hasSingleBean(EventBroadcaster.class));
	}

	@Test
	void noBinderWhenTheRecorderIsDisabled() {
		runner().withPropertyValues("kubeevents.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsMeterBinder.class));
	}

	@Test
	void binderBacksOffWhenUserProvidedBinderIsPresent() {
		KubeEventsMeterBinder mine = new KubeEventsMeterBinder(EventBroadcaster.builder().build());
		runner().withBean("myBinder", KubeEventsMeterBinder.class, () -> mine)
			.run((context) -> assertThat(context).getBean(KubeEventsMeterBinder.class).isSameAs(mine));
	}

}
