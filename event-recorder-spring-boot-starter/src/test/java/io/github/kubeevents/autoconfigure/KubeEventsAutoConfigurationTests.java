package io.github.kubeevents.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.CoreV1EventSink;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsAutoConfiguration}: switch, back-off, sink modes, component and host.
 */
@ExtendWith(OutputCaptureExtension.class)
class KubeEventsAutoConfigurationTests {

	private static final String NO_CLUSTER_WARNING = "No Kubernetes configuration found (looked at ";

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return runner(TestClusters.noCluster(this.tmp));
	}

	private ApplicationContextRunner runner(KubernetesConfigDetector detector) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> detector);
	}

	private KubernetesConfigDetector homeOnly(Path home) {
		return new KubernetesConfigDetector(Map.of(), home, this.tmp.resolve("none"));
	}

	private static KubeEventsStatus status(AssertableApplicationContext context) {
		return context.getBean(KubeEventsStatus.class);
	}

	private static List<String> subscriberNames(AssertableApplicationContext context) {
		return context.getBean(EventBroadcaster.class)
			.snapshot(10)
			.subscribers()
			.stream()
			.map(RecorderSnapshot.SubscriberSnapshot::name)
			.toList();
	}

	private static List<String> sinkNames(AssertableApplicationContext context) {
		return context.getBean(EventBroadcaster.class)
			.snapshot(10)
			.sinks()
			.stream()
			.map(RecorderSnapshot.SinkSnapshot::name)
			.toList();
	}

	@Test
	void importsListEveryAutoConfiguration() {
		assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
			.contains(KubeEventsAutoConfiguration.class.getName(), KubeEventsEndpointAutoConfiguration.class.getName(),
					KubeEventsHealthContributorAutoConfiguration.class.getName(),
					KubeEventsMetricsAutoConfiguration.class.getName());
	}

	@Test
	void createsEveryBeanAndStartsTheBroadcaster() {
		runner().run((context) -> {
			assertThat(context).hasSingleBean(KubeEventsProperties.class)
				.hasSingleBean(EventSource.class)
				.hasSingleBean(KubeEventsStatus.class)
				.hasSingleBean(EventBroadcaster.class)
				.hasSingleBean(EventRecorder.class)
				.hasSingleBean(KubeEventsLifecycle.class)
				.hasSingleBean(KubernetesConfigDetector.class);
			assertThat(context.getBean(EventBroadcaster.class).isRunning()).isTrue();
			assertThat(context.getBean(KubeEventsLifecycle.class).isRunning()).isTrue();
		});
	}

	@Test
	void defaultDetectorLooksAtThisProcess() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withPropertyValues("kubeevents.sink=none")
			.run((context) -> assertThat(context).hasSingleBean(KubernetesConfigDetector.class)
				.getBean("kubeEventsConfigDetector")
				.isInstanceOf(KubernetesConfigDetector.class));
	}

	@Test
	void enabledTrueCreatesTheRecorder() {
		runner().withPropertyValues("kubeevents.enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(EventRecorder.class));
	}

	@Test
	void disabledSwitchCreatesNothing() {
		runner().withPropertyValues("kubeevents.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(KubeEventsProperties.class)
				.doesNotHaveBean(EventSource.class)
				.doesNotHaveBean(KubeEventsStatus.class)
				.doesNotHaveBean(EventBroadcaster.class)
				.doesNotHaveBean(EventRecorder.class)
				.doesNotHaveBean(KubeEventsLifecycle.class)
				.doesNotHaveBean("kubeEventsConfigDetector"));
	}

	@Test
	void userBroadcasterIsUsedByTheRecorderAndTheLifecycle() {
		EventBroadcaster mine = EventBroadcaster.builder().incomingQueueCapacity(3).build();
		runner().withBean("myBroadcaster", EventBroadcaster.class, () -> mine).run((context) -> {
			assertThat(context).hasSingleBean(EventBroadcaster.class).getBean(EventBroadcaster.class).isSameAs(mine);
			assertThat(mine.isRunning()).isTrue();
			assertThat(mine.snapshot(0).queue().capacity()).isEqualTo(3);
			context.getBean(EventRecorder.class).event(TestClusters.pod("web-1"), "Bogus", "Reason", "message");
			assertThat(mine.counters().dropped(DropReason.INVALID_INPUT)).isEqualTo(1);
		});
		assertThat(mine.isRunning()).isFalse();
	}

	@Test
	void userRecorderReplacesOurs() {
		FakeEventRecorder mine = new FakeEventRecorder();
		runner().withBean(EventRecorder.class, () -> mine)
			.run((context) -> assertThat(context).hasSingleBean(EventRecorder.class)
				.getBean(EventRecorder.class)
				.isSameAs(mine));
	}

	@Test
	void userSourceIsWrittenIntoEvents() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runner().withBean(EventSource.class, () -> new EventSource("my-controller", "my-pod"))
			.withBean(EventSink.class, () -> sink)
			.run((context) -> {
				assertThat(context).hasSingleBean(EventSource.class);
				context.getBean(EventRecorder.class).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "ok");
				await().until(() -> sink.created().size() == 1);
				CoreV1Event event = sink.created().get(0);
				assertThat(event.getSource().getComponent()).isEqualTo("my-controller");
				assertThat(event.getSource().getHost()).isEqualTo("my-pod");
				assertThat(event.getReportingComponent()).isEqualTo("my-controller");
				assertThat(event.getReportingInstance()).isEqualTo("my-pod");
			});
	}

	@Test
	void userStatusReplacesTheResolution() {
		InMemoryEventSink sink = new InMemoryEventSink();
		KubeEventsStatus mine = new KubeEventsStatus(SinkMode.KUBERNETES, EffectiveSink.KUBERNETES, "mine", null,
				false, sink);
		runner().withBean(KubeEventsStatus.class, () -> mine).run((context) -> {
			assertThat(context).getBean(KubeEventsStatus.class).isSameAs(mine);
			assertThat(subscriberNames(context)).containsExactly("sink");
		});
	}

	@Test
	void userLifecycleReplacesOurs() {
		runner().withBean("myLifecycle", KubeEventsLifecycle.class,
				() -> new KubeEventsLifecycle(EventBroadcaster.builder().build(),
						new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, "mine", null, false, null),
						EventSource.of("mine"), Duration.ofSeconds(1)))
			.run((context) -> {
				assertThat(context).hasSingleBean(KubeEventsLifecycle.class).hasBean("myLifecycle");
				assertThat(context.getBean(EventBroadcaster.class).isRunning()).isFalse();
			});
	}

	@Test
	void userDetectorReplacesOurs() throws Exception {
		Path home = this.tmp.resolve("home");
		TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://127.0.0.1:1");
		KubernetesConfigDetector mine = homeOnly(home);
		runner(mine).run((context) -> {
			assertThat(context).hasSingleBean(KubernetesConfigDetector.class)
				.doesNotHaveBean("kubeEventsConfigDetector")
				.getBean(KubernetesConfigDetector.class)
				.isSameAs(mine);
			assertThat(status(context).apiServer()).isEqualTo("http://127.0.0.1:1");
		});
	}

	@Test
	void autoWithoutClusterOnlyLogsAndWarnsOnce(CapturedOutput output) {
		runner().withPropertyValues("kubeevents.log-events=false").run((context) -> {
			KubeEventsStatus status = status(context);
			assertThat(status.configured()).isEqualTo(SinkMode.AUTO);
			assertThat(status.sink()).isEqualTo(EffectiveSink.LOG);
			assertThat(status.reason()).isEqualTo("no Kubernetes configuration found (looked at $KUBECONFIG (unset), "
					+ this.tmp.resolve("empty-home/.kube/config") + ", in-cluster service account ("
					+ this.tmp.resolve("no-service-account") + "))");
			assertThat(status.apiServer()).isNull();
			assertThat(status.logEvents()).isTrue();
			assertThat(status.eventSink()).isNull();
			assertThat(subscriberNames(context)).containsExactly("logging");
			assertThat(sinkNames(context)).isEmpty();
		});
		assertThat(output.getOut().split(java.util.regex.Pattern.quote(NO_CLUSTER_WARNING), -1)).hasSize(2);
		assertThat(output).contains("WARN").contains("events will only be logged, not written to the API server");
	}

	@Test
	void autoWithHomeKubeconfigWritesToItsServer(CapturedOutput output) throws Exception {
		Path home = this.tmp.resolve("home");
		Path config = TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://127.0.0.1:1");
		runner(homeOnly(home))
			.run((context) -> {
				KubeEventsStatus status = status(context);
				assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status.reason()).isEqualTo("kubeconfig " + config);
				assertThat(status.apiServer()).isEqualTo("http://127.0.0.1:1");
				assertThat(status.logEvents()).isTrue();
				assertThat(status.eventSink()).isInstanceOf(CoreV1EventSink.class);
				assertThat(subscriberNames(context)).containsExactly("sink", "logging");
				assertThat(sinkNames(context)).containsExactly("sink");
			});
		assertThat(output).doesNotContain(NO_CLUSTER_WARNING);
	}

	@Test
	void autoWithKubeconfigEnvUsesTheFirstExistingFile() throws Exception {
		Path config = TestClusters.writeKubeconfig(this.tmp.resolve("cfg/kubeconfig"), "https://10.1.2.3:6443");
		String env = this.tmp.resolve("missing") + java.io.File.pathSeparator + config;
		runner(new KubernetesConfigDetector(Map.of("KUBECONFIG", env), null, this.tmp.resolve("none")))
			.run((context) -> {
				assertThat(status(context).sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status(context).reason()).isEqualTo("kubeconfig " + config + " (from $KUBECONFIG)");
				assertThat(status(context).apiServer()).isEqualTo("https://10.1.2.3:6443");
			});
	}

	@Test
	void autoInClusterUsesTheServiceAccount() throws Exception {
		Path serviceAccount = TestClusters.writeServiceAccount(this.tmp.resolve("sa"));
		runner(new KubernetesConfigDetector(
						Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1", "KUBERNETES_SERVICE_PORT", "443"), null,
						serviceAccount))
			.run((context) -> {
				assertThat(status(context).sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status(context).reason()).isEqualTo("in-cluster service account " + serviceAccount);
				assertThat(status(context).apiServer()).isEqualTo("https://10.0.0.1:443");
			});
	}

	@Test
	void autoWithUnreadableKubeconfigOnlyLogs(CapturedOutput output) throws Exception {
		Path home = this.tmp.resolve("home");
		Files.createDirectories(home.resolve(".kube"));
		Path config = Files.writeString(home.resolve(".kube/config"), "apiVersion: v1\nkind: Config\n");
		runner(homeOnly(home))
			.withPropertyValues("kubeevents.log-events=false")
			.run((context) -> {
				assertThat(status(context).sink()).isEqualTo(EffectiveSink.LOG);
				assertThat(status(context).reason())
					.isEqualTo("kubeconfig " + config + " could not be loaded: No server in kubeconfig");
				assertThat(status(context).logEvents()).isTrue();
				assertThat(subscriberNames(context)).containsExactly("logging");
			});
		assertThat(output).contains("Kubernetes configuration kubeconfig " + config
				+ " could not be loaded (No server in kubeconfig): events will only be logged");
	}

	@Test
	void autoPrefersTheApplicationsApiClient() {
		ApiClient client = new ClientBuilder().setBasePath("http://127.0.0.1:1").build();
		runner().withBean(ApiClient.class, () -> client).run((context) -> {
			assertThat(status(context).sink()).isEqualTo(EffectiveSink.KUBERNETES);
			assertThat(status(context).reason()).isEqualTo("ApiClient bean");
			assertThat(status(context).apiServer()).isEqualTo("http://127.0.0.1:1");
			assertThat(status(context).eventSink()).isInstanceOf(CoreV1EventSink.class);
			assertThat(subscriberNames(context)).containsExactly("sink", "logging");
		});
	}

	@Test
	void autoPrefersTheApplicationsEventSinkAndWritesToIt() {
		InMemoryEventSink sink = new InMemoryEventSink();
		runner().withBean(EventSink.class, () -> sink)
			.withBean(ApiClient.class, () -> new ClientBuilder().setBasePath("http://127.0.0.1:1").build())
			.run((context) -> {
				assertThat(status(context).sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status(context).reason()).isEqualTo("EventSink bean");
				assertThat(status(context).apiServer()).isNull();
				assertThat(status(context).eventSink()).isSameAs(sink);
				context.getBean(EventRecorder.class)
					.event(TestClusters.pod("web-1"), EventType.WARNING, "BackOff", "Back-off restarting");
				await().until(() -> sink.created().size() == 1);
				assertThat(sink.created().get(0).getReason()).isEqualTo("BackOff");
				assertThat(sink.created().get(0).getType()).isEqualTo("Warning");
			});
	}

	@Test
	void kubernetesWithoutClusterFailsStartup() {
		runner().withPropertyValues("kubeevents.sink=kubernetes").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessage("kubeevents.sink=kubernetes, but no Kubernetes configuration was found (looked at "
						+ "$KUBECONFIG (unset), " + this.tmp.resolve("empty-home/.kube/config")
						+ ", in-cluster service account (" + this.tmp.resolve("no-service-account")
						+ ")). Provide a kubeconfig, run in a cluster, define an ApiClient bean, or set kubeevents.sink"
						+ " to auto or log.");
		});
	}

	@Test
	void kubernetesWithUnreadableKubeconfigFailsStartup() throws Exception {
		Path home = this.tmp.resolve("home");
		Files.createDirectories(home.resolve(".kube"));
		Path config = Files.writeString(home.resolve(".kube/config"), "apiVersion: v1\nkind: Config\n");
		runner(homeOnly(home))
			.withPropertyValues("kubeevents.sink=kubernetes")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(TestClusters.cause(context.getStartupFailure(), IllegalStateException.class))
					.hasMessage("kubeevents.sink=kubernetes, but the Kubernetes configuration kubeconfig " + config
							+ " could not be loaded: No server in kubeconfig");
			});
	}

	@Test
	void kubernetesWithKubeconfigWritesToItsServer() throws Exception {
		Path home = this.tmp.resolve("home");
		TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://127.0.0.1:1");
		runner(homeOnly(home))
			.withPropertyValues("kubeevents.sink=kubernetes", "kubeevents.log-events=false")
			.run((context) -> {
				assertThat(status(context).configured()).isEqualTo(SinkMode.KUBERNETES);
				assertThat(status(context).sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status(context).apiServer()).isEqualTo("http://127.0.0.1:1");
				assertThat(status(context).logEvents()).isFalse();
				assertThat(subscriberNames(context)).containsExactly("sink");
			});
	}

	@Test
	void kubernetesWithApiClientNeedsNoClusterConfiguration() {
		runner().withPropertyValues("kubeevents.sink=kubernetes")
			.withBean(ApiClient.class, () -> new ClientBuilder().setBasePath("http://127.0.0.1:1").build())
			.run((context) -> {
				assertThat(status(context).sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status(context).apiServer()).isEqualTo("http://127.0.0.1:1");
			});
	}

	@Test
	void logModeNeverWritesAndAlwaysLogs(CapturedOutput output) throws Exception {
		Path home = this.tmp.resolve("home");
		TestClusters.writeKubeconfig(home.resolve(".kube/config"), "http://127.0.0.1:1");
		runner(homeOnly(home))
			.withPropertyValues("kubeevents.sink=log", "kubeevents.log-events=false")
			.withBean(ApiClient.class, () -> new ClientBuilder().setBasePath("http://127.0.0.1:1").build())
			.withBean(EventSink.class, InMemoryEventSink::new)
			.run((context) -> {
				KubeEventsStatus status = status(context);
				assertThat(status).isEqualTo(
						new KubeEventsStatus(SinkMode.LOG, EffectiveSink.LOG, "kubeevents.sink=log", null, true, null));
				assertThat(subscriberNames(context)).containsExactly("logging");
				assertThat(sinkNames(context)).isEmpty();
				context.getBean(EventRecorder.class)
					.event(TestClusters.pod("web-1"), EventType.NORMAL, "Pulled", "Image pulled");
				await().until(() -> output.getOut()
					.contains("Event occurred object=\"default/web-1\" fieldPath=\"\" kind=\"Pod\" apiVersion=\"v1\""
							+ " type=\"Normal\" reason=\"Pulled\" message=\"Image pulled\""));
				assertThat(((InMemoryEventSink) context.getBean(EventSink.class)).created()).isEmpty();
			});
		assertThat(output).doesNotContain(NO_CLUSTER_WARNING);
	}

	@Test
	void noneModeNeitherWritesNorLogsButCounts() {
		runner().withPropertyValues("kubeevents.sink=none")
			.withBean(EventSink.class, InMemoryEventSink::new)
			.run((context) -> {
				assertThat(status(context)).isEqualTo(
						new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, "kubeevents.sink=none", null, false, null));
				assertThat(subscriberNames(context)).isEmpty();
				EventRecorder recorder = context.getBean(EventRecorder.class);
				recorder.event(TestClusters.pod("web-1"), "Critical", "Reason", "bad type");
				assertThat(context.getBean(EventBroadcaster.class).counters().dropped(DropReason.INVALID_INPUT))
					.isEqualTo(1);
			});
	}

	@Test
	void componentDefaultsToKubeEvents() {
		runner().run((context) -> assertThat(context.getBean(EventSource.class).component()).isEqualTo("kube-events"));
	}

	@Test
	void componentDefaultsToTheApplicationName() {
		runner().withPropertyValues("spring.application.name=orders")
			.run((context) -> assertThat(context.getBean(EventSource.class).component()).isEqualTo("orders"));
	}

	@Test
	void componentPropertyWins() {
		runner().withPropertyValues("spring.application.name=orders", "kubeevents.component=orders-controller")
			.run((context) -> assertThat(context.getBean(EventSource.class).component())
				.isEqualTo("orders-controller"));
	}

	private ApplicationContextRunner withoutSystemEnvironment() {
		return runner().withInitializer((context) -> context.getEnvironment()
			.getPropertySources()
			.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME));
	}

	@Test
	void hostDefaultsToPodName() {
		withoutSystemEnvironment().withPropertyValues("POD_NAME=web-7d9f", "HOSTNAME=node-1")
			.run((context) -> assertThat(context.getBean(EventSource.class).host()).isEqualTo("web-7d9f"));
	}

	@Test
	void hostDefaultsToHostnameWithoutPodName() {
		withoutSystemEnvironment().withPropertyValues("HOSTNAME=node-1")
			.run((context) -> assertThat(context.getBean(EventSource.class).host()).isEqualTo("node-1"));
	}

	@Test
	void hostDefaultsToEmpty() {
		withoutSystemEnvironment()
			.run((context) -> assertThat(context.getBean(EventSource.class)).isEqualTo(new EventSource("kube-events", "")));
	}

	@Test
	void hostPropertyWins() {
		withoutSystemEnvironment().withPropertyValues("POD_NAME=web-7d9f", "kubeevents.host=instance-3")
			.run((context) -> assertThat(context.getBean(EventSource.class).host()).isEqualTo("instance-3"));
	}

}
