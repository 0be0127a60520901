package io.github.kubeevents.test.connection;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.test.cluster.TestClusterUnavailableException;
import io.github.kubeevents.test.example.WidgetApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.DockerClientFactory;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Tests for {@link TestClusterDevConfiguration} when the wanted backend is missing: the application does not start,
 * and Spring Boot reports what is missing and what to do ({@link TestClusterUnavailableFailureAnalyzer}) instead of a
 * stack trace. (The IT of the sample's {@code TestSampleApplication} covers a successful start; the sample's
 * {@code TestSampleApplicationWithoutClusterTests} the whole report on a machine with nothing.) And that the
 * cluster bean is destroyed after the {@link EventBroadcaster}, even when the application created the recorder first.
 */
@ExtendWith(OutputCaptureExtension.class)
class TestClusterDevConfigurationTests {

	private static final String NL = System.lineSeparator();

	@Test
	void theAnalyzerReportsTheExceptionsDescriptionAndAction() {
		TestClusterUnavailableException missing = new TestClusterUnavailableException("No K3s cluster: no Docker.",
				"Start Docker.");

		FailureAnalysis analysis = new TestClusterUnavailableFailureAnalyzer()
			.analyze(new BeanCreationException("kubeEventsDevCluster", "Failed to instantiate", missing));

		assertThat(analysis.getDescription()).isEqualTo("No K3s cluster: no Docker.");
		assertThat(analysis.getAction()).isEqualTo("Start Docker.");
		assertThat(analysis.getCause()).isSameAs(missing);
	}

	@Test
	void withoutTheBackendTheApplicationFailsWithAShortReport(CapturedOutput output) {
		assumeFalse(DockerClientFactory.instance().isDockerAvailable(), "a Docker engine answers here");

		assertThatException().isThrownBy(() -> new SpringApplicationBuilder(WidgetApplication.class)
			.sources(TestClusterDevConfiguration.class)
			.web(WebApplicationType.NONE)
			.properties("kubeevents.test.cluster=k3s")
			.run());

		assertThat(output.getOut()).contains(String.join(NL, "***************************",
				"APPLICATION FAILED TO START", "***************************", "", "Description:", "",
				"No K3s cluster: no Docker engine is reachable (Testcontainers found none).", "", "Action:", "",
				"Put org.testcontainers:testcontainers-k3s on the classpath and start a Docker engine that can run"
						+ " privileged containers.",
				""));
		assertThat(output.getAll()).as("no stack trace").doesNotContain("\tat ");
	}

	@Test
	void theClusterIsClosedAfterTheBroadcasterShutDownEvenWhenTheRecorderWasCreatedFirst() {
		Observed observed = new Observed();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withPropertyValues("kubeevents.sink.mode=none")
			.withBean(Observed.class, () -> observed)
			.withUserConfiguration(RecorderFirstThenCluster.class)
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(observed.states).containsExactly("broadcaster terminated when the cluster closed");
	}

	/**
	 * An application bean using the recorder, created before the cluster (as a component-scanned service of the
	 * application's main class is, before {@link TestClusterDevConfiguration}'s beans), and a stand-in for the cluster
	 * whose close records the broadcaster's state.
	 */
	@Configuration(proxyBeanMethods = false)
	static class RecorderFirstThenCluster {

		@Bean
		static BeanFactoryPostProcessor kubeEventsDevClusterOutlivesTheRecorder() {
			return TestClusterDevConfiguration.kubeEventsDevClusterOutlivesTheRecorder();
		}

		@Bean
		Object widgets(EventRecorder recorder, EventBroadcaster broadcaster, Observed observed) {
			observed.broadcaster = broadcaster;
			return recorder;
		}

		@Bean(TestClusterDevConfiguration.CLUSTER_BEAN_NAME)
		AutoCloseable cluster(Observed observed) {
			return () -> observed.states
				.add("broadcaster " + observed.broadcaster.stats().state() + " when the cluster closed");
		}

	}

	/** What the stand-in cluster saw. */
	static final class Observed {

		final List<String> states = new CopyOnWriteArrayList<>();

		volatile EventBroadcaster broadcaster;

	}

}
