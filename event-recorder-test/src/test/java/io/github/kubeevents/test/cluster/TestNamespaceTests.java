package io.github.kubeevents.test.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TestNamespace}'s names (the IT {@code TestClusterExtensionIT} creates and deletes real ones).
 */
class TestNamespaceTests {

	@Test
	void theHintBecomesADnsLabelWithARandomSuffix() {
		assertThat(TestNamespace.name("WidgetServiceIT")).matches("widget-service-it-[a-z0-9]{5}");
		assertThat(TestNamespace.name("HTTPServerTests")).matches("http-server-tests-[a-z0-9]{5}");
		assertThat(TestNamespace.name("ContextPausingIT$First")).matches("context-pausing-it-first-[a-z0-9]{5}");
		assertThat(TestNamespace.name("v2Api")).matches("v2-api-[a-z0-9]{5}");
		assertThat(TestNamespace.name("__")).matches("test-[a-z0-9]{5}");
		assertThat(TestNamespace.name("")).matches("test-[a-z0-9]{5}");
	}

	@Test
	void longHintsAreCutToFortyCharacters() {
		String name = TestNamespace.name("AVeryLongTestClassNameThatGoesOnAndOnAndOnForeverIT");

		assertThat(name).matches("a-very-long-test-class-name-that-goes-on-[a-z0-9]{5}").hasSizeLessThanOrEqualTo(63);
		assertThat(TestNamespace.name("x".repeat(39) + "-Y")).matches("x{39}-[a-z0-9]{5}");
	}

	@Test
	void namesDiffer() {
		assertThat(TestNamespace.name("Same")).isNotEqualTo(TestNamespace.name("Same"));
	}

}
