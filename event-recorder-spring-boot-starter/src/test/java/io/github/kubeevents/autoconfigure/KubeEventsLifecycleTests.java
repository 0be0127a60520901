package io.github.kubeevents.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.introspect.RecorderSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsLifecycle}.
 */
class KubeEventsLifecycleTests {

	@TempDir
	Path tmp;

	private static Set<Thread> kubeEventsThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("kubeevents-") && thread.isAlive())
			.collect(Collectors.toSet());
	}

	@Test
	void phaseStopsAfterTheWebServerAndItsGracefulShutdown() {
		assertThat(KubeEventsLifecycle.PHASE).isEqualTo(SmartLifecycle.DEFAULT_PHASE - 4096)
			.isLessThan(WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE)
			.isLessThan(WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE)
			.isLessThan(SmartLifecycle.DEFAULT_PHASE);
		assertThat(new KubeEventsLifecycle(EventBroadcaster.builder().build(), logOnly(), EventSource.of("test"),
				Duration.ofSeconds(1))
			.getPhase()).isEqualTo(KubeEventsLifecycle.PHASE);
	}

	@Test
	void contextCloseWritesQueuedEventsShutsDownAndLeavesNoThreads() {
		Set<Thread> before = kubeEventsThreads();
		InMemoryEventSink sink = new InMemoryEventSink();
		ConfigurableApplicationContext[] holder = new ConfigurableApplicationContext[1];
		EventBroadcaster[] broadcaster = new EventBroadcaster[1];
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> TestClusters.noCluster(this.tmp))
			.withBean(io.github.kubeevents.sink.EventSink.class, () -> sink)
			.run((context) -> {
				holder[0] = context;
				broadcaster[0] = context.getBean(EventBroadcaster.class);
				assertThat(broadcaster[0].isRunning()).isTrue();
				Set<Thread> started = kubeEventsThreads();
				started.removeAll(before);
				assertThat(started).extracting(Thread::getName)
					.containsExactlyInAnyOrder("kubeevents-broadcaster", "kubeevents-subscriber-sink",
							"kubeevents-subscriber-logging");
				EventRecorder recorder = context.getBean(EventRecorder.class);
				for (int i = 0; i < 3; i++) {
					recorder.event(TestClusters.pod("web-" + i), EventType.NORMAL, "Started", "started " + i);
				}
			});
		assertThat(holder[0].isActive()).isFalse();
		assertThat(broadcaster[0].isRunning()).isFalse();
		RecorderSnapshot snapshot = broadcaster[0].snapshot(0);
		assertThat(snapshot.running()).isFalse();
		assertThat(sink.created()).hasSize(3);
		assertThat(snapshot.totalDropped()).isZero();
		await().untilAsserted(() -> {
			Set<Thread> left = kubeEventsThreads();
			left.removeAll(before);
			assertThat(left).isEmpty();
		});
	}

	@Test
	void eventsRecordedBeforeStartAreDeliveredOnStart() {
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		InMemoryEventSink sink = new InMemoryEventSink();
		KubeEventsLifecycle lifecycle = new KubeEventsLifecycle(broadcaster,
				new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.KUBERNETES, "test", null, false, sink),
				EventSource.of("test"), Duration.ofSeconds(5));
		broadcaster.newRecorder(EventSource.of("test"))
			.event(TestClusters.pod("web-1"), EventType.NORMAL, "Scheduled", "early");
		assertThat(lifecycle.isRunning()).isFalse();
		lifecycle.start();
		assertThat(lifecycle.isRunning()).isTrue();
		await().until(() -> sink.created().size() == 1);
		assertThat(broadcaster.snapshot(0).subscribers()).extracting(RecorderSnapshot.SubscriberSnapshot::name)
			.containsExactly("sink");
		lifecycle.stop();
		assertThat(lifecycle.isRunning()).isFalse();
		assertThat(broadcaster.isRunning()).isFalse();
	}

	@Test
	void startTwiceSubscribesOnce() {
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		KubeEventsLifecycle lifecycle = new KubeEventsLifecycle(broadcaster, logOnly(), EventSource.of("test"),
				Duration.ofSeconds(5));
		lifecycle.start();
		lifecycle.start();
		assertThat(broadcaster.snapshot(0).subscribers()).extracting(RecorderSnapshot.SubscriberSnapshot::name)
			.containsExactly("logging");
		lifecycle.stop();
	}

	@Test
	void cannotRestartAfterStop() {
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		KubeEventsLifecycle lifecycle = new KubeEventsLifecycle(broadcaster, logOnly(), EventSource.of("test"),
				Duration.ofSeconds(5));
		lifecycle.start();
		lifecycle.stop();
		lifecycle.start();
		assertThat(lifecycle.isRunning()).isFalse();
		assertThat(broadcaster.isRunning()).isFalse();
		assertThat(broadcaster.snapshot(0).subscribers()).extracting(RecorderSnapshot.SubscriberSnapshot::name)
			.isEqualTo(List.of("logging"));
	}

	@Test
	void noneSubscribesNothing() {
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		KubeEventsLifecycle lifecycle = new KubeEventsLifecycle(broadcaster,
				new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, "none", null, false, null),
				EventSource.of("test"), Duration.ofSeconds(5));
		lifecycle.start();
		assertThat(broadcaster.isRunning()).isTrue();
		assertThat(broadcaster.snapshot(0).subscribers()).isEmpty();
		lifecycle.stop();
	}

	private static KubeEventsStatus logOnly() {
		return new KubeEventsStatus(SinkMode.LOG, EffectiveSink.LOG, "kubeevents.sink=log", null, true, null);
	}

}
