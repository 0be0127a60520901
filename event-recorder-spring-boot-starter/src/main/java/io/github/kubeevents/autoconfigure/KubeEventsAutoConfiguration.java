package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.correlator.CorrelatorOptions;
import io.github.kubeevents.sink.EventSink;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the Kubernetes
 * event recorder: an {@link EventBroadcaster} built from {@link KubeEventsProperties}, an {@link EventRecorder}
 * for the application's {@link EventSource}, the sink chosen by {@code kubeevents.sink} (see
 * {@link KubeEventsStatus}) and the {@link KubeEventsLifecycle} that starts and stops them.
 *
 * <p>Switched off with {@code kubeevents.enabled=false}. Every bean backs off when the application defines one of
 * the same type. An application {@link EventSink} bean, else an {@link ApiClient} bean, is used in preference to
 * the cluster configuration found by the {@link KubernetesConfigDetector}.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "kubeevents.enabled", matchIfMissing = true)
@EnableConfigurationProperties(KubeEventsProperties.class)
public final class KubeEventsAutoConfiguration {

	/** The component used when neither {@code kubeevents.component} nor {@code spring.application.name} is set. */
	public static final String DEFAULT_COMPONENT = "kube-events";

	@Bean
	@ConditionalOnMissingBean
	KubernetesConfigDetector kubeEventsConfigDetector() {
		return KubernetesConfigDetector.system();
	}

	@Bean
	@ConditionalOnMissingBean
	EventSource kubeEventsSource(KubeEventsProperties properties, Environment environment) {
		String component = properties.component();
		if (component == null) {
			component = firstNonBlank(environment.getProperty("spring.application.name"), DEFAULT_COMPONENT);
		}
		String host = properties.host();
		if (host == null) {
			host = firstNonBlank(environment.getProperty("POD_NAME"),
					firstNonBlank(environment.getProperty("HOSTNAME"), ""));
		}
		return new EventSource(component, host);
	}

	@Bean
	@ConditionalOnMissingBean
	KubeEventsStatus kubeEventsStatus(KubeEventsProperties properties, KubernetesConfigDetector detector,
			ObjectProvider<EventSink> eventSink, ObjectProvider<ApiClient> apiClient) {
		EventSinkResolver resolver = new EventSinkResolver(detector);
		boolean cluster = properties.sink() == SinkMode.AUTO || properties.sink() == SinkMode.KUBERNETES;
		return resolver.resolve(properties.sink(), properties.logEvents(), cluster ? eventSink.getIfAvailable() : null,
				cluster ? apiClient.getIfAvailable() : null);
	}

	@Bean
	@ConditionalOnMissingBean
	EventBroadcaster kubeEventsBroadcaster(KubeEventsProperties properties,
			ObjectProvider<EventBroadcasterCustomizer> broadcasterCustomizers,
			ObjectProvider<CorrelatorOptionsCustomizer> correlatorCustomizers) {
		CorrelatorOptions.Builder correlator = properties.correlator().toOptionsBuilder();
		correlatorCustomizers.orderedStream().forEach((customizer) -> customizer.customize(correlator));
		EventBroadcaster.Builder builder = EventBroadcaster.builder()
			.incomingQueueCapacity(properties.queue().capacity())
			.subscriberOptions(properties.queue().toSubscriberOptions())
			.retryPolicy(properties.retry().toPolicy())
			.maxMessageBytes(properties.maxMessageBytes())
			.correlatorOptions(correlator.build());
		broadcasterCustomizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		return builder.build();
	}

	@Bean
	@ConditionalOnMissingBean
	EventRecorder kubeEventsRecorder(EventBroadcaster broadcaster, EventSource source) {
		return broadcaster.newRecorder(source);
	}

	@Bean
	@ConditionalOnMissingBean
	KubeEventsLifecycle kubeEventsLifecycle(EventBroadcaster broadcaster, KubeEventsStatus status, EventSource source,
			KubeEventsProperties properties) {
		return new KubeEventsLifecycle(broadcaster, status, source, properties.shutdownTimeout());
	}

	private static String firstNonBlank(@Nullable String value, String fallback) {
		return (value != null && !value.isBlank()) ? value : fallback;
	}

}
