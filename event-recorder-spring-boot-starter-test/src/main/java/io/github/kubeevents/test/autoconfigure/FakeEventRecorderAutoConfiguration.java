package io.github.kubeevents.test.autoconfigure;

import java.time.Clock;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.autoconfigure.KubeEventsProperties;
import io.github.kubeevents.status.KubeEventsStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration imported by {@link AutoConfigureFakeEventRecorder}: a {@link FakeEventRecorder} bean as the
 * application's {@link EventRecorder}, and a {@link KubeEventsStatus} that sends the pipeline's events nowhere.
 *
 * <p>Ordered before {@link KubeEventsAutoConfiguration}, whose recorder and status beans back off
 * ({@code @ConditionalOnMissingBean}). The status bean, rather than the property {@code kubeevents.sink.mode=none},
 * is what stops the pipeline: it is the decision the starter would otherwise make from the properties, the
 * connection details, an {@code ApiClient} bean and the developer's kubeconfig, so replacing it (as
 * {@code @AutoConfigureTestDatabase} replaces the {@code DataSource} rather than editing {@code spring.datasource.*})
 * cannot be undone by a property in a test profile or {@code @SpringBootTest(properties = ...)}: such a test never
 * contacts a cluster. The broadcaster, lifecycle, endpoint, health and metrics beans stay, and report sink
 * {@code none}.
 *
 * <p>The fake is {@link Primary}, so it is injected where an {@link EventRecorder} is wanted even if the
 * application declares a recorder bean of its own; an application recorder that is {@code @Primary} itself (a
 * decorator, a recorder writing elsewhere) is made non-primary, so that the choice stays deterministic instead of
 * failing with "more than one 'primary' bean found". Such beans stay in the context and can be injected by name or
 * qualifier; a decorator that takes an {@link EventRecorder} gets the fake as its delegate. An INFO line names each
 * bean that lost {@code @Primary}. The fake captures with the application's {@link EventSource} (the component and
 * host the real recorder would write), its message limit ({@code kubeevents.max-message-size}) and the system
 * clock. In a slice that leaves the starter's auto-configuration out (e.g. {@code @WebMvcTest}) it binds
 * {@link KubeEventsProperties} itself and takes its source by the starter's rule
 * ({@link KubeEventsAutoConfiguration#eventSource}: {@code kubeevents.component}, else
 * {@code spring.application.name}, else {@value KubeEventsAutoConfiguration#DEFAULT_COMPONENT}), so a slice test
 * sees the component the application writes.
 */
@AutoConfiguration(before = KubeEventsAutoConfiguration.class)
@EnableConfigurationProperties(KubeEventsProperties.class)
public final class FakeEventRecorderAutoConfiguration {

	/** Prefix of the properties mapped from {@link AutoConfigureFakeEventRecorder}'s attributes. */
	public static final String PROPERTY_PREFIX = "kubeevents.test.fake-recorder";

	/** The property mapped from {@link AutoConfigureFakeEventRecorder#clearAfterEachTest()}. */
	public static final String CLEAR_AFTER_EACH_TEST_PROPERTY = PROPERTY_PREFIX + ".clear-after-each-test";

	/** Why the pipeline discards events, shown in the startup line, the endpoint and health. */
	public static final String REASON = "@AutoConfigureFakeEventRecorder: events are captured by the FakeEventRecorder bean";

	/** The name of the fake's bean. */
	static final String BEAN_NAME = "fakeEventRecorder";

	private static final Logger logger = LoggerFactory.getLogger(FakeEventRecorderAutoConfiguration.class);

	FakeEventRecorderAutoConfiguration() {
	}

	/**
	 * Takes {@code @Primary} from the application's own {@link EventRecorder} bean definitions, so that the fake is
	 * the one primary recorder. Static: a post-processor must not need its configuration class instantiated.
	 */
	@Bean
	static BeanFactoryPostProcessor fakeEventRecorderIsThePrimaryRecorder() {
		return (beanFactory) -> {
			for (String name : beanFactory.getBeanNamesForType(EventRecorder.class, true, false)) {
				if (!BEAN_NAME.equals(name) && beanFactory.containsBeanDefinition(name)) {
					BeanDefinition definition = beanFactory.getBeanDefinition(name);
					if (definition.isPrimary()) {
						definition.setPrimary(false);
						logger.info("@AutoConfigureFakeEventRecorder: the FakeEventRecorder is injected where an"
								+ " EventRecorder is wanted; bean '{}' is no longer @Primary (inject it by name or"
								+ " qualifier)", name);
					}
				}
			}
		};
	}

	@Bean(BEAN_NAME)
	@Primary
	FakeEventRecorder fakeEventRecorder(ObjectProvider<EventSource> source, KubeEventsProperties properties,
			Environment environment) {
		return new FakeEventRecorder(
				source.getIfAvailable(() -> KubeEventsAutoConfiguration.eventSource(properties, environment)),
				Clock.systemUTC(), properties.maxMessageBytes());
	}

	@Bean
	@ConditionalOnMissingBean
	KubeEventsStatus fakeEventRecorderKubeEventsStatus() {
		return KubeEventsStatus.discarding(REASON);
	}

}
