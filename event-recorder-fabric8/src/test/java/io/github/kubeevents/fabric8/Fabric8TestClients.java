package io.github.kubeevents.fabric8;

import java.util.Base64;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;

/**
 * fabric8 clients for the tests, on the HTTP client the system property {@value #HTTP_CLIENT_PROPERTY} names:
 * {@code vertx} (fabric8 8's default, Vert.x 5; also when unset) or {@code jdk} (the JDK's HttpClient). The module's
 * POM runs the integration tests once per client.
 */
public final class Fabric8TestClients {

	/** The system property naming the HTTP client: {@code vertx} or {@code jdk}. */
	public static final String HTTP_CLIENT_PROPERTY = "kubeevents.fabric8.http-client";

	private Fabric8TestClients() {
	}

	/**
	 * The HTTP client the tests run on.
	 * @return {@code vertx} or {@code jdk}
	 */
	public static String httpClient() {
		String name = System.getProperty(HTTP_CLIENT_PROPERTY, "vertx");
		if (!name.equals("vertx") && !name.equals("jdk")) {
			throw new IllegalArgumentException(HTTP_CLIENT_PROPERTY + " must be vertx or jdk, not '" + name + "'");
		}
		return name;
	}

	/**
	 * A builder on the HTTP client {@link #httpClient()} names, rather than the one fabric8's service loader picks
	 * from the test classpath (which holds both).
	 * @return a new builder
	 */
	public static KubernetesClientBuilder builder() {
		HttpClient.Factory factory = httpClient().equals("jdk") ? new JdkHttpClientFactory()
				: new Vertx5HttpClientFactory();
		return new KubernetesClientBuilder().withHttpClientFactory(factory);
	}

	static KubernetesClient client(KubernetesTestCluster cluster, Identity identity) {
		Config config = new ConfigBuilder(Config.empty()).withMasterUrl(cluster.baseUrl())
			.withCaCertData(Base64.getEncoder().encodeToString(cluster.caCertificate()))
			.withOauthToken(cluster.token(identity))
			.build();
		return builder().withConfig(config).build();
	}

}
