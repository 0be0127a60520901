package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import io.github.kubeevents.testsupport.ConfigurationDocs;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The properties documented for users ({@code docs/configuration.md} at the repository root) are exactly the
 * properties in the configuration metadata, both ways: none documented that does not exist, none that exists and is
 * not documented. The metadata is this module's and that of {@code event-recorder-spring-boot-starter-test} ({@code kubeevents.test.*}, read
 * from its source tree since that module depends on this one).
 */
class ConfigurationDocsTests {

	private static final Path STARTER_TEST_METADATA = Path.of("..", "event-recorder-spring-boot-starter-test", "src",
			"main", "resources", "META-INF", "additional-spring-configuration-metadata.json");

	private static final String[] PREFIXES = { "kubeevents.", "management.endpoint.kubeevents.",
			"management.health.kubeevents." };

	@Test
	void propertyTablesAreReadAndOtherTablesAndSystemPropertiesAreNot() {
		String markdown = """
				# Configuration

				| property | default | meaning |
				|---|---|---|
				| `kubeevents.sink.mode` | `auto` | Where events go. |
				| `kubeevents.test.cluster` (system property) | `auto` | Backend. |

				Text between tables.

				| was | now |
				|---|---|
				| `kubeevents.endpoint.default-limit` | `management.endpoint.kubeevents.default-limit` |

				| property | builder |
				|---|---|
				| `kubeevents.sink.writers` | `sinkWriters(int)` |

				| property | default | meaning |
				|---|---|---|
				| `management.health.kubeevents.enabled` | `true` | Whether ... |
				""";
		assertThat(ConfigurationDocs.propertyNames(markdown)).containsExactly("kubeevents.sink.mode",
				"management.health.kubeevents.enabled");
	}

	@Test
	void documentedPropertiesAreExactlyTheMetadata() throws IOException {
		Set<String> metadata = new TreeSet<>();
		for (String prefix : PREFIXES) {
			metadata.addAll(ConfigurationMetadataTests.propertyNames(prefix));
		}
		JsonNode starterTest = JsonMapper.builder().build().readTree(Files.readString(STARTER_TEST_METADATA));
		for (JsonNode property : starterTest.get("properties")) {
			metadata.add(property.get("name").asString());
		}
		assertThat(metadata).contains("kubeevents.test.fake-recorder.clear-after-each-test");
		assertThat(Files.isRegularFile(ConfigurationDocs.PATH))
			.as("%s (from the module directory) documents every property; the metadata has %s",
					ConfigurationDocs.PATH.toAbsolutePath().normalize(), metadata)
			.isTrue();
		Set<String> documented = ConfigurationDocs.read();
		Set<String> undocumented = new TreeSet<>(metadata);
		undocumented.removeAll(documented);
		Set<String> unknown = new TreeSet<>(documented);
		unknown.removeAll(metadata);
		assertThat(undocumented).as("in the metadata but not documented in %s", ConfigurationDocs.PATH).isEmpty();
		assertThat(unknown).as("documented in %s but not in the metadata", ConfigurationDocs.PATH).isEmpty();
	}

}
