package io.github.kubeevents.autoconfigure;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Tests for {@link NoKubernetesClusterFailureAnalyzer}.
 */
@ExtendWith(OutputCaptureExtension.class)
class NoKubernetesClusterFailureAnalyzerTests {

	@TempDir
	Path tmp;

	@Test
	void analyzesKubernetesSinkWithoutCluster() {
		KubernetesConfigDetector detector = Machines.noCluster(this.tmp);
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(KubernetesConfigDetector.class, () -> detector)
			.withPropertyValues("kubeevents.sink.mode=kubernetes")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new NoKubernetesClusterFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).isEqualTo("The Kubernetes event recorder is configured to write"
						+ " to a cluster (kubeevents.sink.mode=kubernetes), but no Kubernetes configuration was found.\n\n"
						+ "Looked at: " + detector.describeSearch(true));
				assertThat(analysis.getAction()).startsWith("Do one of these:")
					.contains("run the application in a Kubernetes pod")
					.contains("point $KUBECONFIG at a kubeconfig, or create ~/.kube/config")
					.contains("define an ApiClient or KubeEventsConnectionDetails bean")
					.contains("set kubeevents.sink.mode=auto")
					.contains("kubeevents.sink.mode=log");
				assertThat(analysis.getCause()).isInstanceOf(NoKubernetesClusterException.class);
			});
	}

	@Test
	void ignoresOtherFailures() {
		assertThat(new NoKubernetesClusterFailureAnalyzer().analyze(new IllegalStateException("other"))).isNull();
	}

	@Test
	void isRegisteredInSpringFactories() {
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, ex) -> {
			}));
		assertThat(analyzers).hasAtLeastOneElementOfType(NoKubernetesClusterFailureAnalyzer.class);
	}

	@Test
	void applicationThatCannotStartPrintsTheDescriptionAndAction(CapturedOutput output) {
		NoCluster.dir = this.tmp;
		SpringApplication application = new SpringApplication(NoCluster.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--kubeevents.sink.mode=kubernetes"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\nThe Kubernetes event recorder is configured to write to a cluster"
					+ " (kubeevents.sink.mode=kubernetes), but no Kubernetes configuration was found.")
			.contains("Action:\n\nDo one of these:");
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
