package io.github.kubeevents.examples.josdk;

import java.time.Duration;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.fabric8.Fabric8EventsClient;
import io.github.kubeevents.sink.EventsApi;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;

/**
 * A small Java Operator SDK operator for {@link Greeting}s in one namespace, recording events through the same
 * fabric8 {@link KubernetesClient} the operator uses ({@link Fabric8EventsClient}): no second client.
 *
 * <p>{@link #start()} starts the recorder, then the operator; {@link #close()} stops the operator, then shuts the
 * recorder down (what is queued is written). The client is the caller's.
 */
public final class GreetingOperator implements AutoCloseable {

	/** The reporting component of the events. */
	public static final String COMPONENT = "greeting-operator";

	private final EventBroadcaster broadcaster;

	private final Operator operator;

	/**
	 * @param client the operator's client
	 * @param namespace the namespace watched
	 * @param eventsApi the events API written ({@link EventsApi#AUTO} asks discovery)
	 * @param host the reporting host (the pod name in a cluster)
	 */
	public GreetingOperator(KubernetesClient client, String namespace, EventsApi eventsApi, String host) {
		this.broadcaster = EventBroadcaster.builder().eventsApi(eventsApi).build();
		this.broadcaster.startRecordingTo(Fabric8EventsClient.of(client));
		EventRecorder recorder = this.broadcaster.newRecorder(new EventSource(COMPONENT, host));
		this.operator = new Operator((overrider) -> overrider.withKubernetesClient(client).withCloseClientOnStop(false));
		this.operator.register(new GreetingReconciler(recorder), (controller) -> controller.settingNamespace(namespace)
			.withRetry(new GenericRetry().setMaxAttempts(3).setInitialInterval(200)));
	}

	/** Starts recording, then reconciling. */
	public void start() {
		this.broadcaster.start();
		this.operator.start();
	}

	/** The recorder's broadcaster (counters and snapshots). */
	public EventBroadcaster broadcaster() {
		return this.broadcaster;
	}

	@Override
	public void close() {
		this.operator.stop();
		this.broadcaster.shutdown(Duration.ofSeconds(10));
	}

}
