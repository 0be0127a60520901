package io.github.kubeevents.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * Finds every invalid {@code kubeevents.*} value before {@link KubeEventsProperties} is bound, so that startup fails
 * once with all of them rather than with the first: values the binder cannot convert (named with what a valid
 * value looks like), values the properties reject (out of range, blank), and second-scale durations written
 * without a unit.
 *
 * <p>A duration without a unit is milliseconds to Spring Boot, so {@code kubeevents.correlator.min-update-interval=5}
 * would coalesce for 5 ms where 5 s was almost certainly meant. For the durations whose defaults are seconds or
 * more ({@link #SECOND_SCALE_DURATIONS}) a number alone other than 0 is therefore rejected, with the fix
 * ({@code write 5s or 5ms}), rather than read in seconds: reading it in seconds would silently turn an existing
 * {@code 300} (ms) into 300 s. {@code 0} means the same in any unit and stays valid.
 *
 * <p>The values are bound exactly as the real binding binds them (every property source, relaxed names,
 * placeholders), with a {@link BindHandler} that notes each failure and goes on with the default.
 *
 * <p>Stateless; each check is independent and thread-safe.
 */
final class KubeEventsPropertyValues {

	/** The durations whose defaults are seconds or more, where a number without a unit is rejected. */
	static final List<String> SECOND_SCALE_DURATIONS = List.of("kubeevents.shutdown-timeout",
			"kubeevents.sink.request-timeout", "kubeevents.sink.retry.sleep",
					"kubeevents.correlator.min-update-interval",
			"kubeevents.correlator.spam-filter.refill-interval",
			"kubeevents.correlator.spam-filter.warning-lane-refill-interval",
			"kubeevents.correlator.aggregation.interval");

	/** A number without a unit; a negative one is left to the range checks, which name the rule it breaks. */
	private static final Pattern NUMBER_ALONE = Pattern.compile("\\+?\\d+");

	private static final Pattern ZERO = Pattern.compile("\\+?0+");

	private KubeEventsPropertyValues() {
	}

	/**
	 * Checks the values of an environment.
	 * @param environment the environment
	 * @throws InvalidKubeEventsPropertyException naming every invalid value, sorted by property name, with where
	 * each is set when known
	 */
	static void check(Environment environment) {
		List<InvalidKubeEventsPropertyException.Problem> problems = find(environment);
		if (!problems.isEmpty()) {
			throw new InvalidKubeEventsPropertyException(problems);
		}
	}

	/**
	 * Every invalid value of an environment.
	 * @param environment the environment
	 * @return the problems, one per property, sorted by property name
	 */
	static List<InvalidKubeEventsPropertyException.Problem> find(Environment environment) {
		PropertySourcesPlaceholdersResolver placeholders = new PropertySourcesPlaceholdersResolver(environment);
		TreeMap<String, InvalidKubeEventsPropertyException.Problem> byName = new TreeMap<>();
		for (String name : SECOND_SCALE_DURATIONS) {
			ConfigurationProperty property = find(environment, ConfigurationPropertyName.of(name));
			if (property != null) {
				Object value = placeholders.resolvePlaceholders(property.getValue());
				if (isNumberAlone(value)) {
					String written = value.toString().trim();
					String number = written.startsWith("+") ? written.substring(1) : written;
					byName.put(name, new InvalidKubeEventsPropertyException.Problem(name, written,
							"must have a unit, as a number alone is read as milliseconds: write " + number + "s or "
									+ number + "ms",
							origin(property)));
				}
			}
		}
		Collector collector = new Collector();
		new Binder(ConfigurationPropertySources.get(environment), placeholders).bind(KubeEventsProperties.PREFIX,
				Bindable.of(KubeEventsProperties.class), collector);
		for (InvalidKubeEventsPropertyException.Problem problem : collector.problems) {
			if (!byName.containsKey(problem.property())) {
				ConfigurationProperty property = find(environment, ConfigurationPropertyName.of(problem.property()));
				boolean originKnown = problem.origin() != null || property == null;
				byName.put(problem.property(), originKnown ? problem : problem.withOrigin(origin(property)));
			}
		}
		return List.copyOf(byName.values());
	}

	/** Whether a duration's value is a number without a unit (an int from YAML, or text such as {@code "5"}), not 0. */
	static boolean isNumberAlone(@Nullable Object value) {
		if (value instanceof Number || value instanceof CharSequence) {
			String text = value.toString().trim();
			return NUMBER_ALONE.matcher(text).matches() && !ZERO.matcher(text).matches();
		}
		return false;
	}

	/** The property {@code name} as the first property source that sets it has it, or {@code null}. */
	static @Nullable ConfigurationProperty find(Environment environment, ConfigurationPropertyName name) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty property = source.getConfigurationProperty(name);
			if (property != null) {
				return property;
			}
		}
		return null;
	}

	/** Where {@code property} is set, for a report, or {@code null} when unknown. */
	static @Nullable String origin(ConfigurationProperty property) {
		return (property.getOrigin() != null) ? property.getOrigin().toString() : null;
	}

	/**
	 * What a valid value of a type looks like, for a value the binder could not convert.
	 * @param type the property's type
	 * @return e.g. {@code must be one of auto, kubernetes, log, none}
	 */
	static String requirement(@Nullable Class<?> type) {
		if (type == null) {
			return "cannot be converted";
		}
		if (type.isEnum()) {
			return "must be one of " + Arrays.stream(type.getEnumConstants())
				.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
				.collect(Collectors.joining(", "));
		}
		if (type == Duration.class) {
			return "must be a duration such as 10s, 500ms or 5m";
		}
		if (type == DataSize.class) {
			return "must be a data size such as 1MB or 512KB";
		}
		if (Set.of(int.class, Integer.class, long.class, Long.class).contains(type)) {
			return "must be a whole number";
		}
		if (type == double.class || type == Double.class) {
			return "must be a number";
		}
		if (type == boolean.class || type == Boolean.class) {
			return "must be true or false";
		}
		return "cannot be converted to " + type.getName();
	}

	/**
	 * Notes each failure (a value that cannot be converted, a group whose record rejects values) and binds the
	 * default in its place, so the binding goes on to the next value.
	 */
	static final class Collector extends AbstractBindHandler {

		private final List<InvalidKubeEventsPropertyException.Problem> problems = new ArrayList<>();

		Collector() {
		}

		/** @return the failures noted so far, in binding order */
		List<InvalidKubeEventsPropertyException.Problem> problems() {
			return List.copyOf(this.problems);
		}

		@Override
		public @Nullable Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
				Exception error) {
			InvalidKubeEventsPropertyException rejected = cause(error);
			if (rejected != null) {
				this.problems.addAll(rejected.problems());
			}
			else {
				ConfigurationProperty property = context.getConfigurationProperty();
				this.problems.add(new InvalidKubeEventsPropertyException.Problem(name.toString(),
						(property != null) ? property.getValue() : null, requirement(target.getType().resolve()),
						(property != null) ? origin(property) : null));
			}
			return null;
		}

		private static @Nullable InvalidKubeEventsPropertyException cause(Throwable error) {
			for (Throwable cause = error; cause != null; cause = cause.getCause()) {
				if (cause instanceof InvalidKubeEventsPropertyException invalid) {
					return invalid;
				}
			}
			return null;
		}

	}

}
