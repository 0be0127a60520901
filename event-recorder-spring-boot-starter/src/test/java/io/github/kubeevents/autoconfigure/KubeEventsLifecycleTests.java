package io.github.kubeevents.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkTarget;
import io.github.kubeevents.status.SinkMode;
import io.github.kubeevents.status.EffectiveSink;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsLifecycle}.
 */
@ExtendWith(OutputCaptureExtension.class)
class KubeEventsLifecycleTests {

	private static final EventSource SOURCE = new EventSource("orders", "orders-7d9f");

	private static KubeEventsStatus logOnly() {
		return new KubeEventsStatus(SinkMode.LOG, EffectiveSink.LOG, "kubeevents.sink.mode=log", null, true, null);
	}

	private static KubeEventsLifecycle lifecycle(EventBroadcaster broadcaster, KubeEventsStatus status) {
		return new KubeEventsLifecycle(broadcaster, status, SOURCE, Duration.ofSeconds(5));
	}

	private static java.util.List<String> subscribers(EventBroadcaster broadcaster) {
		return broadcaster.stats().subscribers().stream().map(RecorderStats.Subscriber::name).toList();
	}

	@Test
	void phaseStopsAfterTheWebServerAndItsGracefulShutdownAndStartsBefore() {
		assertThat(KubeEventsLifecycle.PHASE).isEqualTo(SmartLifecycle.DEFAULT_PHASE - 4096)
			.isLessThan(WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE)
			.isLessThan(WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE)
			.isLessThan(SmartLifecycle.DEFAULT_PHASE);
		assertThat(lifecycle(EventBroadcaster.builder().build(), logOnly()).getPhase())
			.isEqualTo(KubeEventsLifecycle.PHASE);
	}

	@Test
	void startupLineSaysWhereEventsGo(CapturedOutput output) {
		InMemoryEventSink sink = new InMemoryEventSink();
		KubeEventsLifecycle lifecycle = lifecycle(EventBroadcaster.builder().build(), new KubeEventsStatus(SinkMode.AUTO,
				EffectiveSink.KUBERNETES, "in-cluster service account /var/run/secrets/kubernetes.io/serviceaccount",
				"https://10.0.0.1:443", true, new SinkTarget.CoreV1(sink)));
		lifecycle.start();
		lifecycle.stop();
		assertThat(output).contains("Recording Kubernetes events as component 'orders' (host 'orders-7d9f'): writing"
				+ " Events to https://10.0.0.1:443 (in-cluster service account"
				+ " /var/run/secrets/kubernetes.io/serviceaccount), logging events");
	}

	@Test
	void startupLineSaysWhyEventsAreNotWritten(CapturedOutput output) {
		KubeEventsLifecycle lifecycle = lifecycle(EventBroadcaster.builder().build(),
				new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.LOG, "not running in Kubernetes; a kubeconfig is used only"
						+ " with kubeevents.kubeconfig.enabled=true or kubeevents.sink.mode=kubernetes", null, true, null));
		lifecycle.start();
		lifecycle.stop();
		assertThat(output).contains("Recording Kubernetes events as component 'orders' (host 'orders-7d9f'): not"
				+ " writing to a cluster (not running in Kubernetes; a kubeconfig is used only with"
				+ " kubeevents.kubeconfig.enabled=true or kubeevents.sink.mode=kubernetes), logging events");
	}

	@Test
	void contextCloseWritesQueuedEventsShutsDownAndLeavesNoThreads(@TempDir Path tmp) {
		Set<Thread> before = kubeEventsThreads();
		InMemoryEventSink sink = new InMemoryEventSink();
		EventBroadcaster[] broadcaster = new EventBroadcaster[1];
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> Machines.noCluster(tmp))
			.withBean(EventSink.class, () -> sink)
			.run((context) -> {
				broadcaster[0] = context.getBean(EventBroadcaster.class);
				// the sink runs on the distribution thread, with writer threads (four at most, each started by the
				// first write of its queue); only the logger has a subscriber thread
				Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
					Set<Thread> started = kubeEventsThreads();
					started.removeAll(before);
					assertThat(started).extracting(Thread::getName)
						.containsExactlyInAnyOrder("kubeevents-broadcaster", "kubeevents-subscriber-logging");
				});
				EventRecorder recorder = context.getBean(EventRecorder.class);
				for (int i = 0; i < 3; i++) {
					recorder.event(TestClusters.pod("web-" + i), EventType.NORMAL, "Started", "started " + i);
				}
				Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> sink.created().size() == 3);
				Set<Thread> writing = kubeEventsThreads();
				writing.removeAll(before);
				assertThat(writing).extracting(Thread::getName)
					.contains("kubeevents-broadcaster", "kubeevents-subscriber-logging")
					.filteredOn((name) -> name.startsWith("kubeevents-writer-sink-"))
					.isNotEmpty()
					.allMatch((name) -> name.matches("kubeevents-writer-sink-[0-3]"));
			});
		assertThat(broadcaster[0].stats().state()).isEqualTo("terminated");
		assertThat(sink.created()).hasSize(3);
		assertThat(broadcaster[0].stats().dropped().values()).containsOnly(0L);
		await().untilAsserted(() -> {
			Set<Thread> left = kubeEventsThreads();
			left.removeAll(before);
			assertThat(left).isEmpty();
		});
	}

	private static Set<Thread> kubeEventsThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("kubeevents-") && thread.isAlive())
			.collect(Collectors.toSet());
	}

	@Test
	void eventsRecordedBeforeStartAreDeliveredOnStart() {
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		InMemoryEventSink sink = new InMemoryEventSink();
		KubeEventsLifecycle lifecycle = lifecycle(broadcaster,
				new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.KUBERNETES, "test", null, false, new SinkTarget.CoreV1(sink)));
		broadcaster.newRecorder(SOURCE).event(TestClusters.pod("web-1"), EventType.NORMAL, "Scheduled", "early");
		assertThat(lifecycle.isRunning()).isFalse();
		lifecycle.start();
		assertThat(lifecycle.isRunning()).isTrue();
		await().until(() -> sink.created().size() == 1);
		assertThat(subscribers(broadcaster)).containsExactly("sink");
		lifecycle.stop();
		assertThat(lifecycle.isRunning()).isFalse();
		assertThat(broadcaster.stats().running()).isFalse();
		assertThat(broadcaster.stats().state()).as("stopped, not shut down: the context may start again")
			.isEqualTo("stopped");
		broadcaster.close();
	}

	@Test
	void startTwiceSubscribesOnce() {
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		KubeEventsLifecycle lifecycle = lifecycle(broadcaster, logOnly());
		lifecycle.start();
		lifecycle.start();
		assertThat(subscribers(broadcaster)).containsExactly("logging");
		lifecycle.stop();
		broadcaster.close();
	}

	@Test
	void restartsAfterStopAndWritesWhatWasRecordedMeanwhile(CapturedOutput output) {
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		InMemoryEventSink sink = new InMemoryEventSink();
		KubeEventsLifecycle lifecycle = lifecycle(broadcaster,
				new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.KUBERNETES, "test", null, false, new SinkTarget.CoreV1(sink)));
		EventRecorder recorder = broadcaster.newRecorder(SOURCE);
		for (int cycle = 0; cycle < 3; cycle++) {
			lifecycle.start();
			assertThat(lifecycle.isRunning()).isTrue();
			recorder.event(TestClusters.pod("running-" + cycle), EventType.NORMAL, "Started", "while running");
			lifecycle.stop();
			assertThat(lifecycle.isRunning()).isFalse();
			assertThat(sink.created()).as("written by the end of stop()").hasSize(2 * cycle + 1);
			recorder.event(TestClusters.pod("stopped-" + cycle), EventType.NORMAL, "Started", "while stopped");
			assertThat(sink.created()).hasSize(2 * cycle + 1);
		}
		lifecycle.start();
		await().until(() -> sink.created().size() == 6);
		assertThat(subscribers(broadcaster)).as("subscribed once").containsExactly("sink");
		assertThat(output).contains("Recording Kubernetes events again after a stop")
			.doesNotContain("cannot be restarted");
		lifecycle.stop();
		broadcaster.close();
		assertThat(broadcaster.stats().state()).isEqualTo("terminated");
		assertThat(broadcaster.stats().totalDropped()).isZero();
	}

	@Test
	void noneSubscribesNothing() {
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		KubeEventsLifecycle lifecycle = lifecycle(broadcaster,
				new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, "kubeevents.sink.mode=none", null, false, null));
		lifecycle.start();
		assertThat(broadcaster.stats().running()).isTrue();
		assertThat(subscribers(broadcaster)).isEmpty();
		lifecycle.stop();
		broadcaster.close();
	}

	@Test
	void broadcasterCloseAfterStopReturnsAtOnce() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch writing = new CountDownLatch(1);
		EventSink stuck = new EventSink() {

			@Override
			public CoreV1Event create(CoreV1Event event) {
				writing.countDown();
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return event;
			}

			@Override
			public CoreV1Event patch(CoreV1Event event, EventSink.CountPatch patch) {
				return event;
			}

		};
		// the broadcaster's own timeout is an hour: a second wait for the stuck write in close() would hang the test
		EventBroadcaster broadcaster = EventBroadcaster.builder().shutdownTimeout(Duration.ofHours(1)).build();
		KubeEventsLifecycle lifecycle = new KubeEventsLifecycle(broadcaster,
				new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.KUBERNETES, "test", null, false, new SinkTarget.CoreV1(stuck)), SOURCE,
				Duration.ofMillis(200));
		try {
			lifecycle.start();
			broadcaster.newRecorder(SOURCE).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "stuck");
			assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();
			lifecycle.stop();
			assertThat(broadcaster.stats().state()).isEqualTo("stopped");
			CompletableFuture<Void> close = CompletableFuture.runAsync(broadcaster::close);
			// the guard only stops a hang: a close that waited for the stuck write would wait an hour
			close.get(30, TimeUnit.SECONDS);
			assertThat(broadcaster.stats().state()).isEqualTo("terminated");
			assertThat(release.getCount()).as("the write is still stuck").isEqualTo(1);
		}
		finally {
			release.countDown();
		}
	}

}
