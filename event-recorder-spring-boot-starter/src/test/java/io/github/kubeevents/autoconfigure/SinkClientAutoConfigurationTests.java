package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.status.SinkTarget;
import io.github.kubeevents.status.EffectiveSink;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkClient;
import java.nio.file.Path;

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
 * classpath starts as before.
 */
@ExtendWith(OutputCaptureExtension.class)
class SinkClientAutoConfigurationTests {

	/** Refuses connections: discovery at start fails at once (the choice of client is made before). */
	private static final String FABRIC8_URL = "http://127.0.0.1:1/";

	private static final String OFFICIAL_URL = "http://127.0.0.1:2";

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> Machines.noCluster(this.tmp))
			.withPropertyValues("kubeevents.log-events=false", "kubeevents.sink.api=core/v1");
	}

	private static KubernetesClient fabric8() {
		Config config = new ConfigBuilder(Config.empty()).withMasterUrl(FABRIC8_URL).build();
		return new KubernetesClientBuilder().withConfig(config).build();
	}

	private static ApiClient official() {
		return new ClientBuilder().setBasePath(OFFICIAL_URL).build();
	}

	private static KubeEventsStatus status(AssertableApplicationContext context) {
		return context.getBean(KubeEventsStatus.class);
	}

	@Test
	void autoWithAKubernetesClientBeanAndNoOfficialClientWritesThroughFabric8(CapturedOutput output) {
		runner().withBean(KubernetesClient.class, SinkClientAutoConfigurationTests::fabric8).run((context) -> {
			assertThat(context).hasNotFailed();
			KubeEventsStatus status = status(context);
			assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
			assertThat(status.client()).isEqualTo("fabric8");
			assertThat(status.reason()).isEqualTo("KubernetesClient bean");
			assertThat(status.apiServer()).isEqualTo(FABRIC8_URL);
			assertThat(status.target()).isInstanceOfSatisfying(SinkTarget.OtherClient.class,
					(target) -> assertThat(target.eventsClient()).isInstanceOf(Fabric8EventsClient.class));
			assertThat(status.describe()).isEqualTo("writing Events to " + FABRIC8_URL + " (KubernetesClient bean)"
					+ " with the fabric8 client (kubeevents.sink.client=auto: a KubernetesClient bean and no official"
					+ " client configured)");
		});
		assertThat(output).contains("with the fabric8 client (kubeevents.sink.client=auto: a KubernetesClient bean");
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
				assertThat(context).hasNotFailed().doesNotHaveBean(Fabric8ClientBean.class);
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
