package io.github.kubeevents.autoconfigure;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

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
 * Tests for {@link RemovedKubeEventsProperties} and {@link RemovedKubeEventsPropertiesFailureAnalyzer}: every renamed
 * or removed name fails startup with a report naming its replacement, before the properties are bound.
 */
@ExtendWith(OutputCaptureExtension.class)
class RemovedKubeEventsPropertiesTests {

	@TempDir
	Path tmp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> Machines.noCluster(this.tmp));
	}

	private static FailureAnalysis analysis(Throwable failure) {
		FailureAnalysis analysis = new RemovedKubeEventsPropertiesFailureAnalyzer().analyze(failure);
		assertThat(analysis).isNotNull();
		return analysis;
	}

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
	void removedNameFailsStartupNamingItsReplacement(String assignment, String name, String replacement) {
		runner().withPropertyValues(assignment).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(RemovedKubeEventsPropertiesException.class)
				.hasMessage("Removed kubeevents properties are set: " + name + " (use " + replacement + ")");
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
	void everyRemovedNameSetIsReportedAtOnce() {
		runner().withPropertyValues("kubeevents.series.cache-size=100", "kubeevents.api=core/v1", "kubeevents.sink=log")
			.run((context) -> assertThat(analysis(context.getStartupFailure()).getAction())
				.isEqualTo("""
						Update your application's configuration:

						\t- replace 'kubeevents.sink' with 'kubeevents.sink.mode'
						\t- replace 'kubeevents.api' with 'kubeevents.sink.api'
						\t- replace 'kubeevents.series.cache-size' with 'kubeevents.sink.series-cache-size'"""));
	}

	@Test
	void namesAreMatchedAsSpringBootBindsThem() {
		runner().withPropertyValues("kubeevents.retry.maxAttempts=3")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME
						+ "-test", Map.of("KUBEEVENTS_API", "core/v1"))))
			.run((context) -> assertThat(((RemovedKubeEventsPropertiesException) context.getStartupFailure()).found())
				.extracting((found) -> found.replacement().name().toString() + "=" + found.value())
				.containsExactly("kubeevents.api=core/v1", "kubeevents.retry.max-attempts=3"));
	}

	@Test
	void theNewNamesStartNormally() {
		runner().withPropertyValues("kubeevents.sink.mode=log", "kubeevents.sink.api=core/v1",
				"kubeevents.sink.retry.max-attempts=3", "kubeevents.sink.retry.sleep=1s",
				"kubeevents.sink.series-cache-size=100", "kubeevents.correlator.spam-filter.refill-interval=60s",
				"management.endpoint.kubeevents.default-limit=5")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(RemovedKubeEventsProperties.class));
	}

	@Test
	void isNotCheckedWhenTheRecorderIsSwitchedOff() {
		runner().withPropertyValues("kubeevents.enabled=false", "kubeevents.api=core/v1")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(RemovedKubeEventsProperties.class));
	}

	@Test
	void analyzerIsRegisteredInSpringFactories() {
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, ex) -> {
			}));
		assertThat(analyzers).hasAtLeastOneElementOfType(RemovedKubeEventsPropertiesFailureAnalyzer.class);
		assertThat(new RemovedKubeEventsPropertiesFailureAnalyzer().analyze(new IllegalStateException("other")))
			.isNull();
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

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(KubeEventsAutoConfiguration.class)
	static class Recorder {

	}

}
