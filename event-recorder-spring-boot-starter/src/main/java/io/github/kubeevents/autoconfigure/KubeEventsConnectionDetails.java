package io.github.kubeevents.autoconfigure;

import io.kubernetes.client.openapi.ApiClient;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * The cluster the recorder writes Events to, as Spring Boot {@link ConnectionDetails}: when a bean of this type
 * exists (for example one created by {@code @ServiceConnection} on a Testcontainers {@code K3sContainer}), the
 * auto-configuration uses it in preference to an application {@link ApiClient} bean and to its own detection of
 * the in-cluster service account or a kubeconfig.
 *
 * <p>Implementations must be thread-safe.
 */
public interface KubeEventsConnectionDetails extends ConnectionDetails {

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
