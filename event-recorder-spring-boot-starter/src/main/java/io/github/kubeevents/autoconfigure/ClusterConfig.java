package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.auth.ApiKeyAuth;
import io.kubernetes.client.openapi.auth.Authentication;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import io.kubernetes.client.util.credentials.KubeconfigAuthentication;
import org.jspecify.annotations.Nullable;

/**
 * A cluster configuration found by {@link KubernetesConfigDetector}: a kubeconfig file, or the in-cluster service
 * account.
 *
 * <p>Immutable and thread-safe.
 *
 * @param source where it was found
 * @param location the kubeconfig file, or the service account directory
 * @param serviceHost {@code $KUBERNETES_SERVICE_HOST} for {@link Source#IN_CLUSTER}, else {@code null}
 * @param servicePort {@code $KUBERNETES_SERVICE_PORT} for {@link Source#IN_CLUSTER}, else {@code null}
 */
record ClusterConfig(Source source, Path location, @Nullable String serviceHost,
		@Nullable String servicePort) {

	/** Where a cluster configuration comes from. */
	enum Source {

		/** A file listed in {@code $KUBECONFIG}. */
		KUBECONFIG_ENV,

		/** {@code ~/.kube/config}. */
		HOME_KUBECONFIG,

		/** The pod's service account and {@code $KUBERNETES_SERVICE_HOST}/{@code PORT}. */
		IN_CLUSTER

	}

	/**
	 * Validates the configuration.
	 * @throws NullPointerException when source or location is {@code null}
	 * @throws IllegalArgumentException when an in-cluster configuration has no host or port
	 */
	ClusterConfig {
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(location, "location");
		if (source == Source.IN_CLUSTER && (serviceHost == null || servicePort == null)) {
			throw new IllegalArgumentException("an in-cluster configuration needs the service host and port");
		}
	}

	/**
	 * A kubeconfig file.
	 * @param source {@link Source#KUBECONFIG_ENV} or {@link Source#HOME_KUBECONFIG}
	 * @param file the file
	 * @return the configuration
	 */
	static ClusterConfig kubeconfig(Source source, Path file) {
		return new ClusterConfig(source, file, null, null);
	}

	/**
	 * The in-cluster service account.
	 * @param serviceAccountDir the directory holding {@code token} and {@code ca.crt}
	 * @param host {@code $KUBERNETES_SERVICE_HOST}
	 * @param port {@code $KUBERNETES_SERVICE_PORT}
	 * @return the configuration
	 */
	static ClusterConfig inCluster(Path serviceAccountDir, String host, String port) {
		return new ClusterConfig(Source.IN_CLUSTER, serviceAccountDir, host, port);
	}

	/**
	 * A one-line description for logs and the endpoint.
	 * @return e.g. {@code "kubeconfig /home/me/.kube/config"} or
	 * {@code "in-cluster service account /var/run/secrets/kubernetes.io/serviceaccount"}
	 */
	String description() {
		return switch (this.source) {
			case KUBECONFIG_ENV -> "kubeconfig " + this.location + " (from $KUBECONFIG)";
			case HOME_KUBECONFIG -> "kubeconfig " + this.location;
			case IN_CLUSTER -> "in-cluster service account " + this.location;
		};
	}

	/**
	 * Builds a client for this configuration: a kubeconfig's current context (the kubeconfig is not written
	 * back), or the service account's token and CA with {@code https://<host>:<port>}. A bearer token is a
	 * {@link RefreshingBearerToken}: read again after the API server refuses it (401), and the refused request sent
	 * once more with the new one; the service account's token file also once a minute, as client-go does. For a
	 * kubeconfig that is its current user's {@code tokenFile}, {@code exec} or {@code auth-provider} plugin (which
	 * client-java reads once, when the client is built) and static {@code token}; client certificates and basic
	 * authentication are used as client-java sets them up.
	 * @return a new client
	 * @throws IOException when a file cannot be read or does not hold a usable configuration
	 */
	ApiClient createApiClient() throws IOException {
		try {
			if (this.source == Source.IN_CLUSTER) {
				RefreshingBearerToken token = RefreshingBearerToken.fromFile(this.location.resolve("token"));
				return token.installOn(new ClientBuilder().setBasePath(inClusterBasePath())
					.setCertificateAuthority(Files.readAllBytes(this.location.resolve("ca.crt")))
					.setReadTimeout(KubeEventsConnectionDetails.CLIENT_READ_TIMEOUT)
					.build());
			}
			try (Reader reader = Files.newBufferedReader(this.location, StandardCharsets.UTF_8)) {
				KubeConfig kubeConfig = KubeConfig.loadKubeConfig(reader);
				kubeConfig.setFile(this.location.toFile());
				ClientBuilder builder = ClientBuilder.kubeconfig(kubeConfig)
					.setReadTimeout(KubeEventsConnectionDetails.CLIENT_READ_TIMEOUT);
				ApiClient client = builder.build();
				if (builder.getAuthentication() instanceof KubeconfigAuthentication kubeconfigAuthentication
						&& kubeconfigAuthentication.getDelegateAuthentication() instanceof AccessTokenAuthentication) {
					// the token the builder read (running an exec plugin) is the first one: no second run
					RefreshingBearerToken.of(description(), () -> credentialsToken(kubeConfig), takeBearerToken(client),
							Duration.ZERO)
						.installOn(client);
				}
				return client;
			}
		}
		catch (IOException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw new IOException((ex.getMessage() != null) ? ex.getMessage() : ex.toString(), ex);
		}
	}

	/** The current user's token: its tokenFile read, its exec plugin run, its auth-provider refreshed, or its token. */
	private static @Nullable String credentialsToken(KubeConfig kubeConfig) {
		Map<String, String> credentials = kubeConfig.getCredentials();
		return (credentials != null) ? credentials.get(KubeConfig.CRED_TOKEN_KEY) : null;
	}

	/**
	 * The token client-java's {@link AccessTokenAuthentication} put into the client's API key, removed from it:
	 * the {@link RefreshingBearerToken} sends it from now on (the generated requests would otherwise carry the
	 * first token, untrimmed, as well).
	 */
	private static @Nullable String takeBearerToken(ApiClient client) {
		String token = null;
		for (Authentication authentication : client.getAuthentications().values()) {
			if (authentication instanceof ApiKeyAuth apiKey && apiKey.getApiKey() != null) {
				token = apiKey.getApiKey();
				apiKey.setApiKey(null);
			}
		}
		return token;
	}

	private String inClusterBasePath() throws IOException {
		try {
			return new URI("https", null, this.serviceHost, Integer.parseInt(Objects.requireNonNull(this.servicePort)),
					null, null, null)
				.toString();
		}
		catch (URISyntaxException | NumberFormatException ex) {
			throw new IOException("invalid $KUBERNETES_SERVICE_HOST/PORT " + this.serviceHost + ":" + this.servicePort,
					ex);
		}
	}

}
