package io.github.kubeevents.test.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import com.jayway.jsonpath.JsonPath;
import io.github.kubeevents.test.cluster.K3sTestCluster;
import io.github.kubeevents.test.cluster.TestClusterBackend;
import io.github.kubeevents.test.connection.KubeEventsTestCluster;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of this module's configuration metadata (what IDEs show for {@code kubeevents.test.*}). The starter's
 * {@code ConfigurationDocsTests} compares these names with {@code docs/configuration.md}.
 */
class ConfigurationMetadataTests {

	private static List<Map<String, Object>> properties() throws IOException {
		for (URL url : Collections.list(ConfigurationMetadataTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
				List<Map<String, Object>> properties = JsonPath.read(json,
						"$.properties[?(@.name =~ /kubeevents\\.test\\..*/)]");
				if (!properties.isEmpty()) {
					return properties;
				}
			}
		}
		throw new AssertionError("no kubeevents.test metadata on the class path");
	}

	@Test
	void everyPropertyTheTestModulesReadIsInTheMetadata() throws IOException {
		assertThat(properties()).extracting((property) -> property.get("name") + "=" + property.get("defaultValue"))
			.containsExactlyInAnyOrder(FakeEventRecorderAutoConfiguration.CLEAR_AFTER_EACH_TEST_PROPERTY + "=true",
					KubeEventsTestCluster.NAMESPACE_PROPERTY + "=null", TestClusterBackend.SYSTEM_PROPERTY + "=auto",
					K3sTestCluster.IMAGE_PROPERTY + "=" + K3sTestCluster.DEFAULT_IMAGE,
					"kubeevents.test.cluster.state-dir=null");
		assertThat(properties()).allSatisfy((property) -> assertThat((String) property.get("description"))
			.as("%s", property.get("name"))
			.doesNotStartWith("The ")
			.endsWith("."));
	}

	@Test
	void clearAfterEachTestIsInTheMetadataWithTheAnnotationsDefault() throws IOException {
		assertThat(properties()).filteredOn((property) -> property.get("name")
			.equals(FakeEventRecorderAutoConfiguration.CLEAR_AFTER_EACH_TEST_PROPERTY)).singleElement().satisfies((property) -> {
			assertThat(property).containsEntry("name", FakeEventRecorderAutoConfiguration.CLEAR_AFTER_EACH_TEST_PROPERTY)
				.containsEntry("type", "java.lang.Boolean")
				.containsEntry("defaultValue", true);
			assertThat((String) property.get("description")).startsWith("Whether").endsWith(".");
		});
		assertThat(AutoConfigureFakeEventRecorder.class.getDeclaredMethods()).singleElement()
			.satisfies((attribute) -> assertThat(attribute.getDefaultValue()).isEqualTo(true));
	}

}
