package io.github.kubeevents.benchmarks;

import java.util.Base64;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.Subscription;
import io.github.kubeevents.fabric8.Fabric8EventsClient;
import io.kubernetes.client.openapi.ApiClient;

/**
 * The two clients a harness can write through ({@code --client official|fabric8}): the official one as given, or a
 * fabric8 {@link KubernetesClient} (JDK HTTP client) for the same server, CA and bearer token.
 */
final class BenchmarkClients {

	private BenchmarkClients() {
	}

	/** A fabric8 client of the server the official {@code client} talks to. */
	static KubernetesClient fabric8(String baseUrl, byte[] caCertificate, String token) {
		Config config = new ConfigBuilder(Config.empty()).withMasterUrl(baseUrl)
			.withCaCertData(Base64.getEncoder().encodeToString(caCertificate))
			.withOauthToken(token)
			.build();
		return new KubernetesClientBuilder().withConfig(config).build();
	}

	/**
	 * Subscribes the sink of {@code clientName}.
	 * @param broadcaster the broadcaster
	 * @param clientName {@code official} or {@code fabric8}
	 * @param official the official client
	 * @param fabric8 the fabric8 client
	 * @return the subscription
	 */
	static Subscription startRecording(EventBroadcaster broadcaster, String clientName, ApiClient official,
			KubernetesClient fabric8) {
		return switch (clientName) {
			case "official" -> broadcaster.startRecordingTo(official);
			case "fabric8" -> broadcaster.startRecordingTo(Fabric8EventsClient.of(fabric8));
			default -> throw new IllegalArgumentException("--client must be official or fabric8, was " + clientName);
		};
	}

}
