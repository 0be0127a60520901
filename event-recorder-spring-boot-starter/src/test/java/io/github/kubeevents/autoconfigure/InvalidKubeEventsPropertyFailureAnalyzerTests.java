package io.github.kubeevents.autoconfigure;

import java.nio.file.Path;
import java.util.List;

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

/**
 * Tests for {@link InvalidKubeEventsPropertyFailureAnalyzer}.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidKubeEventsPropertyFailureAnalyzerTests {

	private static final String BIND_FAILURE_ANALYZER = "org.springframework.boot.diagnostics.analyzer.BindFailureAnalyzer";

	@TempDir
	Path tmp;

	private Throwable startupFailure(String property) {
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
		assertThat(analysis.getDescription()).isEqualTo(
				"Invalid value for the Kubernetes event recorder's property '" + property + "': " + value + ".");
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
	void winsOverSpringBootsBindFailureAnalyzer() {
		Throwable failure = startupFailure("kubeevents.sink.retry.max-attempts=0");
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
					+ " 'kubeevents.correlator.spam-filter.refill-interval': 'PT0S' (must be positive).")
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
