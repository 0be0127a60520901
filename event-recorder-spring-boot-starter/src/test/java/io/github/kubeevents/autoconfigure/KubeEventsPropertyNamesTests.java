package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.kubeevents.DocOutputs;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Tests for {@link KubeEventsPropertyNames}, {@link KubeEventsPropertyNamesException} and
 * {@link KubeEventsPropertyNamesFailureAnalyzer}: a name under {@code kubeevents.} that the recorder does not bind
 * fails startup before the properties are bound, a renamed one naming its replacement, an unknown one naming the
 * nearest valid name (or logging one WARN with {@code kubeevents.strict-properties=false}), all in one report.
 */
@ExtendWith(OutputCaptureExtension.class)
class KubeEventsPropertyNamesTests {

	private static final String STRICT_HINT = "\n\nEvery kubeevents.* property and its default is listed in"
			+ " docs/configuration.md of kube-events. To start anyway, with a warning, set"
			+ " kubeevents.strict-properties=false.";

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> Machines.noCluster(this.tmp));
	}

	private static FailureAnalysis analysis(Throwable failure) {
		FailureAnalysis analysis = new KubeEventsPropertyNamesFailureAnalyzer().analyze(failure);
		assertThat(analysis).as("analysis of %s", failure).isNotNull();
		return analysis;
	}

	private static List<KubeEventsPropertyNamesException.Found> found(Throwable failure) {
		assertThat(failure).isInstanceOf(KubeEventsPropertyNamesException.class);
		return ((KubeEventsPropertyNamesException) failure).found();
	}

	// Renamed names

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			kubeevents.sink=kubernetes                        | kubeevents.sink                       | kubeevents.sink.mode
			kubeevents.api=core/v1                            | kubeevents.api                        | kubeevents.sink.api
			kubeevents.retry.max-attempts=3                   | kubeevents.retry.max-attempts         | kubeevents.sink.retry.max-attempts
			kubeevents.retry.sleep=1s                         | kubeevents.retry.sleep                | kubeevents.sink.retry.sleep
			kubeevents.series.cache-size=100                  | kubeevents.series.cache-size          | kubeevents.sink.series-cache-size
			kubeevents.correlator.spam-filter.qps=-1          | kubeevents.correlator.spam-filter.qps | kubeevents.correlator.spam-filter.refill-interval
			kubeevents.endpoint.default-limit=5               | kubeevents.endpoint.default-limit     | management.endpoint.kubeevents.default-limit
			""")
	void renamedNameFailsStartupNamingItsReplacement(String assignment, String name, String replacement) {
		runner().withPropertyValues(assignment).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(KubeEventsPropertyNamesException.class)
				.hasMessage("Renamed or unknown kubeevents properties are set: " + name + " (use " + replacement + ")");
			FailureAnalysis analysis = analysis(context.getStartupFailure());
			assertThat(analysis.getDescription()).startsWith("The Kubernetes event recorder's configuration sets"
					+ " properties that were renamed or removed:\n\n\t- '" + name + "' (\"" + name + "\" from property"
					+ " source \"test\"): ");
			assertThat(analysis.getAction())
				.isEqualTo("Update your application's configuration:\n\n\t- replace '" + name + "' with '" + replacement
						+ "'");
		});
	}

	@Test
	void everyRenamedNameSetIsReportedAtOnceInTheOrderOfTheList() {
		runner().withPropertyValues("kubeevents.series.cache-size=100", "kubeevents.api=core/v1", "kubeevents.sink=log")
			.run((context) -> assertThat(analysis(context.getStartupFailure()).getAction())
				.isEqualTo("""
						Update your application's configuration:

						\t- replace 'kubeevents.sink' with 'kubeevents.sink.mode'
						\t- replace 'kubeevents.api' with 'kubeevents.sink.api'
						\t- replace 'kubeevents.series.cache-size' with 'kubeevents.sink.series-cache-size'"""));
	}

	@Test
	void renamedNamesAreMatchedAsSpringBootBindsThemInEverySource() {
		runner().withPropertyValues("kubeevents.retry.maxAttempts=3")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME
						+ "-test", Map.of("KUBEEVENTS_API", "core/v1"))))
			.run((context) -> assertThat(found(context.getStartupFailure()))
				.extracting((found) -> found.kind() + " " + found.name() + "=" + found.value())
				.containsExactly("RENAMED kubeevents.api=core/v1", "RENAMED kubeevents.retry.max-attempts=3"));
	}

	@Test
	void renamedNamesFailEvenWhenNotStrict() {
		runner().withPropertyValues("kubeevents.strict-properties=false", "kubeevents.api=core/v1")
			.run((context) -> assertThat(found(context.getStartupFailure()))
				.extracting(KubeEventsPropertyNamesException.Found::name)
				.containsExactly("kubeevents.api"));
	}

	@Test
	void theNewNamesStartNormally() {
		runner().withPropertyValues("kubeevents.sink.mode=log", "kubeevents.sink.api=core/v1",
				"kubeevents.sink.retry.max-attempts=3", "kubeevents.sink.retry.sleep=1s",
				"kubeevents.sink.series-cache-size=100", "kubeevents.correlator.spam-filter.refill-interval=60s",
				"management.endpoint.kubeevents.default-limit=5")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(KubeEventsPropertyNames.class));
	}

	@Test
	void theOldFlatSinkPropertyPrintsTheReportInsteadOfNoConverterFound(CapturedOutput output) {
		SpringApplication application = new SpringApplication(Recorder.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--kubeevents.sink=kubernetes",
				"--KUBECONFIG=", "--KUBERNETES_SERVICE_HOST=", "--HOME=" + this.tmp));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\nThe Kubernetes event recorder's configuration sets properties that were renamed"
					+ " or removed:\n\n\t- 'kubeevents.sink' (\"kubeevents.sink\" from property source"
					+ " \"commandLineArgs\"): kubeevents.sink is a group now (mode, api, request-timeout, writers, ...)")
			.contains("Action:\n\nUpdate your application's configuration:\n\n\t- replace 'kubeevents.sink' with"
					+ " 'kubeevents.sink.mode'")
			.doesNotContain("No converter found");
	}

	// Unknown names

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			kubeevents.queue.capasity=5                     | kubeevents.queue.capasity                 | kubeevents.queue.capacity
			kubeevents.sink.writer=2                        | kubeevents.sink.writer                    | kubeevents.sink.writers
			kubeevents.sink.retry.maxAttempt=3              | kubeevents.sink.retry.maxattempt          | kubeevents.sink.retry.max-attempts
			kubeevents.correlator.spam-filter.bust=3        | kubeevents.correlator.spam-filter.bust    | kubeevents.correlator.spam-filter.burst
			kubeevents.correlator.aggregation.enable=false  | kubeevents.correlator.aggregation.enable  | kubeevents.correlator.aggregation.enabled
			kubeevents.log-event=false                      | kubeevents.log-event                      | kubeevents.log-events
			kubeevents.strict-property=true                 | kubeevents.strict-property                | kubeevents.strict-properties
			""")
	void unknownNameFailsStartupNamingTheNearestValidName(String assignment, String name, String nearest) {
		runner().withPropertyValues(assignment).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(KubeEventsPropertyNamesException.class)
				.hasMessage("Renamed or unknown kubeevents properties are set: " + name + " (did you mean " + nearest
						+ "?)");
			FailureAnalysis analysis = analysis(context.getStartupFailure());
			assertThat(analysis.getDescription())
				.isEqualTo("The Kubernetes event recorder's configuration sets properties that do not exist:\n\n\t- '"
						+ name + "' (\"" + assignment.substring(0, assignment.indexOf('='))
						+ "\" from property source \"test\")");
			assertThat(analysis.getAction()).isEqualTo("Update your application's configuration:\n\n\t- replace '"
					+ name + "' with '" + nearest + "' (the nearest valid name), or remove it" + STRICT_HINT);
		});
	}

	@Test
	void everyUnknownNameIsReportedAtOnceInNameOrder() {
		runner().withPropertyValues("kubeevents.sink.writer=2", "kubeevents.queue.capasity=5", "kubeevents.nothing=1")
			.run((context) -> assertThat(found(context.getStartupFailure()))
				.extracting(KubeEventsPropertyNamesException.Found::name)
				.containsExactly("kubeevents.nothing", "kubeevents.queue.capasity", "kubeevents.sink.writer"));
	}

	@Test
	void strictPropertiesFalseStartsWithOneWarnLine(CapturedOutput output) {
		runner().withPropertyValues("kubeevents.strict-properties=false", "kubeevents.queue.capasity=5",
				"kubeevents.sink.writer=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(KubeEventsProperties.class).queue().capacity()).isEqualTo(10_000);
				assertThat(context.getBean(KubeEventsProperties.class).strictProperties()).isFalse();
			});
		List<String> warnings = output.getOut().lines().filter((line) -> line.contains("WARN")).toList();
		assertThat(warnings).hasSize(1);
		assertThat(warnings.get(0)).endsWith("Ignoring unknown kubeevents properties (kubeevents.strict-properties="
				+ "false): kubeevents.queue.capasity (did you mean kubeevents.queue.capacity?), kubeevents.sink.writer"
				+ " (did you mean kubeevents.sink.writers?)");
	}

	@Test
	void everyValidNameStartsCleanly(CapturedOutput output) {
		runner().withPropertyValues("kubeevents.strict-properties=true", "kubeevents.sink.mode=log",
				"kubeevents.sink.api=core/v1", "kubeevents.sink.retry.maxAttempts=3", "kubeevents.sink.rate-limit.qps=5",
				"kubeevents.queue.capacity=5", "kubeevents.correlator.spam-filter.enabled=false",
				"kubeevents.correlator.aggregation.enabled=false", "kubeevents.kubeconfig.enabled=false",
				"management.endpoint.kubeevents.default-limit=5")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(KubeEventsPropertyNames.class));
		assertThat(output).doesNotContain("Ignoring unknown kubeevents properties");
	}

	@Test
	void unknownNamesInSystemPropertiesAndEnvironmentVariablesAreNotChecked() {
		runner().withSystemProperties("kubeevents.it.skip=true")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
						Map.of("KUBEEVENTS_QUEUE_CAPASITY", "5"))))
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void namesInOtherModulesMetadataAreKnown() throws IOException {
		Path metaInf = Files.createDirectories(this.tmp.resolve("classes/META-INF"));
		Files.writeString(metaInf.resolve("additional-spring-configuration-metadata.json"), """
				{"properties": [{"name": "kubeevents.test.namespace", "type": "java.lang.String"},
				  {"name": "kubeevents.other.settings", "type": "java.util.Map<java.lang.String,java.lang.String>"}]}
				""");
		try (URLClassLoader loader = new URLClassLoader(new URL[] { this.tmp.resolve("classes").toUri().toURL() },
				getClass().getClassLoader())) {
			runner().withClassLoader(loader)
				.withPropertyValues("kubeevents.test.namespace=ns", "kubeevents.other.settings.a=b",
						"kubeevents.test.namespac=ns")
				.run((context) -> assertThat(found(context.getStartupFailure()))
					.extracting(KubeEventsPropertyNamesException.Found::suggestion)
					.containsExactly("kubeevents.test.namespace"));
		}
	}

	@Test
	void aTypoOnTheCommandLinePrintsTheReport(CapturedOutput output) {
		SpringApplication application = new SpringApplication(Recorder.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--kubeevents.queue.capasity=5", "--KUBECONFIG=",
				"--KUBERNETES_SERVICE_HOST=", "--HOME=" + this.tmp));
		Matcher description = Pattern.compile("Description:\n\n(.*?)\n\nAction:", Pattern.DOTALL)
			.matcher(output.toString());
		assertThat(description.find()).as(output.toString()).isTrue();
		assertThat(description.group(1)).isEqualTo("The Kubernetes event recorder's configuration sets properties"
				+ " that do not exist:\n\n\t- 'kubeevents.queue.capasity' (\"kubeevents.queue.capasity\" from property"
				+ " source \"commandLineArgs\")");
		assertThat(output).contains("replace 'kubeevents.queue.capasity' with 'kubeevents.queue.capacity'");
	}

	/** The three reports of docs/configuration.md, as a started application prints them for command-line arguments. */
	@Test
	void theDocumentedReportsAreWhatStartupPrints(CapturedOutput output) {
		DocOutputs.check("docs/configuration.md", "unknown-property-report",
				startupReport(output, "--kubeevents.queue.capasity=5"));
		DocOutputs.check("docs/configuration.md", "renamed-and-unknown-report",
				startupReport(output, "--kubeevents.api=core/v1", "--kubeevents.queue.capasity=5"));
		DocOutputs.check("docs/configuration.md", "invalid-values-report", startupReport(output,
				"--kubeevents.sink.mode=cluster", "--kubeevents.sink.writers=0",
				"--kubeevents.correlator.min-update-interval=5"));
	}

	/** Starts an application with {@code arguments}, which must fail, and returns its "Description / Action" report. */
	private String startupReport(CapturedOutput output, String... arguments) {
		int from = output.toString().length();
		SpringApplication application = new SpringApplication(Recorder.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> args = new java.util.ArrayList<>(List.of(arguments));
		args.addAll(List.of("--KUBECONFIG=", "--KUBERNETES_SERVICE_HOST=", "--HOME=" + this.tmp));
		assertThatException().isThrownBy(() -> application.run(args.toArray(String[]::new)));
		String printed = output.toString().substring(from);
		int start = printed.indexOf("Description:\n");
		assertThat(start).as(printed).isNotNegative();
		return printed.substring(start).strip();
	}

	@Test
	void nearestIsTheFewestEditsAway() {
		assertThat(KubeEventsPropertyNames.nearest("kubeevents.sink.mod",
				List.of("kubeevents.sink.api", "kubeevents.sink.mode", "kubeevents.enabled")))
			.isEqualTo("kubeevents.sink.mode");
		assertThat(KubeEventsPropertyNames.nearest("kubeevents.x", List.of())).isNull();
	}

	@Test
	void everyMetadataNameOfTheStarterIsACandidate() throws IOException {
		assertThat(KubeEventsPropertyNames.metadataNames(getClass().getClassLoader()))
			.containsAll(ConfigurationMetadataTests.propertyNames("kubeevents."));
	}

	@Test
	void anUnknownNameWithoutMetadataIsToBeRemoved() {
		FailureAnalysis analysis = analysis(new KubeEventsPropertyNamesException(
				List.of(KubeEventsPropertyNamesException.Found.unknown("kubeevents.x", "1", null, null))));
		assertThat(analysis.getDescription())
			.isEqualTo("The Kubernetes event recorder's configuration sets properties that do not exist:\n\n\t-"
					+ " 'kubeevents.x'");
		assertThat(analysis.getAction())
			.isEqualTo("Update your application's configuration:\n\n\t- remove 'kubeevents.x'" + STRICT_HINT);
	}

	// Renamed and unknown names together

	@Test
	void renamedAndUnknownNamesAreInOneReportRenamedFirst() {
		runner().withPropertyValues("kubeevents.queue.capasity=5", "kubeevents.api=core/v1", "kubeevents.sink=log",
				"kubeevents.sink.writer=2")
			.run((context) -> {
				assertThat(context.getStartupFailure()).hasMessage("Renamed or unknown kubeevents properties are set:"
						+ " kubeevents.sink (use kubeevents.sink.mode), kubeevents.api (use kubeevents.sink.api),"
						+ " kubeevents.queue.capasity (did you mean kubeevents.queue.capacity?), kubeevents.sink.writer"
						+ " (did you mean kubeevents.sink.writers?)");
				assertThat(found(context.getStartupFailure()))
					.extracting((found) -> found.kind() + " " + found.name() + "=" + found.value())
					.containsExactly("RENAMED kubeevents.sink=log", "RENAMED kubeevents.api=core/v1",
							"UNKNOWN kubeevents.queue.capasity=5", "UNKNOWN kubeevents.sink.writer=2");
				FailureAnalysis analysis = analysis(context.getStartupFailure());
				assertThat(analysis.getDescription()).isEqualTo("""
						The Kubernetes event recorder's configuration sets properties that were renamed or removed:

						\t- 'kubeevents.sink' ("kubeevents.sink" from property source "test"): kubeevents.sink is a \
						group now (mode, api, request-timeout, writers, ...)
						\t- 'kubeevents.api' ("kubeevents.api" from property source "test"): sink settings are \
						grouped under kubeevents.sink

						It also sets properties that do not exist:

						\t- 'kubeevents.queue.capasity' ("kubeevents.queue.capasity" from property source "test")
						\t- 'kubeevents.sink.writer' ("kubeevents.sink.writer" from property source "test")""");
				assertThat(analysis.getAction()).isEqualTo("""
						Update your application's configuration:

						\t- replace 'kubeevents.sink' with 'kubeevents.sink.mode'
						\t- replace 'kubeevents.api' with 'kubeevents.sink.api'
						\t- replace 'kubeevents.queue.capasity' with 'kubeevents.queue.capacity' (the nearest valid \
						name), or remove it
						\t- replace 'kubeevents.sink.writer' with 'kubeevents.sink.writers' (the nearest valid name), \
						or remove it

						Every kubeevents.* property and its default is listed in docs/configuration.md of \
						kube-events. To start anyway, with a warning for the names that do not exist (the renamed \
						ones fail startup either way), set kubeevents.strict-properties=false.""");
			});
	}

	@Test
	void whenNotStrictRenamedNamesFailAndUnknownOnesAreOneWarnLine(CapturedOutput output) {
		runner().withPropertyValues("kubeevents.strict-properties=false", "kubeevents.queue.capasity=5",
				"kubeevents.api=core/v1")
			.run((context) -> {
				assertThat(found(context.getStartupFailure()))
					.extracting((found) -> found.kind() + " " + found.name())
					.containsExactly("RENAMED kubeevents.api");
				assertThat(analysis(context.getStartupFailure()).getAction())
					.isEqualTo("Update your application's configuration:\n\n\t- replace 'kubeevents.api' with"
							+ " 'kubeevents.sink.api'");
			});
		// the other WARN line is the context's own, for the startup failure
		assertThat(output.getOut()
			.lines()
			.filter((line) -> line.contains("WARN") && !line.contains("cancelling refresh attempt")))
			.singleElement(InstanceOfAssertFactories.STRING)
			.endsWith("Ignoring unknown kubeevents properties (kubeevents.strict-properties=false):"
					+ " kubeevents.queue.capasity (did you mean kubeevents.queue.capacity?)");
	}

	// Left to others, or not checked

	@Test
	void invalidValuesAreReportedOnceTheNamesAreRight() {
		runner().withPropertyValues("kubeevents.sink.writers=0")
			.run((context) -> assertThat(context.getStartupFailure())
				.isInstanceOf(InvalidKubeEventsPropertyException.class)
				.hasMessage("kubeevents.sink.writers must be between 1 and 64, was '0'"));
	}

	@ParameterizedTest
	@CsvSource({ "kubeevents.sink.writers=0", "kubeevents.shutdown-timeout=0s", "kubeevents.component=' '",
			"kubeevents.max-message-size=0B" })
	void anInvalidValueDoesNotHideAnUnknownName(String invalid) {
		// nested (sink.writers) or of the root record, whose failure ends the binding at once
		runner().withPropertyValues(invalid, "kubeevents.queue.capasity=5")
			.run((context) -> assertThat(context.getStartupFailure())
				.isInstanceOf(KubeEventsPropertyNamesException.class)
				.hasMessage("Renamed or unknown kubeevents properties are set: kubeevents.queue.capasity (did you mean"
						+ " kubeevents.queue.capacity?)"));
	}

	@Test
	void isNotCheckedWhenTheRecorderIsSwitchedOff() {
		runner().withPropertyValues("kubeevents.enabled=false", "kubeevents.queue.capasity=5", "kubeevents.api=core/v1")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(KubeEventsPropertyNames.class));
	}

	@Test
	void analyzerIsRegisteredInSpringFactories() {
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, ex) -> {
			}));
		assertThat(analyzers).hasAtLeastOneElementOfType(KubeEventsPropertyNamesFailureAnalyzer.class);
		assertThat(new KubeEventsPropertyNamesFailureAnalyzer().analyze(new IllegalStateException("other"))).isNull();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(KubeEventsAutoConfiguration.class)
	static class Recorder {

	}

}
