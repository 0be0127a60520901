package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.EventsV1Sink;
import io.github.kubeevents.testsupport.EchoingEventsV1Sink;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the README (the front door) states is true: its property list is the configuration metadata, name for name
 * and default for default, and its "Both APIs" statement is what {@code kubeevents.sink.api=auto} writes.
 */
class ReadmeTests {

	private static final Path README = Path.of("..", "README.md");

	/** {@code `name` (default)}, where the default may hold backquoted text with parentheses. */
	private static final Pattern PROPERTY = Pattern
		.compile("`((?:kubeevents|management\\.endpoint\\.kubeevents|management\\.health\\.kubeevents)\\.[a-z0-9.-]+)`"
				+ " \\(((?:`[^`]*`|[^()`])*)\\)");

	private static final String BOTH_APIS = "**Both APIs, right in every reader.** By default"
			+ " (`kubeevents.sink.api=auto`) the recorder writes core/v1 Events that also carry `eventTime`, `action` and"
			+ " `series`, which kubectl, k9s, Headlamp, Freelens, the OpenTelemetry collector, Grafana Alloy, Datadog,"
			+ " Elastic, Fluent Bit and Vector all read right; it writes events.k8s.io/v1 where RBAC allows core/v1 less"
			+ " than `create` and `patch` everywhere. `kubeevents.sink.shape=client-go` chooses as client-go does:"
			+ " events.k8s.io/v1 when the API server serves it.";

	private static final String CORE_V1_RULE = "With `kubeevents.sink.api=auto` (the default) **the core/v1 rule is"
			+ " enough**: the recorder asks RBAC at startup (SelfSubjectAccessReviews, which need no grant) and writes"
			+ " core/v1 where it may;";

	@TempDir
	Path tmp;

	private static String section(String heading) throws IOException {
		String readme = Files.readString(README);
		int start = readme.indexOf("\n## " + heading + "\n");
		assertThat(start).as("README section " + heading).isNotNegative();
		int end = readme.indexOf("\n## ", start + 1);
		return readme.substring(start, (end < 0) ? readme.length() : end);
	}

	/** The 1.0 target: a page of at most 250 lines, whose test section is one command. */
	@Test
	void theReadmeFitsOnAPageAndItsTestSectionIsOneCommand() throws IOException {
		assertThat(Files.readAllLines(README)).hasSizeLessThanOrEqualTo(250);
		String tests = section("Run the tests");
		assertThat(tests.split("```", -1)).as("one fenced block").hasSize(3);
		assertThat(tests.split("```", -1)[1]).isEqualTo("bash\n./mvnw -B -ntp verify\n");
	}

	@Test
	void thePropertyListIsTheMetadataWithItsDefaults() throws IOException {
		Map<String, String> listed = new LinkedHashMap<>();
		Matcher matcher = PROPERTY.matcher(section("Configuration").replaceAll("\\s+", " "));
		while (matcher.find()) {
			listed.put(matcher.group(1), matcher.group(2));
		}
		Set<String> metadata = new TreeSet<>(ConfigurationMetadataTests.propertyNames("kubeevents."));
		metadata.addAll(ConfigurationMetadataTests.propertyNames("management.endpoint.kubeevents."));
		metadata.addAll(ConfigurationMetadataTests.propertyNames("management.health.kubeevents."));
		assertThat(new TreeSet<>(listed.keySet())).isEqualTo(metadata);
		Map<String, String> defaults = ConfigurationMetadataTests.defaultValues();
		listed.forEach((name, text) -> {
			String value = defaults.get(name);
			if (value != null) {
				assertThat(text).as(name).isEqualTo("`" + value + "`");
			}
		});
	}

	@Test
	void theBothApisStatementIsWhatAutoWrites() throws IOException {
		String intro = Files.readString(README).replaceAll("\\s+", " ");
		assertThat(intro).contains("- " + BOTH_APIS + " - **");
		Map<String, String> defaults = ConfigurationMetadataTests.defaultValues();
		assertThat(defaults).containsEntry("kubeevents.sink.api", "auto").containsEntry("kubeevents.sink.shape", "readers");
		assertThat(writtenApi(true, true)).as("by default, RBAC allowing both").isEqualTo("core/v1");
		assertThat(writtenApi(true, false)).as("RBAC allowing core/v1 nothing").isEqualTo("events.k8s.io/v1");
		assertThat(writtenApi(true, true, "kubeevents.sink.shape=client-go")).as("client-go's choice")
			.isEqualTo("events.k8s.io/v1");
	}

	@Test
	void theCoreV1RuleIsEnoughUnderAuto() throws IOException {
		assertThat(section("RBAC").replaceAll("\\s+", " ")).contains(CORE_V1_RULE);
		assertThat(writtenApi(false, true)).as("readers' shape").isEqualTo("core/v1");
		assertThat(writtenApi(false, true, "kubeevents.sink.shape=client-go")).as("client-go's shape")
			.isEqualTo("core/v1");
	}

	/** The API a started recorder writes through a client serving both APIs, each allowed all verbs or none. */
	private String writtenApi(boolean eventsV1Allowed, boolean coreV1Allowed, String... properties)
			throws IOException {
		KubernetesConfigDetector pod = Machines.inPod(this.tmp, false);
		String[] api = new String[1];
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> pod)
			.withBean(EventsClient.class, () -> new BothApis(eventsV1Allowed, coreV1Allowed))
			.withPropertyValues("kubeevents.log-events=false")
			.withPropertyValues(properties)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				EventBroadcaster broadcaster = context.getBean(EventBroadcaster.class);
				await().until(() -> sink(broadcaster).apiReason() != null);
				api[0] = sink(broadcaster).api();
			});
		return api[0];
	}

	private static RecorderSnapshot.SinkSnapshot sink(EventBroadcaster broadcaster) {
		return broadcaster.snapshot(0).sinks().get(0);
	}

	/** A client whose API server serves both APIs, and whose RBAC allows each as told. */
	private static final class BothApis implements EventsClient {

		private final boolean eventsV1Allowed;

		private final boolean coreV1Allowed;

		BothApis(boolean eventsV1Allowed, boolean coreV1Allowed) {
			this.eventsV1Allowed = eventsV1Allowed;
			this.coreV1Allowed = coreV1Allowed;
		}

		@Override
		public EventSink coreV1Sink(Duration requestTimeout) {
			return new InMemoryEventSink();
		}

		@Override
		public EventsV1Sink eventsV1Sink(Duration requestTimeout) {
			return new EchoingEventsV1Sink();
		}

		@Override
		public boolean servesEventsV1(Duration timeout) {
			return true;
		}

		@Override
		public boolean eventsAllowed(String apiGroup, String verb, @Nullable String namespace, Duration timeout) {
			return apiGroup.isEmpty() ? this.coreV1Allowed : this.eventsV1Allowed;
		}

	}

}
