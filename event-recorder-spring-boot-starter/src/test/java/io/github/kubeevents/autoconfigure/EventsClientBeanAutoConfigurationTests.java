package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.fabric8.Fabric8EventsClient;
import io.github.kubeevents.introspect.RecorderStats;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.status.EffectiveSink;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkMode;
import io.github.kubeevents.status.SinkTarget;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.util.ClientBuilder;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The client seam, in Spring Boot's form for Redis clients: each client configuration contributes an
 * {@link EventsClient} bean under its conditions (the fabric8 one for {@code kubeevents.sink.client=fabric8}, and
 * for {@code auto} without the official client configured; the official one for {@code auto} and {@code official}
 * when no {@code EventsClient} bean is there yet), and an {@code EventsClient} bean of the application replaces both
 * and is written through as it is: a third client with no other change. Which client {@code auto} chooses, and what
 * the status says for the built-in clients, is {@link SinkClientAutoConfigurationTests}.
 */
class EventsClientBeanAutoConfigurationTests {

	private static final String FABRIC8_BEAN = "kubeEventsFabric8Client";

	private static final String OFFICIAL_BEAN = "kubeEventsOfficialClient";

	private static final String NOT_IN_KUBERNETES = "not running in Kubernetes; a kubeconfig is used only with"
			+ " kubeevents.kubeconfig.enabled=true or kubeevents.sink.mode=kubernetes";

	private static final String NOT_A_CLUSTER = "an EventsClient bean of the application is a client, not a cluster";

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner(KubernetesConfigDetector detector) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> detector)
			.withPropertyValues("kubeevents.log-events=false", "kubeevents.sink.api=core/v1");
	}

	private ApplicationContextRunner inPod() throws IOException {
		return runner(Machines.inPod(this.tmp, false));
	}

	private ApplicationContextRunner noCluster() {
		return runner(Machines.noCluster(this.tmp));
	}

	private static KubernetesClient fabric8() {
		Config config = new ConfigBuilder(Config.empty()).withMasterUrl("http://127.0.0.1:1/").build();
		return new KubernetesClientBuilder().withConfig(config).build();
	}

	private static ApiClient official() {
		return new ClientBuilder().setBasePath("http://127.0.0.1:2").build();
	}

	private static List<String> eventsClientBeans(AssertableApplicationContext context) {
		return List.of(context.getBeanNamesForType(EventsClient.class));
	}

	private static List<String> subscriberNames(AssertableApplicationContext context) {
		return context.getBean(EventBroadcaster.class)
			.stats()
			.subscribers()
			.stream()
			.map(RecorderStats.Subscriber::name)
			.toList();
	}

	private static KubeEventsStatus status(AssertableApplicationContext context) {
		return context.getBean(KubeEventsStatus.class);
	}

	// an EventsClient bean of the application

	@Test
	void anEventsClientBeanOfTheApplicationIsWrittenThroughAndNeitherBuiltInClientIsCreated() throws IOException {
		ThirdClient mine = new ThirdClient();
		inPod().withBean(KubernetesClient.class, EventsClientBeanAutoConfigurationTests::fabric8)
			.withBean("myEventsClient", EventsClient.class, () -> mine)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(eventsClientBeans(context)).containsExactly("myEventsClient");
				assertThat(context).doesNotHaveBean(FABRIC8_BEAN).doesNotHaveBean(OFFICIAL_BEAN);
				KubeEventsStatus status = status(context);
				assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
				assertThat(status.client()).isEqualTo("application");
				assertThat(status.apiServer()).isNull();
				assertThat(status.target()).isEqualTo(new SinkTarget.OtherClient(mine, "application", null,
						"EventsClient bean"));
				assertThat(status.describe()).isEqualTo("writing Events to the API server (EventsClient bean; cluster:"
						+ " in-cluster service account " + this.tmp.resolve("sa") + ") with the application client (an"
						+ " EventsClient bean of the application (" + ThirdClient.class.getName() + "))");
				context.getBean(EventRecorder.class).event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "ok");
				await().until(() -> mine.sink.created().size() == 1);
				assertThat(mine.sink.created().get(0).getReason()).isEqualTo("Started");
			});
	}

	@Test
	void anEventsClientBeanOfTheApplicationWinsWhateverKubeeventsSinkClientSays() throws IOException {
		for (String client : List.of("official", "fabric8")) {
			ThirdClient mine = new ThirdClient();
			inPod().withBean(EventsClient.class, () -> mine)
				.withBean(ApiClient.class, EventsClientBeanAutoConfigurationTests::official)
				.withPropertyValues("kubeevents.sink.client=" + client)
				.run((context) -> {
					assertThat(context).as(client).hasNotFailed().doesNotHaveBean(FABRIC8_BEAN).doesNotHaveBean(OFFICIAL_BEAN);
					assertThat(status(context).target()).as(client)
						.isInstanceOfSatisfying(SinkTarget.OtherClient.class,
								(target) -> assertThat(target.eventsClient()).isSameAs(mine));
					assertThat(status(context).describe()).as(client)
						.endsWith("with the application client (an EventsClient bean of the application ("
								+ ThirdClient.class.getName() + "), kubeevents.sink.client=" + client + " is not used)");
				});
		}
	}

	@Test
	void anEventsClientBeanOfTheApplicationIsAClientNotAClusterAndOnlyLogsWithoutOne() {
		ThirdClient mine = new ThirdClient();
		noCluster().withBean(EventsClient.class, () -> mine).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(status(context)).isEqualTo(new KubeEventsStatus(SinkMode.AUTO, EffectiveSink.LOG,
					NOT_IN_KUBERNETES + "; " + NOT_A_CLUSTER, null, true, null));
			assertThat(subscriberNames(context)).containsExactly("logging");
			assertThat(mine.calls).hasValue(0);
		});
	}

	@Test
	void kubernetesWithAnEventsClientBeanAndNoClusterFailsStartupNamingTheBean() {
		noCluster().withBean(EventsClient.class, ThirdClient::new)
			.withPropertyValues("kubeevents.sink.mode=kubernetes")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(NoKubernetesClusterException.class)
				.hasMessage("no Kubernetes configuration was found; " + NOT_A_CLUSTER));
	}

	@Test
	void modeLogNeverAsksAnEventsClientBean() throws IOException {
		ThirdClient mine = new ThirdClient();
		inPod().withBean(EventsClient.class, () -> mine)
			.withPropertyValues("kubeevents.sink.mode=log")
			.run((context) -> {
				assertThat(status(context).sink()).isEqualTo(EffectiveSink.LOG);
				assertThat(status(context).reason()).isEqualTo("kubeevents.sink.mode=log");
				assertThat(mine.calls).hasValue(0);
			});
	}

	@Test
	void anApplicationSinkBeanWinsOverAnEventsClientBean() throws IOException {
		ThirdClient mine = new ThirdClient();
		inPod().withBean(EventsClient.class, () -> mine)
			.withBean(EventSink.class, InMemoryEventSink::new)
			.run((context) -> {
				assertThat(status(context).reason()).isEqualTo("EventSink bean");
				assertThat(status(context).client()).isNull();
				assertThat(mine.calls).hasValue(0);
			});
	}

	@Test
	void aFabric8EventsClientBeanOfTheApplicationIsNamedAsFabric8() throws IOException {
		KubernetesClient kubernetesClient = fabric8();
		inPod().withBean("mine", Fabric8EventsClient.class, () -> Fabric8EventsClient.of(kubernetesClient))
			.withBean(ApiClient.class, EventsClientBeanAutoConfigurationTests::official)
			.run((context) -> {
				assertThat(eventsClientBeans(context)).containsExactly("mine");
				KubeEventsStatus status = status(context);
				assertThat(status.client()).isEqualTo("fabric8");
				assertThat(status.apiServer()).isEqualTo("http://127.0.0.1:1/");
				assertThat(status.describe()).isEqualTo("writing Events to http://127.0.0.1:1/ (Fabric8EventsClient"
						+ " bean; cluster: ApiClient bean) with the fabric8 client (an EventsClient bean of the"
						+ " application (" + Fabric8EventsClient.class.getName() + "))");
			});
	}

	// the official client configuration

	@Test
	void theOfficialConfigurationContributesTheClientOfTheConnectionDetailsWithoutFabric8() {
		ApiClient apiClient = official();
		noCluster().withClassLoader(new FilteredClassLoader("io.fabric8", "io.github.kubeevents.fabric8"))
			.withBean(ApiClient.class, () -> apiClient)
			.run((context) -> {
				assertThat(eventsClientBeans(context)).containsExactly(OFFICIAL_BEAN);
				assertThat(context.getBean(OFFICIAL_BEAN)).hasToString("official client of ApiClient bean");
				assertThat(status(context).target()).isEqualTo(new SinkTarget.Client(apiClient));
			});
	}

	@Test
	void theOfficialConfigurationContributesForOfficialBesideAKubernetesClientBean() {
		noCluster().withBean(KubernetesClient.class, EventsClientBeanAutoConfigurationTests::fabric8)
			.withBean(ApiClient.class, EventsClientBeanAutoConfigurationTests::official)
			.withPropertyValues("kubeevents.sink.client=official")
			.run((context) -> assertThat(eventsClientBeans(context)).containsExactly(OFFICIAL_BEAN));
	}

	@Test
	void theOfficialConfigurationContributesNothingForFabric8() {
		noCluster().withPropertyValues("kubeevents.sink.client=fabric8", "kubeevents.sink.mode=log")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(eventsClientBeans(context)).isEmpty();
			});
	}

	@Test
	void theOfficialClientBeanAsksTheConnectionDetailsForNothingInModeLog() {
		AtomicInteger asked = new AtomicInteger();
		KubeEventsConnectionDetails details = () -> {
			asked.incrementAndGet();
			return official();
		};
		noCluster().withBean(KubeEventsConnectionDetails.class, () -> details)
			.withPropertyValues("kubeevents.sink.mode=log")
			.run((context) -> {
				assertThat(eventsClientBeans(context)).containsExactly(OFFICIAL_BEAN);
				assertThat(asked).hasValue(0);
			});
	}

	@Test
	void theOfficialClientBeanAsksTheConnectionDetailsOnceWhenWriting() {
		AtomicInteger asked = new AtomicInteger();
		ApiClient apiClient = official();
		KubeEventsConnectionDetails details = () -> {
			asked.incrementAndGet();
			return apiClient;
		};
		noCluster().withBean(KubeEventsConnectionDetails.class, () -> details).run((context) -> {
			assertThat(status(context).target()).isEqualTo(new SinkTarget.Client(apiClient));
			assertThat(asked).hasValue(1);
		});
	}

	// the fabric8 client configuration

	@Test
	void theFabric8ConfigurationContributesTheKubernetesClientBeanUnderAutoWithoutTheOfficialClientConfigured() {
		KubernetesClient kubernetesClient = fabric8();
		noCluster().withBean(KubernetesClient.class, () -> kubernetesClient).run((context) -> {
			assertThat(eventsClientBeans(context)).containsExactly(FABRIC8_BEAN);
			assertThat(context.getBean(FABRIC8_BEAN)).isInstanceOfSatisfying(Fabric8EventsClient.class,
					(client) -> assertThat(client.client()).isSameAs(kubernetesClient));
		});
	}

	@Test
	void theFabric8ConfigurationContributesForFabric8EvenWithAnApiClientBean() {
		noCluster().withBean(KubernetesClient.class, EventsClientBeanAutoConfigurationTests::fabric8)
			.withBean(ApiClient.class, EventsClientBeanAutoConfigurationTests::official)
			.withPropertyValues("kubeevents.sink.client=fabric8")
			.run((context) -> assertThat(eventsClientBeans(context)).containsExactly(FABRIC8_BEAN));
	}

	@Test
	void theFabric8ConfigurationBacksOffUnderAutoWhenTheOfficialClientIsConfigured() {
		KubeEventsConnectionDetails details = EventsClientBeanAutoConfigurationTests::official;
		noCluster().withBean(KubernetesClient.class, EventsClientBeanAutoConfigurationTests::fabric8)
			.withBean(ApiClient.class, EventsClientBeanAutoConfigurationTests::official)
			.run((context) -> assertThat(eventsClientBeans(context)).as("ApiClient bean").containsExactly(OFFICIAL_BEAN));
		noCluster().withBean(KubernetesClient.class, EventsClientBeanAutoConfigurationTests::fabric8)
			.withBean(KubeEventsConnectionDetails.class, () -> details)
			.run((context) -> assertThat(eventsClientBeans(context)).as("connection details")
				.containsExactly(OFFICIAL_BEAN));
	}

	@Test
	void theFabric8ConfigurationBacksOffForOfficialAndForTwoKubernetesClientBeans() {
		noCluster().withBean(KubernetesClient.class, EventsClientBeanAutoConfigurationTests::fabric8)
			.withPropertyValues("kubeevents.sink.client=official")
			.run((context) -> assertThat(eventsClientBeans(context)).as("official").containsExactly(OFFICIAL_BEAN));
		noCluster().withBean("one", KubernetesClient.class, EventsClientBeanAutoConfigurationTests::fabric8)
			.withBean("two", KubernetesClient.class, EventsClientBeanAutoConfigurationTests::fabric8)
			.run((context) -> assertThat(eventsClientBeans(context)).as("two beans").containsExactly(OFFICIAL_BEAN));
	}

	/** A third client: writes to a sink of its own and counts every call. */
	static final class ThirdClient implements EventsClient {

		final InMemoryEventSink sink = new InMemoryEventSink();

		final AtomicInteger calls = new AtomicInteger();

		@Override
		public EventSink coreV1Sink(Duration requestTimeout) {
			this.calls.incrementAndGet();
			return this.sink;
		}

		@Override
		public EventsV1Sink eventsV1Sink(Duration requestTimeout) {
			this.calls.incrementAndGet();
			return new EventsV1Sink() {

				@Override
				public EventsV1Event create(EventsV1Event event) {
					throw new UnsupportedOperationException("core/v1 only");
				}

				@Override
				public EventsV1Event patch(EventsV1Event event, SeriesPatch patch) {
					throw new UnsupportedOperationException("core/v1 only");
				}

			};
		}

		@Override
		public boolean servesEventsV1(Duration timeout) {
			this.calls.incrementAndGet();
			return false;
		}

		@Override
		public boolean eventsAllowed(String apiGroup, String verb, @Nullable String namespace, Duration timeout) {
			this.calls.incrementAndGet();
			return true;
		}

	}

}
