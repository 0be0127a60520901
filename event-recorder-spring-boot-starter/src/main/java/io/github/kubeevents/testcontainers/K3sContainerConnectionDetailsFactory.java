package io.github.kubeevents.testcontainers;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;

import io.github.kubeevents.autoconfigure.KubeEventsConnectionDetails;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import org.jspecify.annotations.Nullable;
import org.testcontainers.k3s.K3sContainer;

import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;

/**
 * {@link ContainerConnectionDetailsFactory} that creates {@link KubeEventsConnectionDetails} from a
 * {@code @ServiceConnection}-annotated {@link K3sContainer}: the recorder writes its Events into the container's
 * K3s, as {@code system:admin} (the client certificate of the kubeconfig K3s writes, which
 * {@link K3sContainer#getKubeConfigYaml()} returns with the server rewritten to the mapped port).
 *
 * <p>Registered in {@code META-INF/spring.factories}. Spring Boot loads it only when
 * {@code spring-boot-testcontainers} and {@code org.testcontainers:testcontainers-k3s} are both on the classpath:
 * without the first the class cannot be loaded and Boot's factory loader skips it, without the second
 * {@link #getConnectionDetails} answers {@code null}.
 *
 * <p>Stateless and thread-safe.
 */
class K3sContainerConnectionDetailsFactory
		extends ContainerConnectionDetailsFactory<K3sContainer, KubeEventsConnectionDetails> {

	K3sContainerConnectionDetailsFactory() {
		super(ANY_CONNECTION_NAME, "org.testcontainers.k3s.K3sContainer", "io.kubernetes.client.util.ClientBuilder");
	}

	@Override
	protected KubeEventsConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<K3sContainer> source) {
		return new K3sContainerConnectionDetails(source);
	}

	/**
	 * {@link KubeEventsConnectionDetails} backed by a {@link ContainerConnectionSource}. The client is built once,
	 * on the first call of {@link #apiClient()} (which starts the container if needed), with the read timeout of
	 * every client the starter builds ({@link KubeEventsConnectionDetails#CLIENT_READ_TIMEOUT}).
	 *
	 * <p>Thread-safe.
	 */
	static final class K3sContainerConnectionDetails extends ContainerConnectionDetails<K3sContainer>
			implements KubeEventsConnectionDetails {

		private final Object monitor = new Object();

		private @Nullable ApiClient client;

		K3sContainerConnectionDetails(ContainerConnectionSource<K3sContainer> source) {
			super(source);
		}

		/**
		 * A client for the container's K3s, from its kubeconfig (current context, client certificate of
		 * {@code system:admin}, the cluster's CA). The same instance on every call.
		 * @return the client
		 * @throws IllegalStateException when the kubeconfig cannot be turned into a client
		 */
		@Override
		public ApiClient apiClient() {
			synchronized (this.monitor) {
				if (this.client == null) {
					this.client = createClient(getContainer().getKubeConfigYaml());
				}
				return this.client;
			}
		}

		/**
		 * The container and its image, for the startup line and the endpoint.
		 * @return e.g. {@code "K3sContainer rancher/k3s:v1.35.4-k3s1"}
		 */
		@Override
		public String description() {
			return "K3sContainer " + getContainer().getDockerImageName();
		}

		static ApiClient createClient(@Nullable String kubeconfigYaml) {
			if (kubeconfigYaml == null || kubeconfigYaml.isBlank()) {
				throw new IllegalStateException("K3sContainer returned no kubeconfig; is the container started?");
			}
			try {
				KubeConfig kubeConfig = KubeConfig.loadKubeConfig(new StringReader(kubeconfigYaml));
				return ClientBuilder.kubeconfig(kubeConfig)
					.setReadTimeout(KubeEventsConnectionDetails.CLIENT_READ_TIMEOUT)
					.build();
			}
			catch (IOException ex) {
				throw new IllegalStateException("K3sContainer's kubeconfig could not be loaded: " + ex.getMessage(),
						new UncheckedIOException(ex));
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException("K3sContainer's kubeconfig could not be loaded: " + ex.getMessage(), ex);
			}
		}

	}

}
