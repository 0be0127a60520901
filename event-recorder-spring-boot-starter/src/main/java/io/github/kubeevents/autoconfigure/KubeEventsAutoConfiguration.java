package io.github.kubeevents.autoconfigure;

import io.github.kubeevents.CorrelatorOptions;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkClient;
import io.github.kubeevents.status.SinkTarget;
import io.github.kubeevents.status.SinkMode;
import io.kubernetes.client.openapi.ApiClient;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration Auto-configuration} of the Kubernetes
 * event recorder: an {@link EventBroadcaster} built from {@link KubeEventsProperties}, an {@link EventRecorder}
 * for the application's {@link EventSource}, where events go ({@link KubeEventsStatus}, from
 * {@code kubeevents.sink.mode}, the application's sink beans and the {@link KubeEventsConnectionDetails}) and the
 * {@link KubeEventsLifecycle} that starts and stops them.
 *
 * <p>The cluster comes from the {@link KubeEventsConnectionDetails} bean, the one override point for it: when the
 * application (or {@code @ServiceConnection}) declares none, the auto-configuration declares details built from what
 * it finds (the application's {@link ApiClient} bean, the in-cluster service account, a kubeconfig when allowed).
 *
 * <p>Events are written through the single {@link EventsClient} bean, contributed as Spring Boot contributes a
 * connection factory per Redis client: the fabric8 client configuration contributes one over the application's
 * {@code KubernetesClient} bean, the official one (after it) one over the connection details, each under
 * {@code kubeevents.sink.client} ({@link SinkClientCondition}); an {@code EventsClient} bean of the application (a
 * third client) replaces both and is used as it is. No client is a cluster: whichever writes, it writes only where
 * the connection details find one. The auto-configuration runs after those of the Java Operator SDK and Spring Cloud
 * Kubernetes, so that their {@code KubernetesClient} and {@code ApiClient} beans count.
 *
 * <p>A renamed or removed {@code kubeevents.*} property fails startup, naming its replacement; one that does not
 * exist fails it too, naming the nearest valid name (a warning with {@code kubeevents.strict-properties=false}); both
 * in one report ({@link KubeEventsPropertyNames}). Switched off with {@code kubeevents.enabled=false}. Every bean backs
 * off when the application defines one of the same type; {@link EventBroadcasterCustomizer} and
 * {@link CorrelatorOptionsCustomizer} beans adjust the broadcaster beyond the properties.
 */
@AutoConfiguration(afterName = { "io.javaoperatorsdk.operator.springboot.starter.OperatorAutoConfiguration",
		"org.springframework.cloud.kubernetes.fabric8.Fabric8AutoConfiguration",
		"org.springframework.cloud.kubernetes.client.KubernetesClientAutoConfiguration" })
@ConditionalOnClass({ EventBroadcaster.class, ApiClient.class })
@ConditionalOnBooleanProperty(name = "kubeevents.enabled", matchIfMissing = true)
@EnableConfigurationProperties(KubeEventsProperties.class)
@Import({ KubeEventsFabric8Configuration.class, KubeEventsOfficialClientConfiguration.class })
public final class KubeEventsAutoConfiguration {

	/** The component used when neither {@code kubeevents.component} nor {@code spring.application.name} is set. */
	public static final String DEFAULT_COMPONENT = "kube-events";

	@Bean
	static KubeEventsPropertyNames kubeEventsPropertyNamesCheck() {
		return new KubeEventsPropertyNames();
	}

	@Bean
	@ConditionalOnMissingBean
	KubernetesConfigDetector kubeEventsConfigDetector(Environment environment) {
		return KubernetesConfigDetector.of(environment);
	}

	@Bean
	@ConditionalOnMissingBean
	EventSource kubeEventsSource(KubeEventsProperties properties, Environment environment) {
		return eventSource(properties, environment);
	}

	/**
	 * The reporting source of the {@link EventSource} bean this auto-configuration declares: the component is
	 * {@code kubeevents.component}, else {@code spring.application.name}, else {@link #DEFAULT_COMPONENT}; the host
	 * is {@code kubeevents.host}, else the {@code POD_NAME} environment variable, else {@code HOSTNAME}, else the
	 * machine's host name, else the component ({@link EventSource#defaultHost}).
	 * Public so that test auto-configuration which runs without this class (the fake recorder of
	 * {@code @AutoConfigureFakeEventRecorder} in a {@code @WebMvcTest} slice) records with the same source.
	 * Thread-safe.
	 * @param properties the bound properties
	 * @param environment the environment, for {@code spring.application.name}, {@code POD_NAME} and
	 * {@code HOSTNAME}
	 * @return the source
	 */
	public static EventSource eventSource(KubeEventsProperties properties, Environment environment) {
		String component = properties.component();
		if (component == null) {
			component = firstNonBlank(environment.getProperty("spring.application.name"), DEFAULT_COMPONENT);
		}
		String host = properties.host();
		if (host == null) {
			host = EventSource.defaultHost(environment.getProperty("POD_NAME"), environment.getProperty("HOSTNAME"),
					component);
		}
		return new EventSource(component, host);
	}

	@Bean
	@ConditionalOnMissingBean(KubeEventsConnectionDetails.class)
	DetectedKubeEventsConnectionDetails kubeEventsConnectionDetails(KubeEventsProperties properties,
			KubernetesConfigDetector detector, ObjectProvider<ApiClient> apiClient) {
		boolean kubeconfigAllowed = properties.kubeconfig().enabled()
				|| properties.sink().mode() == SinkMode.KUBERNETES;
		return new DetectedKubeEventsConnectionDetails(apiClient::getIfAvailable, detector, kubeconfigAllowed);
	}

	@Bean
	@ConditionalOnMissingBean
	KubeEventsStatus kubeEventsStatus(KubeEventsProperties properties, KubeEventsConnectionDetails connectionDetails,
			ObjectProvider<EventSink> eventSink, ObjectProvider<EventsV1Sink> eventsV1Sink,
			ObjectProvider<EventsClient> eventsClient, ConfigurableListableBeanFactory beanFactory) {
		ClientVersionCheck.warnIfOlderThanBuiltWith();
		return KubeEventsStatusResolver.resolve(properties.sink().mode(), properties.logEvents(),
				() -> SinkTarget.applicationSink(eventSink.getIfAvailable(), eventsV1Sink.getIfAvailable(),
						properties.sink().eventsApi()),
				connectionDetails, () -> choose(properties.sink().client(), eventsClient.getIfAvailable(),
						beanFactory, connectionDetails));
	}

	/** The choice of client, with what it needs to know of the fabric8 beans, named only by class name here. */
	private static ClientChoice choose(SinkClient configured, @Nullable EventsClient client,
			ConfigurableListableBeanFactory beanFactory, KubeEventsConnectionDetails connectionDetails) {
		ClassLoader loader = beanFactory.getBeanClassLoader();
		boolean fabric8OnClasspath = ClassUtils.isPresent(KubeEventsFabric8Configuration.KUBERNETES_CLIENT, loader)
				&& ClassUtils.isPresent(KubeEventsFabric8Configuration.EVENTS_CLIENT, loader);
		boolean fabric8Bean = client != null && beanFactory.containsBean(KubeEventsFabric8Configuration.BEAN_NAME)
				&& beanFactory.getBean(KubeEventsFabric8Configuration.BEAN_NAME) == client;
		return ClientChoice.decide(configured, client, fabric8Bean, fabric8OnClasspath,
				() -> beanFactory.getBeanProvider(
						ClassUtils.resolveClassName(KubeEventsFabric8Configuration.KUBERNETES_CLIENT, loader))
					.getIfUnique() != null,
				connectionDetails);
	}

	@Bean
	@ConditionalOnMissingBean
	EventBroadcaster kubeEventsBroadcaster(KubeEventsProperties properties,
			ObjectProvider<EventBroadcasterCustomizer> broadcasterCustomizers,
			ObjectProvider<CorrelatorOptionsCustomizer> correlatorCustomizers, Environment environment) {
		CorrelatorOptions.Builder coreV1 = properties.correlator().toOptionsBuilder(EventsApi.CORE_V1);
		CorrelatorOptions.Builder eventsV1 = properties.correlator().toOptionsBuilder(EventsApi.EVENTS_V1);
		correlatorCustomizers.orderedStream().forEach((customizer) -> {
			customizer.customize(coreV1);
			customizer.customize(eventsV1);
		});
		KubeEventsProperties.Sink sink = properties.sink();
		EventBroadcaster.Builder builder = EventBroadcaster.builder()
			.incomingQueueCapacity(properties.queue().capacity())
			.subscriberOptions(properties.queue().toSubscriberOptions())
			.maxMessageBytes(properties.maxMessageBytes())
			.shutdownTimeout(properties.shutdownTimeout())
			.eventsApi(sink.eventsApi())
			.requestTimeout(sink.requestTimeout())
			.sinkWriters(sink.writers())
			.sinkBacklogCapacity(sink.backlogCapacity())
			.seriesCacheSize(sink.seriesCacheSize())
			.deterministicNames(sink.deterministicNames())
			.eventShape(sink.eventShape())
			.retryPolicy(sink.retry().toPolicy())
			.correlatorOptions(coreV1.build())
			.eventsV1CorrelatorOptions(eventsV1.build());
		if (sink.rateLimit().qps() != null) {
			builder.writeBudget(sink.rateLimit().qps(), sink.rateLimit().burst());
		}
		String ownNamespace = OwnNamespace.detect(environment, KubernetesConfigDetector.DEFAULT_SERVICE_ACCOUNT_DIR);
		if (ownNamespace != null) {
			builder.accessCheckNamespace(ownNamespace);
		}
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
