package io.github.kubeevents.autoconfigure;

import java.time.Duration;

import io.kubernetes.client.openapi.ApiClient;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * The cluster the recorder writes Events to, as Spring Boot {@link ConnectionDetails}: the one place the starter
 * reads it from. When the application declares no bean of this type (and none comes from {@code @ServiceConnection}
 * on a Testcontainers {@code K3sContainer}), the auto-configuration declares one built from what it finds: the
 * application's {@link ApiClient} bean, else the in-cluster service account or, when allowed, a kubeconfig. Declare
 * one to choose the cluster yourself; an application's {@code EventSink} or {@code EventsV1Sink} bean still wins
 * over any cluster.
 *
 * <p>Implementations must be thread-safe.
 */
public interface KubeEventsConnectionDetails extends ConnectionDetails {

	/**
	 * Read timeout of every client the starter builds (30 s); implementations that build their own client should
	 * set it too. client-java's default is none, so a server that accepts a connection and never answers would hold
	 * a writer thread forever; a timeout is a transport failure, which the recorder retries.
	 */
	Duration CLIENT_READ_TIMEOUT = Duration.ofSeconds(30);

	/**
	 * A client for the cluster. Called once, at startup; the client's base path, authentication and timeouts are
	 * used as they are.
	 * @return the client
	 */
	ApiClient apiClient();

	/**
	 * Where these details come from, for the startup line and the endpoint.
	 * @return e.g. {@code "K3sContainer rancher/k3s:v1.35.4-k3s1"}
	 */
	default String description() {
		return getClass().getSimpleName();
	}

}
