package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Tests of the configuration metadata generated from {@link KubeEventsProperties} and
 * {@code KubeEventsEndpointProperties} plus {@code additional-spring-configuration-metadata.json} (what IDEs show,
 * and the source of the README's property table).
 */
class ConfigurationMetadataTests {

	private static JsonNode metadata() throws IOException {
		for (URL url : Collections.list(ConfigurationMetadataTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				JsonNode node = JsonMapper.builder().build().readTree(in);
				for (JsonNode group : node.get("groups")) {
					if (group.get("name").asString().equals("kubeevents")) {
						return node;
					}
				}
			}
		}
		throw new AssertionError("no kubeevents metadata on the class path");
	}

	private static Map<String, JsonNode> properties(String prefix) throws IOException {
		Map<String, JsonNode> properties = new LinkedHashMap<>();
		for (JsonNode property : metadata().get("properties")) {
			String name = property.get("name").asString();
			if (name.startsWith(prefix)) {
				properties.put(name, property);
			}
		}
		return properties;
	}

	@Test
	void everyPropertyHasADescriptionFollowingBootsRules() throws IOException {
		Map<String, JsonNode> properties = properties("kubeevents.");
		properties.putAll(properties("management.endpoint.kubeevents."));
		properties.putAll(properties("management.health.kubeevents."));
		assertThat(properties).containsKeys("management.endpoint.kubeevents.cache.time-to-live",
				"management.health.kubeevents.enabled");
		properties.forEach((name, property) -> {
			if (property.has("deprecation")) {
				return;
			}
			assertThat(property.path("description").asString()).as(name)
				.isNotBlank()
				.doesNotStartWith("The ")
				.doesNotStartWith("A ")
				.endsWith(".");
			if (property.path("type").asString().equals("java.lang.Boolean")) {
				assertThat(property.path("description").asString()).as(name).startsWith("Whether");
			}
		});
	}

	@Test
	void defaultsAreClientGosWhereClientGoHasTheSetting() throws IOException {
		Map<String, String> defaults = new LinkedHashMap<>();
		properties("kubeevents.").forEach((name, property) -> {
			if (!property.has("deprecation")) {
				defaults.put(name, property.has("defaultValue") ? property.get("defaultValue").asString() : null);
			}
		});
		assertThat(defaults).containsOnly(entry("kubeevents.enabled", "true"), entry("kubeevents.component", null),
				entry("kubeevents.host", null), entry("kubeevents.log-events", "true"),
				entry("kubeevents.shutdown-timeout", "10s"), entry("kubeevents.max-message-size", "1MB"),
				entry("kubeevents.strict-properties", "true"),
				entry("kubeevents.kubeconfig.enabled", "false"), entry("kubeevents.sink.mode", "auto"),
				entry("kubeevents.sink.api", "auto"), entry("kubeevents.sink.client", "auto"),
				entry("kubeevents.sink.request-timeout", "5s"),
				entry("kubeevents.sink.writers", "4"), entry("kubeevents.sink.backlog-capacity", "20000"),
				entry("kubeevents.sink.series-cache-size", "4096"), entry("kubeevents.sink.rate-limit.qps", null),
				entry("kubeevents.sink.rate-limit.burst", "10"), entry("kubeevents.sink.retry.max-attempts", "12"),
				entry("kubeevents.sink.retry.sleep", "10s"), entry("kubeevents.sink.deterministic-names", "false"),
				// not client-go's: its bodies are one property away (docs/client-go-differences.md)
				entry("kubeevents.sink.shape", "readers"),
				entry("kubeevents.queue.capacity", "10000"),
				entry("kubeevents.queue.subscriber-capacity", "10000"), entry("kubeevents.queue.full-policy", "drop"),
				entry("kubeevents.correlator.cache-size", "4096"),
				entry("kubeevents.correlator.spam-filter.enabled", "true"),
				entry("kubeevents.correlator.spam-filter.burst", "25"),
				entry("kubeevents.correlator.spam-filter.refill-interval", "300s"),
				entry("kubeevents.correlator.spam-filter.key", "object"),
				entry("kubeevents.correlator.spam-filter.warning-lane", "false"),
				entry("kubeevents.correlator.spam-filter.warning-lane-burst", null),
				entry("kubeevents.correlator.spam-filter.warning-lane-refill-interval", null),
				entry("kubeevents.correlator.min-update-interval", "0s"),
				entry("kubeevents.correlator.aggregation.enabled", "true"),
				entry("kubeevents.correlator.apply-to-events-v1", "false"),
				entry("kubeevents.correlator.aggregation.max-events", "10"),
				entry("kubeevents.correlator.aggregation.interval", "600s"),
				entry("kubeevents.correlator.aggregation.message-prefix", "(combined from similar events): "),
				// client-go has no trace context: with it all off the writes are client-go's
				entry("kubeevents.tracing.write-spans", "true"),
				entry("kubeevents.tracing.traceparent-annotation", "false"),
				entry("kubeevents.tracing.annotation-key", "traceparent"));
	}

	@Test
	void componentAndHostDescribeTheirRuntimeDefaults() throws IOException {
		Map<String, JsonNode> properties = properties("kubeevents.");
		assertThat(properties.get("kubeevents.component").get("description").asString())
			.contains("spring.application.name")
			.contains("\"kube-events\"");
		assertThat(properties.get("kubeevents.host").get("description").asString()).contains("POD_NAME")
			.contains("HOSTNAME");
	}

	@Test
	void namesThatWereNeverReleasedHaveNoDeprecationEntry() throws IOException {
		// nothing has been released yet: the renamed and removed names fail startup with a report instead
		// (KubeEventsPropertyNames), and the metadata does not carry them
		assertThat(properties("kubeevents.")).doesNotContainKeys("kubeevents.api", "kubeevents.retry.max-attempts",
				"kubeevents.retry.sleep", "kubeevents.series.cache-size", "kubeevents.sink",
				"kubeevents.endpoint.default-limit", "kubeevents.correlator.spam-filter.qps");
		assertThat(errorLevelDeprecations()).isEmpty();
	}

	/**
	 * The names of the (not deprecated) properties.
	 * @param prefix the prefix of the names
	 * @return the names
	 * @throws IOException when the metadata cannot be read
	 */
	static Set<String> propertyNames(String prefix) throws IOException {
		Set<String> names = new TreeSet<>();
		properties(prefix).forEach((name, property) -> {
			if (!property.has("deprecation")) {
				names.add(name);
			}
		});
		return names;
	}

	/**
	 * The names of the (not deprecated) properties of the given types.
	 * @param prefix the prefix of the names
	 * @param types the metadata types, e.g. {@code java.time.Duration}
	 * @return the names
	 * @throws IOException when the metadata cannot be read
	 */
	static Set<String> propertyNamesOfTypes(String prefix, String... types) throws IOException {
		Set<String> wanted = Set.of(types);
		Set<String> names = new TreeSet<>();
		properties(prefix).forEach((name, property) -> {
			if (!property.has("deprecation") && wanted.contains(property.path("type").asString())) {
				names.add(name);
			}
		});
		return names;
	}

	/**
	 * The default values the metadata has, of every (not deprecated) property under the starter's three prefixes.
	 * @return the default by name; names without a default are absent
	 * @throws IOException when the metadata cannot be read
	 */
	static Map<String, String> defaultValues() throws IOException {
		Map<String, String> defaults = new LinkedHashMap<>();
		for (String prefix : new String[] { "kubeevents.", "management.endpoint.kubeevents.",
				"management.health.kubeevents." }) {
			properties(prefix).forEach((name, property) -> {
				if (!property.has("deprecation") && property.has("defaultValue")) {
					defaults.put(name, property.get("defaultValue").asString());
				}
			});
		}
		return defaults;
	}

	/**
	 * The error-level deprecations of the metadata.
	 * @return replacement by removed name
	 * @throws IOException when the metadata cannot be read
	 */
	static Map<String, String> errorLevelDeprecations() throws IOException {
		Map<String, String> deprecated = new LinkedHashMap<>();
		for (JsonNode property : metadata().get("properties")) {
			JsonNode deprecation = property.get("deprecation");
			if (deprecation != null && deprecation.path("level").asString().equals("error")) {
				deprecated.put(property.get("name").asString(), deprecation.get("replacement").asString());
			}
		}
		return deprecated;
	}

	@Test
	void endpointPropertiesAreUnderManagementEndpointKubeevents() throws IOException {
		Map<String, String> defaults = new LinkedHashMap<>();
		properties("management.endpoint.kubeevents.").forEach((name, property) -> defaults.put(name,
				property.has("defaultValue") ? property.get("defaultValue").asString() : null));
		assertThat(defaults).containsEntry("management.endpoint.kubeevents.show-values", "never")
			.containsEntry("management.endpoint.kubeevents.roles", null)
			.containsEntry("management.endpoint.kubeevents.default-limit", "100")
			.containsEntry("management.endpoint.kubeevents.cache.time-to-live", "0ms")
			.containsKey("management.endpoint.kubeevents.access");
	}

	@Test
	void healthIndicatorCanBeSwitchedOff() throws IOException {
		JsonNode enabled = properties("management.health.kubeevents.").get("management.health.kubeevents.enabled");
		assertThat(enabled.get("type").asString()).isEqualTo("java.lang.Boolean");
		assertThat(enabled.get("defaultValue").asBoolean()).isTrue();
	}

	@Test
	void enumPropertiesHaveValueHints() throws IOException {
		Map<String, String> hints = new LinkedHashMap<>();
		for (JsonNode hint : metadata().get("hints")) {
			StringBuilder values = new StringBuilder();
			for (JsonNode value : hint.get("values")) {
				values.append((values.length() > 0) ? "," : "").append(value.get("value").asString());
			}
			hints.put(hint.get("name").asString(), values.toString());
		}
		assertThat(hints).containsOnly(entry("kubeevents.sink.mode", "auto,kubernetes,log,none"),
				entry("kubeevents.sink.api", "auto,events.k8s.io/v1,core/v1"),
				entry("kubeevents.sink.client", "auto,official,fabric8"),
				entry("kubeevents.queue.full-policy", "drop,wait"),
				entry("kubeevents.correlator.spam-filter.key", "object,object-and-reason"),
				entry("kubeevents.sink.shape", "readers,client-go"));
	}

}
