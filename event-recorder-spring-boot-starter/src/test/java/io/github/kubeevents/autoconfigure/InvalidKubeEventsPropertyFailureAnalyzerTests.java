package io.github.kubeevents.autoconfigure;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.testsupport.TestClusters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Tests for {@link InvalidKubeEventsPropertyFailureAnalyzer}.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidKubeEventsPropertyFailureAnalyzerTests {

	private static final String BIND_FAILURE_ANALYZER = "org.springframework.boot.diagnostics.analyzer.BindFailureAnalyzer";

	@TempDir
	Path tmp;

	private Throwable startupFailure(String... property) {
		Throwable[] failure = new Throwable[1];
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> Machines.noCluster(this.tmp))
			.withPropertyValues(property)
			.run((context) -> {
				assertThat(context).hasFailed();
				failure[0] = context.getStartupFailure();
			});
		return failure[0];
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
			kubeevents.sink.retry.max-attempts=0                         | kubeevents.sink.retry.max-attempts                      | '0' (must be at least 1)
			kubeevents.correlator.spam-filter.refill-interval=0s    | kubeevents.correlator.spam-filter.refill-interval  | 'PT0S' (must be positive)
			kubeevents.queue.capacity=-5                            | kubeevents.queue.capacity                          | "'-5' (must be between 1 and 16777216, as a queue's slots are allocated at startup)"
			""")
	void analyzesAnInvalidValueNamingThePropertyAndTheValue(String assignment, String property, String value) {
		FailureAnalysis analysis = new InvalidKubeEventsPropertyFailureAnalyzer().analyze(startupFailure(assignment));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).isEqualTo("Invalid value for the Kubernetes event recorder's property '"
				+ property + "' (\"" + property + "\" from property source \"test\"): " + value + ".");
		assertThat(analysis.getAction()).isEqualTo("Update '" + property + "' in your application's configuration,"
				+ " or remove it to use the default. Every kubeevents.* property and its default is listed in"
				+ " docs/configuration.md of kube-events.");
		assertThat(analysis.getCause()).isInstanceOf(InvalidKubeEventsPropertyException.class);
	}

	@Test
	void analyzesAnUnsetValue() {
		FailureAnalysis analysis = new InvalidKubeEventsPropertyFailureAnalyzer()
			.analyze(new InvalidKubeEventsPropertyException("kubeevents.sink", null, "must be one of auto, kubernetes, log, none"));
		assertThat(analysis.getDescription()).isEqualTo("Invalid value for the Kubernetes event recorder's property"
				+ " 'kubeevents.sink': not set (must be one of auto, kubernetes, log, none).");
	}

	@Test
	void reportsEveryInvalidValueInOneDescription() {
		FailureAnalysis analysis = new InvalidKubeEventsPropertyFailureAnalyzer().analyze(startupFailure(
				"kubeevents.sink.mode=cluster", "kubeevents.sink.writers=0", "kubeevents.correlator.min-update-interval=5"));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).isEqualTo("""
				Invalid values for the Kubernetes event recorder's properties:

					- 'kubeevents.correlator.min-update-interval' ("kubeevents.correlator.min-update-interval" from \
				property source "test"): '5' (must have a unit, as a number alone is read as milliseconds: write 5s or \
				5ms)
					- 'kubeevents.sink.mode' ("kubeevents.sink.mode" from property source "test"): 'cluster' (must be one \
				of auto, kubernetes, log, none)
					- 'kubeevents.sink.writers' ("kubeevents.sink.writers" from property source "test"): '0' (must be \
				between 1 and 64)""");
		assertThat(analysis.getAction()).isEqualTo("Update these properties in your application's configuration, or"
				+ " remove them to use the defaults. Every kubeevents.* property and its default is listed in"
				+ " docs/configuration.md of kube-events.");
	}

	@Test
	void winsOverSpringBootsBindFailureAnalyzer() {
		// the check before binding reports invalid values; should the binding itself meet one (the properties bound
		// by an application's own @EnableConfigurationProperties), Boot's analyzer matches too
		MapConfigurationPropertySource source = new MapConfigurationPropertySource(
				Map.of("kubeevents.sink.retry.max-attempts", "0"));
		Throwable failure = catchThrowable(
				() -> new Binder(source).bind(KubeEventsProperties.PREFIX, KubeEventsProperties.class));
		assertThat(TestClusters.cause(failure, BindException.class)).isNotNull();
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, ex) -> {
			}));
		assertThat(analyzers).hasAtLeastOneElementOfType(InvalidKubeEventsPropertyFailureAnalyzer.class);
		FailureAnalyzer bootBindAnalyzer = analyzers.stream()
			.filter((analyzer) -> analyzer.getClass().getName().equals(BIND_FAILURE_ANALYZER))
			.findFirst()
			.orElseThrow();
		assertThat(bootBindAnalyzer.analyze(failure)).as("Boot's analyzer matches too").isNotNull();
		// FailureAnalyzers sorts the analyzers this way and reports the first analysis
		AnnotationAwareOrderComparator.sort(analyzers);
		FailureAnalysis first = analyzers.stream()
			.map((analyzer) -> analyzer.analyze(failure))
			.filter((analysis) -> analysis != null)
			.findFirst()
			.orElseThrow();
		assertThat(first.getDescription())
			.startsWith("Invalid value for the Kubernetes event recorder's property 'kubeevents.sink.retry.max-attempts'");
	}

	@Test
	void applicationThatCannotStartPrintsTheDescriptionAndAction(CapturedOutput output) {
		NoCluster.dir = this.tmp;
		SpringApplication application = new SpringApplication(NoCluster.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException()
			.isThrownBy(() -> application.run("--kubeevents.correlator.spam-filter.refill-interval=0s"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\nInvalid value for the Kubernetes event recorder's property"
					+ " 'kubeevents.correlator.spam-filter.refill-interval' (\"kubeevents.correlator.spam-filter"
					+ ".refill-interval\" from property source \"commandLineArgs\"): 'PT0S' (must be positive).")
			.contains("Action:\n\nUpdate 'kubeevents.correlator.spam-filter.refill-interval' in your application's"
					+ " configuration");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(KubeEventsAutoConfiguration.class)
	static class NoCluster {

		static Path dir;

		@Bean
		KubernetesConfigDetector noClusterDetector() {
			return Machines.noCluster(dir);
		}

	}

}
