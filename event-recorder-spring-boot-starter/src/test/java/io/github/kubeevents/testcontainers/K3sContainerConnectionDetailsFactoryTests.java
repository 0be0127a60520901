package io.github.kubeevents.testcontainers;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import javax.net.ssl.KeyManager;
import javax.net.ssl.X509KeyManager;

import io.github.kubeevents.status.EffectiveSink;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.testsupport.TestClusters;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.auth.ApiKeyAuth;
import io.kubernetes.client.util.ClientBuilder;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.boot.testcontainers.service.connection.ServiceConnectionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link K3sContainerConnectionDetailsFactory}, without Docker: a {@link StubK3sContainer} returns a
 * kubeconfig of the shape K3s writes, and Spring Boot's own {@code @ServiceConnection} machinery
 * ({@link ServiceConnectionAutoConfiguration}, which finds the factory through {@code META-INF/spring.factories})
 * turns it into the recorder's {@link KubeEventsConnectionDetails}.
 */
class K3sContainerConnectionDetailsFactoryTests {

	private static final String K3S_SERVER = "https://localhost:32789";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ServiceConnectionAutoConfiguration.class, KubeEventsAutoConfiguration.class))
		.withPropertyValues(TestClusters.noClusterProperties(Path.of("target/k3s-factory-tests")))
		.withPropertyValues("kubeevents.sink.api=core/v1", "kubeevents.log-events=false");

	@Test
	void serviceConnectionK3sContainerIsWhereTheRecorderWrites() {
		this.runner.withUserConfiguration(K3sConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(KubeEventsConnectionDetails.class);
			assertThat(context.getBean(KubeEventsConnectionDetails.class))
				.isInstanceOf(K3sContainerConnectionDetailsFactory.K3sContainerConnectionDetails.class);
			KubeEventsStatus status = context.getBean(KubeEventsStatus.class);
			assertThat(status.sink()).isEqualTo(EffectiveSink.KUBERNETES);
			assertThat(status.reason()).isEqualTo("connection details: K3sContainer " + StubK3sContainer.IMAGE);
			assertThat(status.apiServer()).isEqualTo(K3S_SERVER);
		});
	}

	@Test
	void clientUsesTheServerCaAndClientCertificateOfTheKubeconfig() {
		this.runner.withUserConfiguration(K3sConfiguration.class).run((context) -> {
			ApiClient client = context.getBean(KubeEventsConnectionDetails.class).apiClient();
			assertThat(client.getBasePath()).isEqualTo(K3S_SERVER);
			assertThat(client.isVerifyingSsl()).isTrue();
			assertThat(client.getReadTimeout()).isEqualTo(KubeEventsConnectionDetails.CLIENT_READ_TIMEOUT.toMillis());
			assertThat(clientCertificate(client).getSubjectX500Principal().getName())
				.isEqualTo("CN=system:admin,O=system:masters");
			assertThat(((ApiKeyAuth) client.getAuthentication("BearerToken")).getApiKey()).as("bearer token").isNull();
			assertThat(context.getBean(KubeEventsConnectionDetails.class).apiClient()).isSameAs(client);
			assertThat(context.getBean(StubK3sContainer.class).starts()).as("container starts").isPositive();
		});
	}

	@Test
	void connectionDetailsWinOverAnApplicationApiClient() {
		this.runner.withUserConfiguration(K3sConfiguration.class)
			.withBean(ApiClient.class, () -> new ClientBuilder().setBasePath("https://elsewhere.example:6443").build())
			.run((context) -> assertThat(context.getBean(KubeEventsStatus.class).apiServer()).isEqualTo(K3S_SERVER));
	}

	@Test
	void containerWithoutKubeconfigFailsStartupWithTheReason() {
		this.runner.withUserConfiguration(K3sWithoutKubeconfigConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(IllegalStateException.class)
				.hasMessage("K3sContainer returned no kubeconfig; is the container started?");
		});
	}

	@Test
	void withoutAServiceConnectionTheStarterDetectsAsUsual() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(KubeEventsConnectionDetails.class).hasBean("kubeEventsConnectionDetails");
			assertThat(context.getBean(KubeEventsStatus.class).sink()).isEqualTo(EffectiveSink.LOG);
		});
	}

	private static X509Certificate clientCertificate(ApiClient client) {
		KeyManager[] keyManagers = client.getKeyManagers();
		assertThat(keyManagers).as("key managers").isNotNull();
		X509KeyManager keyManager = Arrays.stream(keyManagers)
			.filter(X509KeyManager.class::isInstance)
			.map(X509KeyManager.class::cast)
			.findFirst()
			.orElseThrow();
		String[] aliases = keyManager.getClientAliases("EC", null);
		assertThat(aliases).as("EC client key aliases").hasSize(1);
		return keyManager.getCertificateChain(aliases[0])[0];
	}

	@Configuration(proxyBeanMethods = false)
	static class K3sConfiguration {

		@Bean
		@ServiceConnection
		StubK3sContainer k3s() {
			return new StubK3sContainer(StubK3sContainer.fixtureKubeconfig());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class K3sWithoutKubeconfigConfiguration {

		@Bean
		@ServiceConnection
		StubK3sContainer k3s() {
			return new StubK3sContainer(null);
		}

	}

}
