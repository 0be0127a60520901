package io.github.kubeevents.sample;

import io.github.kubeevents.test.connection.TestClusterDevConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * The sample against a real Kubernetes API server on this machine, Spring Boot's dev-time way: from the repository
 * root,
 * <pre>
 * ./mvnw -pl sample-app -am spring-boot:test-run
 * </pre>
 * starts a control plane ({@link TestClusterDevConfiguration}: local etcd + kube-apiserver when
 * {@code KUBEBUILDER_ASSETS} or {@code scripts/envtest-assets.sh}'s cache has them, else K3s where Docker runs),
 * connects the recorder to it, and logs a {@code curl} that records an event through the sample and the
 * {@code curl}s that show the Events the API server stored. Stop it with Ctrl-C: the control plane goes with it.
 */
public class TestSampleApplication {

	/**
	 * Runs the sample with the test cluster.
	 * @param args the application's arguments (e.g. {@code --server.port=0})
	 */
	public static void main(String[] args) {
		run(args);
	}

	/**
	 * What {@link #main(String[])} does, for tests.
	 * @param args the application's arguments
	 * @return the running application
	 */
	static SpringApplication.Running run(String... args) {
		return SpringApplication.from(SampleApplication::main)
			.with(TestClusterDevConfiguration.class, TryIt.class)
			.run(args);
	}

	/**
	 * Logs how to record an event through the sample, after the test cluster's instructions (which are ordered
	 * before listeners without an order).
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class TryIt {

		private static final Logger logger = LoggerFactory.getLogger(TestSampleApplication.class);

		@Bean
		ApplicationListener<ApplicationReadyEvent> sampleTryIt() {
			return (event) -> logger.info("{}Record an event through the sample (then run one of the curls above):{}  {}",
					System.lineSeparator(), System.lineSeparator(),
					postCommand(event.getApplicationContext().getEnvironment().getProperty("local.server.port")));
		}

		static String postCommand(String port) {
			return "curl -sS -X POST http://localhost:" + port + "/events -H 'Content-Type: application/json' -d"
					+ " '{\"kind\": \"Pod\", \"apiVersion\": \"v1\", \"namespace\": \"default\", \"name\": \"web-1\","
					+ " \"type\": \"Warning\", \"reason\": \"BackOff\", \"message\": \"Back-off restarting failed container\"}'";
		}

	}

}
