package io.github.kubeevents.test.autoconfigure;


import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.status.EffectiveSink;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkMode;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FakeEventRecorderAutoConfiguration}.
 */
class FakeEventRecorderAutoConfigurationTests {

	private static final InvolvedObject POD = InvolvedObject.of("Pod", "v1", "default", "web-0");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(KubeEventsAutoConfiguration.class, FakeEventRecorderAutoConfiguration.class))
		// the starter's detection reads these from the Environment: hide the machine's cluster configuration
		.withPropertyValues("KUBECONFIG=", "KUBERNETES_SERVICE_HOST=", "HOME=target/no-home");

	@Test
	void theTestModulesPropertiesAreKnownToTheStrictPropertyCheck() {
		this.runner.withPropertyValues("kubeevents.test.namespace=widgets-it-x1", "kubeevents.test.cluster=local",
				"kubeevents.test.k3s.image=rancher/k3s:v1.35.4-k3s1", "kubeevents.test.cluster.state-dir=target/state",
				"kubeevents.test.fake-recorder.clear-after-each-test=false")
			.run((context) -> assertThat(context).hasNotFailed());
		this.runner.withPropertyValues("kubeevents.test.namespaces=widgets-it-x1")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessage("Renamed or unknown kubeevents properties are set: kubeevents.test.namespaces (did you mean"
						+ " kubeevents.test.namespace?)"));
	}

	@Test
	void fakeIsTheApplicationsRecorderAndThePipelineWritesNowhere() {
		this.runner.withPropertyValues("kubeevents.sink.mode=kubernetes").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).getBean(EventRecorder.class).isInstanceOf(FakeEventRecorder.class);
			assertThat(context).getBeanNames(EventRecorder.class).containsExactly("fakeEventRecorder");
			KubeEventsStatus status = context.getBean(KubeEventsStatus.class);
			assertThat(status.sink()).isEqualTo(EffectiveSink.NONE);
			assertThat(status).isEqualTo(KubeEventsStatus.discarding(FakeEventRecorderAutoConfiguration.REASON));
			assertThat(status.configured()).isEqualTo(SinkMode.NONE);
			assertThat(status.reason()).isEqualTo(FakeEventRecorderAutoConfiguration.REASON);
			assertThat(context.getBean(EventBroadcaster.class).snapshot(10).sinks()).isEmpty();
		});
	}

	@Test
	void connectionDetailsAndApiClientBeansAreNotUsed() {
		this.runner
			.withBean(KubeEventsConnectionDetails.class,
					() -> () -> new ClientBuilder().setBasePath("https://details.example:6443").build())
			.withBean(ApiClient.class, () -> new ClientBuilder().setBasePath("https://client.example:6443").build())
			.run((context) -> {
				KubeEventsStatus status = context.getBean(KubeEventsStatus.class);
				assertThat(status.sink()).isEqualTo(EffectiveSink.NONE);
				assertThat(status.apiServer()).isNull();
			});
	}

	@Test
	void fakeCapturesWithTheApplicationsSource() {
		this.runner.withPropertyValues("spring.application.name=shop", "kubeevents.host=pod-7").run((context) -> {
			context.getBean(EventRecorder.class).about(POD).normal("Started", "Started container");
			FakeEventRecorder fake = context.getBean(FakeEventRecorder.class);
			assertThat(fake).onlyEvent().hasComponent("shop");
			assertThat(fake.recordedEvents().get(0).source()).isEqualTo(new EventSource("shop", "pod-7"));
		});
	}

	@Test
	void fakeAppliesTheApplicationsMessageLimit() {
		this.runner.withPropertyValues("kubeevents.max-message-size=16B").run((context) -> {
			EventRecorder recorder = context.getBean(EventRecorder.class);
			recorder.about(POD).warning("Full", "sixteen bytes ok");
			recorder.about(POD).warning("Full", "seventeen bytes !");
			FakeEventRecorder fake = context.getBean(FakeEventRecorder.class);
			assertThat(fake).onlyEvent().hasMessage("sixteen bytes ok");
			assertThat(fake.invalidInputs()).containsExactly("message is 17 UTF-8 bytes, more than the limit of 16");
		});
	}

	@Test
	void fakeWithoutTheStarterHasTheDefaultMessageLimit() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(FakeEventRecorderAutoConfiguration.class))
			.run((context) -> {
				EventRecorder recorder = context.getBean(EventRecorder.class);
				recorder.about(POD).warning("Big", "x".repeat(1024 * 1024));
				recorder.about(POD).warning("Big", "x".repeat(1024 * 1024 + 1));
				assertThat(context.getBean(FakeEventRecorder.class).recordedEvents()).hasSize(1);
			});
	}

	@Test
	void fakeWinsOverAnApplicationRecorderBean() {
		this.runner.withBean("applicationRecorder", EventRecorder.class, FakeEventRecorder::new).run((context) -> {
			assertThat(context.getBean(EventRecorder.class)).isSameAs(context.getBean("fakeEventRecorder"));
		});
	}

	@Test
	void fakeAloneInASliceWithoutTheStarter() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(FakeEventRecorderAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(EventRecorder.class);
				assertThat(context.getBean(FakeEventRecorder.class).recordedEvents()).isEmpty();
				assertThat(context).doesNotHaveBean(EventBroadcaster.class);
			});
	}

	@Test
	void withoutTheAutoConfigurationTheStarterWouldWriteToTheConnectionDetails() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubeEventsConnectionDetails.class,
					() -> () -> new ClientBuilder().setBasePath("https://details.example:6443").build())
			.withPropertyValues("kubeevents.sink.api=core/v1")
			.run((context) -> {
				KubeEventsStatus status = context.getBean(KubeEventsStatus.class);
				assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status.apiServer()).isEqualTo("https://details.example:6443");
				assertThat(context).getBean(EventRecorder.class).isNotInstanceOf(FakeEventRecorder.class);
			});
	}

}
