package io.github.kubeevents.autoconfigure;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.FullQueuePolicy;
import io.github.kubeevents.correlator.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsEndpointAutoConfiguration} and {@link KubeEventsEndpoint}.
 */
class KubeEventsEndpointAutoConfigurationTests {

	private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(KubeEventsAutoConfiguration.class, KubeEventsEndpointAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> TestClusters.noCluster(this.tmp));
	}

	private ApplicationContextRunner exposed() {
		return runner().withPropertyValues("management.endpoints.web.exposure.include=kubeevents");
	}

	@Test
	void endpointIsAutoConfiguredWhenExposed() {
		exposed().run((context) -> assertThat(context).hasSingleBean(KubeEventsEndpoint.class));
	}

	@Test
	void endpointIsAutoConfiguredWhenExposedOverJmx() {
		runner().withPropertyValues("spring.jmx.enabled=true", "management.endpoints.jmx.exposure.include=kubeevents")
			.run((context) -> assertThat(context).hasSingleBean(KubeEventsEndpoint.class));
	}

	@Test
	void endpointIsNotAutoConfiguredWhenNotExposed() {
		runner().run((context) -> assertThat(context).doesNotHaveBean(KubeEventsEndpoint.class));
	}

	@Test
	void endpointIsNotAutoConfiguredWhenAccessIsNone() {
		exposed().withPropertyValues("management.endpoint.kubeevents.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsEndpoint.class));
	}

	@Test
	void endpointCanBeDisabledWithTheLegacyProperty() {
		exposed().withPropertyValues("management.endpoint.kubeevents.enabled=false")
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
	void endpointIsNotAutoConfiguredWhenTheRecorderIsDisabled() {
		exposed().withPropertyValues("kubeevents.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsEndpoint.class));
	}

	@Test
	void endpointBacksOffWhenUserProvidedEndpointIsPresent() {
		KubeEventsEndpoint mine = new KubeEventsEndpoint(EventBroadcaster.builder().build(),
				new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, "mine", null, false, null),
				EventSource.of("mine"), 1);
		exposed().withBean("myEndpoint", KubeEventsEndpoint.class, () -> mine)
			.run((context) -> assertThat(context).hasSingleBean(KubeEventsEndpoint.class)
				.getBean(KubeEventsEndpoint.class)
				.isSameAs(mine));
	}

	@Test
	void describesSourceSinkAndSnapshot() {
		exposed().withPropertyValues("kubeevents.sink=log", "kubeevents.component=orders", "kubeevents.host=pod-1")
			.withBean(EventBroadcasterCustomizer.class, () -> (builder) -> builder.clock(Clock.fixed(NOW, ZoneOffset.UTC)))
			.run((context) -> {
				KubeEventsEndpoint.KubeEventsDescriptor descriptor = context.getBean(KubeEventsEndpoint.class)
					.kubeEvents(null);
				assertThat(descriptor.component()).isEqualTo("orders");
				assertThat(descriptor.host()).isEqualTo("pod-1");
				assertThat(descriptor.sink())
					.isEqualTo(new KubeEventsEndpoint.SinkDescriptor("log", "log", "kubeevents.sink=log", null, true));
				RecorderSnapshot recorder = descriptor.recorder();
				assertThat(recorder.takenAt()).isEqualTo(NOW);
				assertThat(recorder.running()).isTrue();
				assertThat(recorder.queue()).isEqualTo(new RecorderSnapshot.QueueSnapshot(0, 1000));
				assertThat(recorder.subscribers()).containsExactly(
						new RecorderSnapshot.SubscriberSnapshot("logging", 0, 1000, FullQueuePolicy.DROP, 0));
				assertThat(recorder.sinks()).isEmpty();
				assertThat(recorder.dropped()).containsOnlyKeys("queue_full", "spam_filtered", "rejected_by_server",
						"retries_exhausted", "shutdown", "invalid_input");
				assertThat(recorder.totalDropped()).isZero();
			});
	}

	@Test
	void defaultLimitAndLimitBoundTheCorrelatorLists() {
		InMemoryEventSink sink = new InMemoryEventSink();
		exposed().withPropertyValues("kubeevents.endpoint.default-limit=1")
			.withBean(EventSink.class, () -> sink)
			.run((context) -> {
				EventRecorder recorder = context.getBean(EventRecorder.class);
				recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "one");
				recorder.event(TestClusters.pod("web-2"), EventType.NORMAL, "Started", "two");
				recorder.event(TestClusters.pod("web-3"), EventType.NORMAL, "Started", "three");
				await().until(() -> sink.created().size() == 3);
				KubeEventsEndpoint endpoint = context.getBean(KubeEventsEndpoint.class);
				assertLists(endpoint.kubeEvents(null), 1);
				assertLists(endpoint.kubeEvents(2), 2);
				assertLists(endpoint.kubeEvents(0), 0);
				assertLists(endpoint.kubeEvents(50), 3);
			});
	}

	private static void assertLists(KubeEventsEndpoint.KubeEventsDescriptor descriptor, int length) {
		CorrelatorSnapshot correlator = descriptor.recorder().sinks().get(0).correlator();
		assertThat(correlator.aggregatorSize()).isEqualTo(3);
		assertThat(correlator.observedSize()).isEqualTo(3);
		assertThat(correlator.spamBucketsSize()).isEqualTo(3);
		assertThat(correlator.aggregateRecords()).hasSize(length);
		assertThat(correlator.observedEvents()).hasSize(length);
		assertThat(correlator.spamBuckets()).hasSize(length);
	}

	@Test
	void negativeLimitIsABadRequest() {
		exposed().run((context) -> assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> context.getBean(KubeEventsEndpoint.class).kubeEvents(-1))
			.withMessage("limit must be zero or positive, was -1")
			.extracting(InvalidEndpointRequestException::getReason)
			.isEqualTo("Invalid limit"));
	}

}
