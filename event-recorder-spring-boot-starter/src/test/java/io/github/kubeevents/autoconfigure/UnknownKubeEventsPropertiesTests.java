package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Tests for {@link UnknownKubeEventsProperties} and {@link UnknownKubeEventsPropertiesFailureAnalyzer}: a name under
 * {@code kubeevents.} that nothing binds fails startup naming the nearest valid name, or logs one WARN with
 * {@code kubeevents.strict-properties=false}.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownKubeEventsPropertiesTests {

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> Machines.noCluster(this.tmp));
	}

	private static FailureAnalysis analysis(Throwable failure) {
		FailureAnalysis analysis = new UnknownKubeEventsPropertiesFailureAnalyzer().analyze(failure);
		assertThat(analysis).as("analysis of %s", failure).isNotNull();
		return analysis;
	}

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
			assertThat(context.getStartupFailure()).isInstanceOf(UnknownKubeEventsPropertiesException.class)
				.hasMessage("Unknown kubeevents properties are set: " + name + " (did you mean " + nearest + "?)");
			FailureAnalysis analysis = analysis(context.getStartupFailure());
			assertThat(analysis.getDescription())
				.isEqualTo("The Kubernetes event recorder's configuration sets properties that do not exist:\n\n\t- '"
						+ name + "' (\"" + assignment.substring(0, assignment.indexOf('='))
						+ "\" from property source \"test\")");
			assertThat(analysis.getAction()).isEqualTo("Update your application's configuration:\n\n\t- replace '"
					+ name + "' with '" + nearest + "' (the nearest valid name), or remove it\n\nEvery kubeevents.*"
					+ " property and its default is listed in docs/configuration.md of kube-events. To start anyway, with a warning,"
					+ " set kubeevents.strict-properties=false.");
		});
	}

	@Test
	void everyUnknownNameIsReportedAtOnceInNameOrder() {
		runner().withPropertyValues("kubeevents.sink.writer=2", "kubeevents.queue.capasity=5", "kubeevents.nothing=1")
			.run((context) -> assertThat(((UnknownKubeEventsPropertiesException) context.getStartupFailure()).found())
				.extracting(UnknownKubeEventsPropertiesException.Found::name)
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
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(UnknownKubeEventsProperties.class));
		assertThat(output).doesNotContain("Ignoring unknown kubeevents properties");
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
				.run((context) -> assertThat(
						((UnknownKubeEventsPropertiesException) context.getStartupFailure()).found())
					.extracting(UnknownKubeEventsPropertiesException.Found::nearest)
					.containsExactly("kubeevents.test.namespace"));
		}
	}

	@Test
	void renamedNamesAreLeftToTheirOwnReport() {
		runner().withPropertyValues("kubeevents.api=core/v1", "kubeevents.series.cache-size=5")
			.run((context) -> assertThat(context.getStartupFailure())
				.isInstanceOf(RemovedKubeEventsPropertiesException.class));
	}

	@Test
	void invalidValuesAreLeftToTheirOwnReport() {
		runner().withPropertyValues("kubeevents.sink.writers=0")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidKubeEventsPropertyException.class));
	}

	@Test
	void isNotCheckedWhenTheRecorderIsSwitchedOff() {
		runner().withPropertyValues("kubeevents.enabled=false", "kubeevents.queue.capasity=5")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(UnknownKubeEventsProperties.class));
	}

	@Test
	void nearestIsTheFewestEditsAway() {
		assertThat(UnknownKubeEventsProperties.nearest("kubeevents.sink.mod",
				List.of("kubeevents.sink.api", "kubeevents.sink.mode", "kubeevents.enabled")))
			.isEqualTo("kubeevents.sink.mode");
		assertThat(UnknownKubeEventsProperties.nearest("kubeevents.x", List.of())).isNull();
	}

	@Test
	void everyMetadataNameOfTheStarterIsACandidate() throws IOException {
		assertThat(UnknownKubeEventsProperties.metadataNames(getClass().getClassLoader()))
			.containsAll(ConfigurationMetadataTests.propertyNames("kubeevents."));
	}

	@Test
	void analyzerIsRegisteredInSpringFactories() {
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, ex) -> {
			}));
		assertThat(analyzers).hasAtLeastOneElementOfType(UnknownKubeEventsPropertiesFailureAnalyzer.class);
		assertThat(new UnknownKubeEventsPropertiesFailureAnalyzer().analyze(new IllegalStateException("other")))
			.isNull();
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

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(KubeEventsAutoConfiguration.class)
	static class Recorder {

	}

}
