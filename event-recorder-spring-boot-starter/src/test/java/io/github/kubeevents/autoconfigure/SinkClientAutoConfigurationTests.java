package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.status.EffectiveSink;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkClient;
import io.github.kubeevents.status.SinkMode;
import io.github.kubeevents.status.SinkTarget;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.kubeevents.fabric8.Fabric8EventsClient;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kubeevents.sink.client}: which client events are written through, for each condition (the fabric8
 * module and a {@code KubernetesClient} bean present or not, the official client configured or not), what the
 * status, the endpoint's {@code client} and the startup line say, and that an application without fabric8 on the
 * classpath starts as before. The bean is a client, not a cluster: whether events are written at all is decided as
 * without it (a pod, a kubeconfig opted in, the application's {@code ApiClient} or connection details).
 */
@ExtendWith(OutputCaptureExtension.class)
class SinkClientAutoConfigurationTests {

	/** Refuses connections: discovery at start fails at once (the choice of client is made before). */
	private static final String FABRIC8_URL = "http://127.0.0.1:1/";

	private static final String OFFICIAL_URL = "http://127.0.0.1:2";

	/** Where fabric8's own configuration points when it finds no cluster. */
	private static final String FALLBACK_URL = "https://kubernetes.default.svc/";

	private static final String NOT_IN_KUBERNETES = "not running in Kubernetes; a kubeconfig is used only with"
			+ " kubeevents.kubeconfig.enabled=true or kubeevents.sink.mode=kubernetes";

	private static final String NOT_A_CLUSTER = "a fabric8 KubernetesClient bean is a client, not a cluster (it points"
			+ " at ";

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return runner(Machines.noCluster(this.tmp));
	}

	private ApplicationContextRunner runner(KubernetesConfigDetector detector) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> detector)
			.withPropertyValues("kubeevents.log-events=false", "kubeevents.sink.api=core/v1");
	}

	private static KubernetesClient fabric8() {
		return fabric8(FABRIC8_URL);
	}

	private static KubernetesClient fabric8(String masterUrl) {
		Config config = new ConfigBuilder(Config.empty()).withMasterUrl(masterUrl).build();
		return new KubernetesClientBuilder().withConfig(config).build();
	}

	private static List<String> subscriberNames(AssertableApplicationContext context) {
		return context.getBean(EventBroadcaster.class)
			.stats()
			.subscribers()
			.stream()
			.map(RecorderStats.Subscriber::name)
			.toList();
	}

	private static ApiClient official() {
		return new ClientBuilder().setBasePath(OFFICIAL_URL).build();
	}

	private static KubeEventsStatus status(AssertableApplicationContext context) {
		return context.getBean(KubeEventsStatus.class);
	}

	@Test
	void autoWithAKubernetesClientBeanAndNoOfficialClientWritesThroughFabric8InAPod(CapturedOutput output)
			throws IOException {
		runner(Machines.inPod(this.tmp, false)).withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				KubeEventsStatus status = status(context);
				assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status.client()).isEqualTo("fabric8");
				assertThat(status.reason())
					.isEqualTo("KubernetesClient bean; cluster: in-cluster service account " + this.tmp.resolve("sa"));
				assertThat(status.apiServer()).isEqualTo(FABRIC8_URL);
				assertThat(status.target()).isInstanceOfSatisfying(SinkTarget.OtherClient.class,
						(target) -> assertThat(target.eventsClient()).isInstanceOf(Fabric8EventsClient.class));
				assertThat(status.describe()).isEqualTo("writing Events to " + FABRIC8_URL + " (KubernetesClient bean;"
						+ " cluster: in-cluster service account " + this.tmp.resolve("sa") + ") with the fabric8 client"
						+ " (kubeevents.sink.client=auto: a KubernetesClient bean and no official client configured)");
			});
		assertThat(output).contains("with the fabric8 client (kubeevents.sink.client=auto: a KubernetesClient bean");
	}

	// A KubernetesClient bean is a client, not a cluster (issue 26 item 2): the bean never decides whether events
	// are written, only which client writes them where the official client would write too

	@Test
	void autoWithAKubernetesClientBeanAndNoClusterOnlyLogsAndSaysWhy(CapturedOutput output) {
		runner().withBean(KubernetesClient.class, () -> fabric8(FALLBACK_URL)).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(status(context)).isEqualTo(new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.LOG,
					NOT_IN_KUBERNETES + "; " + NOT_A_CLUSTER + FALLBACK_URL + ")", null, true, null));
			assertThat(subscriberNames(context)).containsExactly("logging");
		});
		assertThat(output).contains("not writing to a cluster (" + NOT_IN_KUBERNETES + "; " + NOT_A_CLUSTER
				+ FALLBACK_URL + ")), logging events");
	}

	@Test
	void autoWithAKubernetesClientBeanAndAKubeconfigThatIsNotOptedInOnlyLogs() throws IOException {
		runner(Machines.developerMachine(this.tmp)).withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.run((context) -> {
				assertThat(status(context).sink()).isEqualTo(EffectiveSink.LOG);
				assertThat(status(context).reason()).isEqualTo(NOT_IN_KUBERNETES + "; " + NOT_A_CLUSTER + FABRIC8_URL + ")");
				assertThat(subscriberNames(context)).containsExactly("logging");
			});
	}

	@Test
	void autoWithAKubernetesClientBeanAndAKubeconfigOptedInWritesThroughFabric8() throws IOException {
		runner(Machines.developerMachine(this.tmp)).withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.withPropertyValues("kubeevents.kubeconfig.enabled=true")
			.run((context) -> {
				KubeEventsStatus status = status(context);
				assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status.client()).isEqualTo("fabric8");
				assertThat(status.apiServer()).isEqualTo(FABRIC8_URL);
				assertThat(status.reason()).isEqualTo("KubernetesClient bean; cluster: kubeconfig "
						+ this.tmp.resolve("env/kubeconfig") + " (from $KUBECONFIG)");
				assertThat(subscriberNames(context)).containsExactly("sink");
			});
	}

	@Test
	void fabric8WithoutAClusterOnlyLogsUnderAutoToo() {
		runner().withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.withPropertyValues("kubeevents.sink.client=fabric8")
			.run((context) -> {
				assertThat(status(context).sink()).isEqualTo(EffectiveSink.LOG);
				assertThat(status(context).reason()).endsWith(NOT_A_CLUSTER + FABRIC8_URL + ")");
			});
	}

	@Test
	void fabric8WithConnectionDetailsOfTheApplicationWritesThroughTheBeanWithoutBuildingTheirClient() {
		KubeEventsConnectionDetails details = new KubeEventsConnectionDetails() {

			@Override
			public ApiClient apiClient() {
				throw new IllegalStateException("the official client is not used");
			}

			@Override
			public String description() {
				return "mine";
			}

		};
		runner().withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.withBean(KubeEventsConnectionDetails.class, () -> details)
			.withPropertyValues("kubeevents.sink.client=fabric8")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(status(context).client()).isEqualTo("fabric8");
				assertThat(status(context).reason()).isEqualTo("KubernetesClient bean; cluster: connection details: mine");
			});
	}

	@Test
	void kubernetesWithAKubernetesClientBeanAndNoClusterFailsStartupNamingTheBean() {
		for (String client : List.of("auto", "fabric8")) {
			runner().withBean(KubernetesClient.class, () -> fabric8(FALLBACK_URL))
				.withPropertyValues("kubeevents.sink.mode=kubernetes", "kubeevents.sink.client=" + client)
				.run((context) -> {
					assertThat(context).as(client).hasFailed();
					assertThat(context.getStartupFailure()).rootCause()
						.isInstanceOf(NoKubernetesClusterException.class)
						.hasMessage("no Kubernetes configuration was found; " + NOT_A_CLUSTER + FALLBACK_URL + ")");
					FailureAnalysis analysis = new NoKubernetesClusterFailureAnalyzer()
						.analyze(context.getStartupFailure());
					assertThat(analysis.getDescription()).isEqualTo("The Kubernetes event recorder is configured to"
							+ " write to a cluster (kubeevents.sink.mode=kubernetes), but no Kubernetes configuration"
							+ " was found; " + NOT_A_CLUSTER + FALLBACK_URL + ").\n\nLooked at: "
							+ Machines.noCluster(this.tmp).describeSearch(true));
					assertThat(analysis.getAction()).startsWith("Do one of these:");
				});
		}
	}

	@Test
	void kubernetesWithTheOfficialClientAndNoClusterFailsStartupBesideAKubernetesClientBean() {
		runner().withBean(KubernetesClient.class, () -> fabric8(FALLBACK_URL))
			.withPropertyValues("kubeevents.sink.mode=kubernetes", "kubeevents.sink.client=official")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(NoKubernetesClusterException.class)
				.hasMessage("no Kubernetes configuration was found"));
	}

	@Test
	void kubernetesWithAKubernetesClientBeanAndAKubeconfigWritesThroughFabric8() throws IOException {
		runner(Machines.developerMachine(this.tmp)).withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.withPropertyValues("kubeevents.sink.mode=kubernetes")
			.run((context) -> {
				assertThat(status(context).client()).isEqualTo("fabric8");
				assertThat(status(context).reason()).isEqualTo("KubernetesClient bean; cluster: kubeconfig "
						+ this.tmp.resolve("env/kubeconfig") + " (from $KUBECONFIG)");
			});
	}

	@Test
	void autoWithAKubernetesClientBeanAndAnApiClientBeanWritesThroughTheOfficialClient() {
		runner().withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.withBean(ApiClient.class, SinkClientAutoConfigurationTests::official)
			.run((context) -> {
				KubeEventsStatus status = status(context);
				assertThat(status.client()).isEqualTo("official");
				assertThat(status.apiServer()).isEqualTo(OFFICIAL_URL);
				assertThat(status.describe()).isEqualTo("writing Events to " + OFFICIAL_URL + " (ApiClient bean) with the"
						+ " official client (kubeevents.sink.client=auto: the official client is configured (ApiClient"
						+ " bean), the KubernetesClient bean is not used)");
			});
	}

	@Test
	void autoWithAKubernetesClientBeanAndConnectionDetailsOfTheApplicationWritesThroughTheOfficialClient() {
		runner().withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.withBean(KubeEventsConnectionDetails.class, () -> SinkClientAutoConfigurationTests::official)
			.run((context) -> {
				KubeEventsStatus status = status(context);
				assertThat(status.client()).isEqualTo("official");
				assertThat(status.apiServer()).isEqualTo(OFFICIAL_URL);
				assertThat(status.describe()).contains("with the official client (kubeevents.sink.client=auto: the"
						+ " official client is configured");
			});
	}

	@Test
	void autoWithoutAKubernetesClientBeanWritesThroughTheOfficialClient() {
		runner().withBean(ApiClient.class, SinkClientAutoConfigurationTests::official).run((context) -> {
			KubeEventsStatus status = status(context);
			assertThat(status.client()).isEqualTo("official");
			assertThat(status.describe()).isEqualTo("writing Events to " + OFFICIAL_URL + " (ApiClient bean) with the"
					+ " official client (kubeevents.sink.client=auto: no fabric8 KubernetesClient bean)");
		});
	}

	@Test
	void officialIgnoresAKubernetesClientBean() {
		runner().withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.withBean(ApiClient.class, SinkClientAutoConfigurationTests::official)
			.withPropertyValues("kubeevents.sink.client=official")
			.run((context) -> {
				assertThat(status(context).client()).isEqualTo("official");
				assertThat(status(context).describe()).endsWith("with the official client (kubeevents.sink.client=official)");
			});
	}

	@Test
	void fabric8WritesThroughTheKubernetesClientBeanEvenWithAnApiClientBean() {
		runner().withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.withBean(ApiClient.class, SinkClientAutoConfigurationTests::official)
			.withPropertyValues("kubeevents.sink.client=fabric8")
			.run((context) -> {
				assertThat(status(context).client()).isEqualTo("fabric8");
				assertThat(status(context).describe()).endsWith("with the fabric8 client (kubeevents.sink.client=fabric8)");
			});
	}

	@Test
	void fabric8WithoutAKubernetesClientBeanFailsStartupNamingTheProperty() {
		runner().withBean(ApiClient.class, SinkClientAutoConfigurationTests::official)
			.withPropertyValues("kubeevents.sink.client=fabric8")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOfSatisfying(InvalidKubeEventsPropertyException.class, (ex) -> {
					assertThat(ex.property()).isEqualTo("kubeevents.sink.client");
					assertThat(ex.requirement()).isEqualTo("needs a (single) fabric8 KubernetesClient bean");
				}));
	}

	@Test
	void fabric8WithoutTheModuleOnTheClasspathFailsStartupNamingTheModule() {
		runner().withClassLoader(new FilteredClassLoader(Fabric8EventsClient.class))
			.withBean(ApiClient.class, SinkClientAutoConfigurationTests::official)
			.withPropertyValues("kubeevents.sink.client=fabric8")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOfSatisfying(InvalidKubeEventsPropertyException.class,
						(ex) -> assertThat(ex.requirement()).startsWith("needs io.github.kubeevents:event-recorder-fabric8")));
	}

	@Test
	void withoutFabric8OnTheClasspathAutoStartsWithTheOfficialClient() {
		runner().withClassLoader(new FilteredClassLoader("io.fabric8", "io.github.kubeevents.fabric8"))
			.withBean(ApiClient.class, SinkClientAutoConfigurationTests::official)
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean("kubeEventsFabric8Client");
				assertThat(status(context).client()).isEqualTo("official");
			});
	}

	@Test
	void anApplicationSinkBeanWinsOverEitherClient() {
		runner().withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8)
			.withBean(io.github.kubeevents.sink.EventSink.class, () -> new io.github.kubeevents.sink.EventSink() {

				@Override
				public io.kubernetes.client.openapi.models.CoreV1Event create(
						io.kubernetes.client.openapi.models.CoreV1Event event) {
					return event;
				}

				@Override
				public io.kubernetes.client.openapi.models.CoreV1Event patch(
						io.kubernetes.client.openapi.models.CoreV1Event event, CountPatch patch) {
					return event;
				}

			})
			.withPropertyValues("kubeevents.sink.client=fabric8")
			.run((context) -> {
				assertThat(status(context).reason()).isEqualTo("EventSink bean");
				assertThat(status(context).client()).isNull();
			});
	}

	@Test
	void anUnknownClientFailsStartup() {
		runner().withPropertyValues("kubeevents.sink.client=jersey")
			.run((context) -> assertThat(context).hasFailed());
	}

}
