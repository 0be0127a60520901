package io.github.kubeevents.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Fails startup when the configuration sets a {@code kubeevents.*} property that was renamed or removed, naming its
 * replacement, rather than letting the old name be ignored (or fail with Spring Boot's generic "No converter found",
 * as the old flat {@code kubeevents.sink=kubernetes} does). Spring Boot's own mechanism, error-level deprecations in
 * the configuration metadata, is enforced only when {@code spring-boot-properties-migrator} is on the class path;
 * the metadata has none, since none of these names was ever released.
 *
 * <p>A bean factory post-processor, so it runs before any bean binds {@link KubeEventsProperties}. Names are matched
 * as Spring Boot binds them (relaxed: {@code KUBEEVENTS_API}, {@code kubeevents.retry.maxAttempts}, ...).
 *
 * <p>Thread-safe once its environment is set.
 */
final class RemovedKubeEventsProperties implements BeanFactoryPostProcessor, EnvironmentAware {

	/** Every removed name, with what replaces it. */
	static final List<Replacement> REPLACEMENTS = List.of(
			new Replacement("kubeevents.sink", "kubeevents.sink.mode",
					"kubeevents.sink is a group now (mode, api, request-timeout, writers, ...)"),
			new Replacement("kubeevents.api", "kubeevents.sink.api", "sink settings are grouped under kubeevents.sink"),
			new Replacement("kubeevents.retry.max-attempts", "kubeevents.sink.retry.max-attempts",
					"sink settings are grouped under kubeevents.sink"),
			new Replacement("kubeevents.retry.sleep", "kubeevents.sink.retry.sleep",
					"sink settings are grouped under kubeevents.sink"),
			new Replacement("kubeevents.series.cache-size", "kubeevents.sink.series-cache-size",
					"sink settings are grouped under kubeevents.sink"),
			new Replacement("kubeevents.correlator.spam-filter.qps", "kubeevents.correlator.spam-filter.refill-interval",
					"the refill rate is a duration now: client-go's qps of 1/300 is refill-interval=300s"),
			new Replacement("kubeevents.endpoint.default-limit", "management.endpoint.kubeevents.default-limit",
					"endpoint settings live under management.endpoint.kubeevents, like Spring Boot's own endpoints"));

	private @Nullable Environment environment;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		check(Objects.requireNonNull(this.environment, "environment"));
	}

	/**
	 * Checks an environment.
	 * @param environment the environment
	 * @throws RemovedKubeEventsPropertiesException listing every removed name that is set
	 */
	static void check(Environment environment) {
		List<RemovedKubeEventsPropertiesException.Found> found = new ArrayList<>();
		for (Replacement replacement : REPLACEMENTS) {
			ConfigurationProperty property = find(environment, replacement.name());
			if (property != null) {
				found.add(new RemovedKubeEventsPropertiesException.Found(replacement, property.getValue(),
						(property.getOrigin() != null) ? property.getOrigin().toString() : null));
			}
		}
		if (!found.isEmpty()) {
			throw new RemovedKubeEventsPropertiesException(found);
		}
	}

	private static @Nullable ConfigurationProperty find(Environment environment, ConfigurationPropertyName name) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(name);
			if (property != null) {
				return property;
			}
		}
		return null;
	}

	/**
	 * A removed name and what replaces it.
	 * @param name the removed name
	 * @param replacement the name to use instead
	 * @param reason why it changed, in a few words
	 */
	record Replacement(ConfigurationPropertyName name, String replacement, String reason) {

		Replacement(String name, String replacement, String reason) {
			this(ConfigurationPropertyName.of(name), replacement, reason);
		}

	}

}
