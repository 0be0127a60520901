package io.github.kubeevents.autoconfigure.metrics;

import java.nio.file.Path;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.metrics.KubeEventsMeterBinder;
import io.github.kubeevents.metrics.KubeEventsRequestTimer;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsMetricsAutoConfiguration}.
 */
class KubeEventsMetricsAutoConfigurationTests {

	@TempDir
	Path tmp;

	/** Spring Boot's own registry set-up: the registry binds every MeterBinder bean when it is created. */
	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					KubeEventsAutoConfiguration.class, KubeEventsMetricsAutoConfiguration.class))
			.withPropertyValues(TestClusters.noClusterProperties(this.tmp));
	}

	private static double counter(AssertableApplicationContext context, String name, String... tags) {
		return context.getBean(MeterRegistry.class).get(name).tags(tags).functionCounter().count();
	}

	@Test
	void bindsTheMetersToTheRegistry() {
		runner().withPropertyValues("kubeevents.queue.capacity=5").run((context) -> {
			assertThat(context).hasSingleBean(KubeEventsMeterBinder.class).hasSingleBean(KubeEventsRequestTimer.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("kubeevents.queue.capacity").tags("queue", "incoming").gauge().value())
				.isEqualTo(5.0);
			assertThat(registry.find("kubeevents.queue.depth").gauges())
				.extracting((gauge) -> gauge.getId().getTag("queue"))
				.containsExactlyInAnyOrder("incoming", "logging");
		});
	}

	@Test
	void queueGaugesCoverTheSinkWhenWriting() {
		runner().withBean(EventSink.class, InMemoryEventSink::new)
			.run((context) -> assertThat(context.getBean(MeterRegistry.class).find("kubeevents.queue.depth").gauges())
				.extracting((gauge) -> gauge.getId().getTag("queue"))
				.containsExactlyInAnyOrder("incoming", "sink", "logging"));
	}

	@Test
	void sinkCapacityGaugeIsItsBacklogAndNoSubscriberQueue() {
		runner().withBean(EventSink.class, InMemoryEventSink::new)
			.withPropertyValues("kubeevents.queue.subscriber-capacity=100", "kubeevents.sink.writers=2",
					"kubeevents.sink.backlog-capacity=50")
			.run((context) -> {
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				// the sink runs on the distribution thread: its backlog is its only queue
				assertThat(registry.get("kubeevents.queue.capacity").tags("queue", "sink").gauge().value())
					.isEqualTo(50);
				assertThat(registry.get("kubeevents.queue.capacity").tags("queue", "logging").gauge().value())
					.isEqualTo(100);
			});
	}

	@Test
	void discardingStatusHasOnlyTheIncomingQueueGauges() {
		runner().withBean(KubeEventsStatus.class, () -> KubeEventsStatus.discarding("a test"))
			.withBean(EventSink.class, InMemoryEventSink::new)
			.run((context) -> assertThat(context.getBean(MeterRegistry.class).find("kubeevents.queue.depth").gauges())
				.extracting((gauge) -> gauge.getId().getTag("queue"))
				.containsExactly("incoming"));
	}

	@Test
	void countsDropsByReason() {
		runner().withPropertyValues("kubeevents.sink.mode=none").run((context) -> {
			EventRecorder recorder = context.getBean(EventRecorder.class);
			recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "", "no reason");
			recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "", "no reason");
			assertThat(counter(context, "kubeevents.dropped", "reason", "invalid_input")).isEqualTo(2.0);
			assertThat(counter(context, "kubeevents.dropped", "reason", "queue_full")).isZero();
		});
	}

	@Test
	void requestTimerIsRecordedThroughTheLazyCustomizerWithoutACircularReference() {
		InMemoryEventSink sink = new InMemoryEventSink(1);
		runner().withPropertyValues("kubeevents.sink.retry.sleep=0s").withBean(EventSink.class, () -> sink).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(EventRecorder.class).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "ok");
			await().until(() -> sink.created().size() == 1);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			await().untilAsserted(() -> assertThat(registry.get("kubeevents.sink.requests")
				.tags("api", "core/v1", "verb", "create", "result", "success")
				.timer()
				.count()).isOne());
			assertThat(registry.get("kubeevents.sink.requests")
				.tags("api", "core/v1", "verb", "create", "result", "transport_error")
				.timer()
				.count()).isOne();
			assertThat(counter(context, "kubeevents.written", "result", "created")).isOne();
			assertThat(counter(context, "kubeevents.sink.retries")).isOne();
		});
	}

	@Test
	void requestTimerIsNotNeededByTheBroadcaster() {
		runner().withBean("myTimer", KubeEventsRequestTimer.class, () -> new KubeEventsRequestTimer(new SimpleMeterRegistry()))
			.run((context) -> assertThat(context).hasSingleBean(KubeEventsRequestTimer.class).hasBean("myTimer"));
	}

	@Test
	void noBinderWithoutMeterRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeEventsAutoConfiguration.class, KubeEventsMetricsAutoConfiguration.class))
			.withPropertyValues(TestClusters.noClusterProperties(this.tmp))
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsMeterBinder.class)
				.doesNotHaveBean(KubeEventsRequestTimer.class)
				.hasSingleBean(EventBroadcaster.class));
	}

	@Test
	void noBinderWithoutMicrometer() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeEventsAutoConfiguration.class, KubeEventsMetricsAutoConfiguration.class))
			.withPropertyValues(TestClusters.noClusterProperties(this.tmp))
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
		KubeEventsMeterBinder mine = new KubeEventsMeterBinder(EventBroadcaster.builder().build(), java.util.List.of());
		runner().withBean("myBinder", KubeEventsMeterBinder.class, () -> mine)
			.run((context) -> assertThat(context).getBean(KubeEventsMeterBinder.class).isSameAs(mine));
	}

}
