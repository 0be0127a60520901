package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.util.StreamUtils;

/**
 * Fails startup when the configuration sets a {@code kubeevents.*} name that the recorder does not bind, rather than
 * starting as if it were not there: a renamed or removed name (such as {@code kubeevents.api}), naming its
 * replacement and why it changed, and an unknown one (a typo such as {@code --kubeevents.queue.capasity=5}), naming
 * the nearest valid name. Every name found is in one {@link KubeEventsPropertyNamesException}, which
 * {@link KubeEventsPropertyNamesFailureAnalyzer} reports. With {@code kubeevents.strict-properties=false} unknown
 * names are logged in one WARN line instead; renamed names fail startup either way, since their value would be lost.
 *
 * <p>Renamed names are matched as Spring Boot binds them (relaxed: {@code KUBEEVENTS_API},
 * {@code kubeevents.retry.maxAttempts}, ...), in every property source. Spring Boot's own mechanism for them,
 * error-level deprecations in the configuration metadata, is enforced only when {@code spring-boot-properties-migrator}
 * is on the class path; the metadata has none, since none of these names was ever released.
 *
 * <p>What is unknown is decided by Spring Boot's binder exactly as {@code @ConfigurationProperties(ignoreUnknownFields
 * = false)} decides it: {@link KubeEventsProperties} is bound with a {@link NoUnboundElementsBindHandler}, so relaxed
 * names ({@code kubeevents.sink.retry.maxAttempts}) and nested groups count as bound, and, as there, system
 * properties and environment variables are not checked (they carry names nobody chose for this application, such as
 * a build's {@code -Dkubeevents.it.skip}). The annotation itself cannot be used: it would fail for names that other
 * modules own ({@code kubeevents.test.*} of {@code event-recorder-spring-boot-starter-test}) and could not be
 * relaxed to a warning. Names in any configuration metadata on the class path
 * ({@code META-INF/spring-configuration-metadata.json}, {@code META-INF/additional-spring-configuration-metadata.json})
 * are known; they are also the candidates for the nearest name. Renamed names are left out of that binding, so that
 * one that is a group now (the old scalar {@code kubeevents.sink}) does not hide the unknown names beside it.
 *
 * <p>A bean factory post-processor, so it runs before any bean binds {@link KubeEventsProperties}. When the names
 * are right it checks the values ({@link KubeEventsPropertyValues}): every invalid value in one report too. An
 * invalid value does not hide an unknown name, as the binding here goes on past it.
 *
 * <p>Thread-safe once its environment and class loader are set.
 */
final class KubeEventsPropertyNames implements BeanFactoryPostProcessor, EnvironmentAware, BeanClassLoaderAware {

	/** The property that turns the failure for unknown names into a warning. */
	static final String STRICT_PROPERTY = "kubeevents.strict-properties";

	/** Every renamed or removed name, with what replaces it, in the order they are reported. */
	static final List<Renamed> RENAMED = List.of(
			new Renamed("kubeevents.sink", "kubeevents.sink.mode",
					"kubeevents.sink is a group now (mode, api, request-timeout, writers, ...)"),
			new Renamed("kubeevents.api", "kubeevents.sink.api", "sink settings are grouped under kubeevents.sink"),
			new Renamed("kubeevents.retry.max-attempts", "kubeevents.sink.retry.max-attempts",
					"sink settings are grouped under kubeevents.sink"),
			new Renamed("kubeevents.retry.sleep", "kubeevents.sink.retry.sleep",
					"sink settings are grouped under kubeevents.sink"),
			new Renamed("kubeevents.series.cache-size", "kubeevents.sink.series-cache-size",
					"sink settings are grouped under kubeevents.sink"),
			new Renamed("kubeevents.correlator.spam-filter.qps", "kubeevents.correlator.spam-filter.refill-interval",
					"the refill rate is a duration now: client-go's qps of 1/300 is refill-interval=300s"),
			new Renamed("kubeevents.endpoint.default-limit", "management.endpoint.kubeevents.default-limit",
					"endpoint settings live under management.endpoint.kubeevents, like Spring Boot's own endpoints"));

	private static final Logger logger = LoggerFactory.getLogger(KubeEventsPropertyNames.class);

	private static final String[] METADATA = { "META-INF/spring-configuration-metadata.json",
			"META-INF/additional-spring-configuration-metadata.json" };

	private @Nullable Environment environment;

	private @Nullable ClassLoader classLoader;

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void setBeanClassLoader(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		ClassLoader loader = (this.classLoader != null) ? this.classLoader
				: KubeEventsPropertyNames.class.getClassLoader();
		Environment environment = Objects.requireNonNull(this.environment, "environment");
		check(environment, loader);
		KubeEventsPropertyValues.check(environment);
	}

	/**
	 * Checks an environment.
	 * @param environment the environment
	 * @param classLoader where to look for configuration metadata
	 * @throws KubeEventsPropertyNamesException listing every renamed name that is set, then every unknown one
	 * (unknown ones only when {@code kubeevents.strict-properties} is not {@code false}; otherwise they are logged in
	 * one WARN line)
	 */
	static void check(Environment environment, ClassLoader classLoader) {
		List<KubeEventsPropertyNamesException.Found> renamed = renamed(environment);
		List<KubeEventsPropertyNamesException.Found> unknown = unknown(environment, classLoader);
		if (!unknown.isEmpty() && !Binder.get(environment).bind(STRICT_PROPERTY, Boolean.class).orElse(true)) {
			logger.warn("Ignoring unknown kubeevents properties ({}=false): {}", STRICT_PROPERTY,
					KubeEventsPropertyNamesException.summary(unknown));
			unknown = List.of();
		}
		if (!renamed.isEmpty() || !unknown.isEmpty()) {
			List<KubeEventsPropertyNamesException.Found> found = new ArrayList<>(renamed);
			found.addAll(unknown);
			throw new KubeEventsPropertyNamesException(found);
		}
	}

	/** The renamed names that are set, in the order of {@link #RENAMED}. */
	private static List<KubeEventsPropertyNamesException.Found> renamed(Environment environment) {
		List<KubeEventsPropertyNamesException.Found> found = new ArrayList<>();
		for (Renamed renamed : RENAMED) {
			ConfigurationProperty property = KubeEventsPropertyValues.find(environment, renamed.name());
			if (property != null) {
				found.add(KubeEventsPropertyNamesException.Found.renamed(renamed.name().toString(),
						property.getValue(), KubeEventsPropertyValues.origin(property), renamed.replacement(),
						renamed.reason()));
			}
		}
		return found;
	}

	/** The unknown names that are set, sorted by name. */
	private static List<KubeEventsPropertyNamesException.Found> unknown(Environment environment,
			ClassLoader classLoader) {
		Collection<ConfigurationProperty> unbound = unbound(environment);
		if (unbound.isEmpty()) {
			return List.of();
		}
		Set<String> metadata = metadataNames(classLoader);
		Set<ConfigurationPropertyName> known = metadata.stream()
			.map(ConfigurationPropertyName::of)
			.collect(Collectors.toSet());
		List<KubeEventsPropertyNamesException.Found> found = new ArrayList<>();
		for (ConfigurationProperty property : unbound) {
			if (!isKnown(property.getName(), known)) {
				String name = property.getName().toString();
				found.add(KubeEventsPropertyNamesException.Found.unknown(name, property.getValue(),
						KubeEventsPropertyValues.origin(property),
						nearest(name, metadata)));
			}
		}
		found.sort(Comparator.comparing(KubeEventsPropertyNamesException.Found::name));
		return found;
	}

	/**
	 * What Spring Boot's binder leaves unbound when it binds {@link KubeEventsProperties} from every source but
	 * system properties and environment variables, without the renamed names.
	 */
	private static Collection<ConfigurationProperty> unbound(Environment environment) {
		Set<ConfigurationPropertyName> renamed = RENAMED.stream().map(Renamed::name).collect(Collectors.toSet());
		List<ConfigurationPropertySource> sources = StreamSupport
			.stream(ConfigurationPropertySources.get(environment).spliterator(), false)
			.map((source) -> source.filter((name) -> !renamed.contains(name)))
			.toList();
		Binder binder = new Binder(sources, new PropertySourcesPlaceholdersResolver(environment));
		// invalid values are bound as their defaults (KubeEventsPropertyValues reports them), so that the names
		// beside them are still checked
		BindHandler handler = new NoUnboundElementsBindHandler(new KubeEventsPropertyValues.Collector(),
				new UnboundElementsSourceFilter()) {

			@Override
			public @Nullable Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
					Exception error) throws Exception {
				Object result = super.onFailure(name, target, context, error);
				// a value the root record rejects ends the binding without onFinish, where the names are checked
				if (context.getDepth() == 0) {
					onFinish(name, target, context, result);
				}
				return result;
			}

		};
		try {
			binder.bind(KubeEventsProperties.PREFIX, Bindable.of(KubeEventsProperties.class), handler);
			return List.of();
		}
		catch (BindException ex) {
			if (ex.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
				return unbound.getUnboundProperties();
			}
			throw ex;
		}
	}

	private static boolean isKnown(ConfigurationPropertyName name, Set<ConfigurationPropertyName> known) {
		for (ConfigurationPropertyName candidate : known) {
			if (candidate.equals(name) || candidate.isAncestorOf(name)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Every {@code kubeevents.*} name of the configuration metadata on the class path.
	 * @param classLoader the class loader to search
	 * @return the names, sorted
	 */
	static Set<String> metadataNames(ClassLoader classLoader) {
		Set<String> names = new TreeSet<>();
		for (String location : METADATA) {
			try {
				Enumeration<URL> resources = classLoader.getResources(location);
				while (resources.hasMoreElements()) {
					names.addAll(propertyNames(resources.nextElement()));
				}
			}
			catch (IOException | IllegalArgumentException ex) {
				logger.debug("Cannot read configuration metadata {}: {}", location, ex.toString());
			}
		}
		return names;
	}

	private static List<String> propertyNames(URL url) throws IOException {
		String json;
		try (InputStream in = url.openStream()) {
			json = StreamUtils.copyToString(in, StandardCharsets.UTF_8);
		}
		List<String> names = new ArrayList<>();
		if (JsonParserFactory.getJsonParser().parseMap(json).get("properties") instanceof List<?> properties) {
			for (Object property : properties) {
				if (property instanceof Map<?, ?> map && map.get("name") instanceof String name
						&& name.startsWith(KubeEventsProperties.PREFIX + ".")) {
					names.add(name);
				}
			}
		}
		return names;
	}

	/**
	 * The valid name nearest to {@code name} (fewest single-character edits; the first in order on a tie).
	 * @param name the unknown name
	 * @param candidates the valid names
	 * @return the nearest one, or {@code null} when there is none
	 */
	static @Nullable String nearest(String name, Collection<String> candidates) {
		String nearest = null;
		int best = Integer.MAX_VALUE;
		for (String candidate : candidates) {
			int distance = distance(name, candidate);
			if (distance < best) {
				best = distance;
				nearest = candidate;
			}
		}
		return nearest;
	}

	/** Levenshtein distance, ignoring dashes so that {@code maxattempts} is next to {@code max-attempts}. */
	private static int distance(String a, String b) {
		String x = a.replace("-", "");
		String y = b.replace("-", "");
		int[] previous = new int[y.length() + 1];
		int[] current = new int[y.length() + 1];
		for (int j = 0; j <= y.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= x.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= y.length(); j++) {
				int substitution = previous[j - 1] + ((x.charAt(i - 1) == y.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[y.length()];
	}

	/**
	 * A renamed or removed name and what replaces it.
	 * @param name the old name
	 * @param replacement the name to use instead
	 * @param reason why it changed, in a few words
	 */
	record Renamed(ConfigurationPropertyName name, String replacement, String reason) {

		Renamed(String name, String replacement, String reason) {
			this(ConfigurationPropertyName.of(name), replacement, reason);
		}

	}

}
