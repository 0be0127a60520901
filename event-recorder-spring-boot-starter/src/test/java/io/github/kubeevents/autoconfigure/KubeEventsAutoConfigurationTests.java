package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.DocOutputs;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.autoconfigure.endpoint.KubeEventsEndpointAutoConfiguration;
import io.github.kubeevents.autoconfigure.health.KubeEventsHealthContributorAutoConfiguration;
import io.github.kubeevents.autoconfigure.metrics.KubeEventsMetricsAutoConfiguration;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkTarget;
import io.github.kubeevents.status.SinkMode;
import io.github.kubeevents.status.EffectiveSink;
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
 * Tests for {@link KubeEventsAutoConfiguration}: switch, back-off, where events go (sink modes, the off-cluster
 * rule of {@code auto}, the precedence of the application's beans), component and host.
 */
@ExtendWith(OutputCaptureExtension.class)
class KubeEventsAutoConfigurationTests {

	private static final String NOT_IN_KUBERNETES = "not running in Kubernetes; a kubeconfig is used only with"
			+ " kubeevents.kubeconfig.enabled=true or kubeevents.sink.mode=kubernetes";

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return runner(Machines.noCluster(this.tmp));
	}

	private ApplicationContextRunner runner(KubernetesConfigDetector detector) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> detector);
	}

	private static KubeEventsStatus status(AssertableApplicationContext context) {
		return context.getBean(KubeEventsStatus.class);
	}

	private static List<String> subscriberNames(AssertableApplicationContext context) {
		return context.getBean(EventBroadcaster.class)
			.stats().subscribers()
			.stream()
			.map(RecorderStats.Subscriber::name)
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

	private static ApiClient client(String basePath) {
		return new ClientBuilder().setBasePath(basePath).build();
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
			assertThat(context.getBean(EventBroadcaster.class).stats().running()).isTrue();
			assertThat(context.getBean(KubeEventsLifecycle.class).isRunning()).isTrue();
		});
	}

	@Test
	void contextCloseShutsTheBroadcasterDown() {
		EventBroadcaster[] broadcaster = new EventBroadcaster[1];
		runner().run((context) -> broadcaster[0] = context.getBean(EventBroadcaster.class));
		assertThat(broadcaster[0].stats().running()).isFalse();
		assertThat(broadcaster[0].stats().state()).isEqualTo("terminated");
	}

	@Test
	void defaultDetectorLooksAtThisProcess() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withPropertyValues("kubeevents.sink.mode=none")
			.run((context) -> assertThat(context).hasSingleBean(KubernetesConfigDetector.class)
				.hasBean("kubeEventsConfigDetector"));
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
			assertThat(mine.stats().running()).isTrue();
			assertThat(mine.stats().queue().capacity()).isEqualTo(3);
			context.getBean(EventRecorder.class).event(TestClusters.pod("web-1"), EventType.NORMAL, "", "no reason");
			assertThat(mine.stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(1);
		});
		assertThat(mine.stats().running()).isFalse();
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
		KubeEventsStatus mine = new KubeEventsStatus(SinkMode.KUBERNETES, EffectiveSink.KUBERNETES, "mine", null, false, new SinkTarget.CoreV1(sink));
		runner().withBean(KubeEventsStatus.class, () -> mine).run((context) -> {
			assertThat(context).getBean(KubeEventsStatus.class).isSameAs(mine);
			assertThat(subscriberNames(context)).containsExactly("sink");
		});
	}

	@Test
	void userLifecycleReplacesOurs() {
		runner().withBean("myLifecycle", KubeEventsLifecycle.class,
				() -> new KubeEventsLifecycle(EventBroadcaster.builder().build(),
						new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, "mine", null, false, null), EventSource.of("mine"),
						Duration.ofSeconds(1)))
			.run((context) -> {
				assertThat(context).hasSingleBean(KubeEventsLifecycle.class).hasBean("myLifecycle");
				assertThat(context.getBean(EventBroadcaster.class).stats().running()).isFalse();
			});
	}

	@Test
	void userDetectorReplacesOurs() throws IOException {
		KubernetesConfigDetector mine = Machines.inPod(this.tmp, false);
		runner(mine).run((context) -> {
			assertThat(context).hasSingleBean(KubernetesConfigDetector.class)
				.doesNotHaveBean("kubeEventsConfigDetector")
				.getBean(KubernetesConfigDetector.class)
				.isSameAs(mine);
			assertThat(status(context).apiServer()).isEqualTo("https://10.0.0.1:443");
		});
	}

	// The off-cluster rule of sink=auto (issue 6 item 10): a test must fail if it changes

	@Test
	void autoOnADeveloperMachineDoesNotWriteToItsKubeconfigsCluster(CapturedOutput output) throws IOException {
		runner(Machines.developerMachine(this.tmp)).withPropertyValues("kubeevents.log-events=false")
			.run((context) -> {
				assertThat(status(context))
					.isEqualTo(new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.LOG, NOT_IN_KUBERNETES, null, true, null));
				assertThat(subscriberNames(context)).containsExactly("logging");
				assertThat(sinkNames(context)).isEmpty();
			});
		assertThat(output).contains("Recording Kubernetes events as component 'kube-events'")
			.contains("not writing to a cluster (" + NOT_IN_KUBERNETES + "), logging events");
	}

	/**
	 * The startup lines of docs/observability.md: a developer's machine named {@code laptop}, and a pod (the
	 * service account's directory, here a temporary one, shown as the real one).
	 */
	@Test
	void startupLinesOfTheDocs(CapturedOutput output) throws IOException {
		String startup = "Recording Kubernetes events as component";
		runner(Machines.developerMachine(this.tmp.resolve("laptop")))
			.withPropertyValues("spring.application.name=kube-events-sample", "POD_NAME=", "HOSTNAME=laptop")
			.run((context) -> assertThat(context).hasNotFailed());
		Path pod = this.tmp.resolve("pod");
		runner(Machines.inPod(pod, false))
			.withPropertyValues("spring.application.name=orders", "POD_NAME=orders-7f9c-abcde")
			.run((context) -> assertThat(context).hasNotFailed());
		String lines = output.getOut()
			.lines()
			.filter((line) -> line.contains(startup))
			.map((line) -> line.substring(line.indexOf(startup)))
			.map((line) -> line.replace(pod.resolve("sa").toString(), "/var/run/secrets/kubernetes.io/serviceaccount"))
			.collect(java.util.stream.Collectors.joining("\n"));
		DocOutputs.check("docs/observability.md", "startup-lines", lines);
	}

	@Test
	void autoOnADeveloperMachineWritesToTheKubeconfigsClusterWhenEnabled(CapturedOutput output) throws IOException {
		runner(Machines.developerMachine(this.tmp)).withPropertyValues("kubeevents.kubeconfig.enabled=true")
			.run((context) -> {
				KubeEventsStatus status = status(context);
				assertThat(status.configured()).isEqualTo(SinkMode.AUTO);
				assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status.reason())
					.isEqualTo("kubeconfig " + this.tmp.resolve("env/kubeconfig") + " (from $KUBECONFIG)");
				assertThat(status.apiServer()).isEqualTo("http://env.example:6443");
				assertThat(status.target()).isInstanceOf(SinkTarget.Client.class);
				assertThat(subscriberNames(context)).containsExactly("sink", "logging");
				assertThat(sinkNames(context)).containsExactly("sink");
			});
		assertThat(output).contains("writing Events to http://env.example:6443 (kubeconfig "
				+ this.tmp.resolve("env/kubeconfig") + " (from $KUBECONFIG)) with the official client"
				+ " (kubeevents.sink.client=auto: no fabric8 KubernetesClient bean), logging events");
	}

	@Test
	void autoInAPodWritesWithTheServiceAccount() throws IOException {
		runner(Machines.inPod(this.tmp, true)).run((context) -> {
			assertThat(status(context).sink()).isEqualTo(EffectiveSink.KUBERNETES);
			assertThat(status(context).reason()).isEqualTo("in-cluster service account " + this.tmp.resolve("sa"));
			assertThat(status(context).apiServer()).isEqualTo("https://10.0.0.1:443");
			assertThat(subscriberNames(context)).containsExactly("sink", "logging");
		});
	}

	@Test
	void kubernetesUsesADevelopersKubeconfig() throws IOException {
		runner(Machines.developerMachine(this.tmp))
			.withPropertyValues("kubeevents.sink.mode=kubernetes", "kubeevents.log-events=false")
			.run((context) -> {
				assertThat(status(context).configured()).isEqualTo(SinkMode.KUBERNETES);
				assertThat(status(context).sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status(context).apiServer()).isEqualTo("http://env.example:6443");
				assertThat(status(context).logEvents()).isFalse();
				assertThat(subscriberNames(context)).containsExactly("sink");
			});
	}

	@Test
	void kubernetesWithoutClusterFailsStartup() {
		runner().withPropertyValues("kubeevents.sink.mode=kubernetes").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(NoKubernetesClusterException.class)
				.hasMessage("no Kubernetes configuration was found");
		});
	}

	@Test
	void eventSinkBeanWinsOverConnectionDetailsApiClientAndDetection() throws IOException {
		InMemoryEventSink sink = new InMemoryEventSink();
		runner(Machines.inPod(this.tmp, true)).withBean(EventSink.class, () -> sink)
			.withBean(KubeEventsConnectionDetails.class, () -> () -> client("http://details:1"))
			.withBean(ApiClient.class, () -> client("http://client:1"))
			.run((context) -> {
				assertThat(status(context)).isEqualTo(
						new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.KUBERNETES, "EventSink bean", null, true, new SinkTarget.CoreV1(sink)));
				context.getBean(EventRecorder.class)
					.event(TestClusters.pod("web-1"), EventType.WARNING, "BackOff", "Back-off restarting");
				await().until(() -> sink.created().size() == 1);
				assertThat(sink.created().get(0).getReason()).isEqualTo("BackOff");
				assertThat(sink.created().get(0).getType()).isEqualTo("Warning");
			});
	}

	@Test
	void connectionDetailsBeanWinsOverApiClientAndDetection() throws IOException {
		runner(Machines.inPod(this.tmp, true))
			.withBean(KubeEventsConnectionDetails.class, () -> () -> client("http://details:1"))
			.withBean(ApiClient.class, () -> client("http://client:1"))
			.run((context) -> {
				assertThat(status(context).reason()).startsWith("connection details: ");
				assertThat(status(context).apiServer()).isEqualTo("http://details:1");
				assertThat(status(context).target()).isInstanceOf(SinkTarget.Client.class);
			});
	}

	@Test
	void detectedConnectionDetailsAreTheOverridePointWhenTheApplicationDeclaresNone() {
		runner().run((context) -> assertThat(context).hasSingleBean(KubeEventsConnectionDetails.class)
			.hasBean("kubeEventsConnectionDetails")
			.getBean(KubeEventsConnectionDetails.class)
			.isInstanceOf(DetectedKubeEventsConnectionDetails.class));
	}

	@Test
	void applicationConnectionDetailsReplaceTheDetectedOnes() throws IOException {
		KubeEventsConnectionDetails mine = () -> client("http://details:1");
		runner(Machines.inPod(this.tmp, true)).withBean("myDetails", KubeEventsConnectionDetails.class, () -> mine)
			.run((context) -> {
				assertThat(context).hasSingleBean(KubeEventsConnectionDetails.class)
					.doesNotHaveBean("kubeEventsConnectionDetails")
					.doesNotHaveBean(DetectedKubeEventsConnectionDetails.class);
				assertThat(status(context).apiServer()).isEqualTo("http://details:1");
			});
	}

	@Test
	void logAndNoneModesNeverAskTheConnectionDetailsForAClient() {
		KubeEventsConnectionDetails failing = () -> {
			throw new IllegalStateException("must not be asked");
		};
		for (String mode : List.of("log", "none")) {
			runner().withPropertyValues("kubeevents.sink.mode=" + mode)
				.withBean(KubeEventsConnectionDetails.class, () -> failing)
				.run((context) -> assertThat(context).hasNotFailed());
		}
	}

	@Test
	void kubernetesModeLetsTheDetectedDetailsUseAKubeconfigWithoutKubeconfigEnabled() throws IOException {
		runner(Machines.developerMachine(this.tmp)).withPropertyValues("kubeevents.sink.mode=kubernetes")
			.run((context) -> assertThat(context.getBean(KubeEventsConnectionDetails.class).apiClient().getBasePath())
				.isEqualTo("http://env.example:6443"));
	}

	@Test
	void apiClientBeanWinsOverDetection() throws IOException {
		runner(Machines.inPod(this.tmp, true)).withBean(ApiClient.class, () -> client("http://client:1"))
			.run((context) -> {
				assertThat(status(context).reason()).isEqualTo("ApiClient bean");
				assertThat(status(context).apiServer()).isEqualTo("http://client:1");
			});
	}

	@Test
	void logModeNeverWritesAndAlwaysLogs(CapturedOutput output) throws IOException {
		InMemoryEventSink sink = new InMemoryEventSink();
		runner(Machines.inPod(this.tmp, true))
			.withPropertyValues("kubeevents.sink.mode=log", "kubeevents.log-events=false")
			.withBean(ApiClient.class, () -> client("http://127.0.0.1:1"))
			.withBean(EventSink.class, () -> sink)
			.run((context) -> {
				assertThat(status(context)).isEqualTo(
						new KubeEventsStatus(SinkMode.LOG, EffectiveSink.LOG, "kubeevents.sink.mode=log", null, true, null));
				assertThat(subscriberNames(context)).containsExactly("logging");
				assertThat(sinkNames(context)).isEmpty();
				context.getBean(EventRecorder.class)
					.event(TestClusters.pod("web-1"), EventType.NORMAL, "Pulled", "Image pulled");
				await().until(() -> output.getOut()
					.contains("Event occurred object=\"default/web-1\" fieldPath=\"\" kind=\"Pod\" apiVersion=\"v1\""
							+ " type=\"Normal\" reason=\"Pulled\" message=\"Image pulled\""));
				assertThat(sink.created()).isEmpty();
			});
	}

	@Test
	void noneModeNeitherWritesNorLogsButCounts() {
		runner().withPropertyValues("kubeevents.sink.mode=none")
			.withBean(EventSink.class, InMemoryEventSink::new)
			.run((context) -> {
				assertThat(status(context)).isEqualTo(
						new KubeEventsStatus(SinkMode.NONE, EffectiveSink.NONE, "kubeevents.sink.mode=none", null, false, null));
				assertThat(subscriberNames(context)).isEmpty();
				context.getBean(EventRecorder.class).event(TestClusters.pod("web-1"), EventType.NORMAL, "", "no reason");
				assertThat(context.getBean(EventBroadcaster.class).stats().dropped(DropReason.INVALID_INPUT.tag())).isEqualTo(1);
			});
	}

	@Test
	void componentDefaultsToKubeEvents() {
		runner().run((context) -> assertThat(context.getBean(EventSource.class).component())
			.isEqualTo(KubeEventsAutoConfiguration.DEFAULT_COMPONENT)
			.isEqualTo("kube-events"));
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
	void hostDefaultsToTheMachinesHostNameOffAPodAsClientGoDoes() throws Exception {
		java.nio.file.Path kernel = java.nio.file.Path.of("/proc/sys/kernel/hostname");
		org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(kernel), "Linux");
		String machine = java.nio.file.Files.readString(kernel).trim();
		withoutSystemEnvironment().run((context) -> assertThat(context.getBean(EventSource.class))
			.isEqualTo(new EventSource("kube-events", machine)));
		withoutSystemEnvironment().withPropertyValues("HOSTNAME= ")
			.run((context) -> assertThat(context.getBean(EventSource.class).host()).isEqualTo(machine));
	}

	@Test
	void hostPropertyWins() {
		withoutSystemEnvironment().withPropertyValues("POD_NAME=web-7d9f", "kubeevents.host=instance-3")
			.run((context) -> assertThat(context.getBean(EventSource.class).host()).isEqualTo("instance-3"));
	}

}
