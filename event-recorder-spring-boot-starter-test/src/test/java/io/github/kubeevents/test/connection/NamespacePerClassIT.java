package io.github.kubeevents.test.connection;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.test.assertj.ClusterEvents;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.TestNamespace;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.github.kubeevents.test.example.WidgetApplication;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * A namespace per test class in {@code @SpringBootTest}s on the shared cluster, both ways: with
 * {@code @KubeEventsTestCluster(namespacePerClass = true)} the application knows the namespace (property, bean) and
 * the class has a context of its own, closed after the class, after which the namespace is deleted, with the Event
 * the recorder still held written; with {@code @WithTestCluster(namespacePerClass = true)} next to it only the test
 * gets a namespace and the context is shared. Runs fixture classes with {@link EngineTestKit}.
 */
@WithTestCluster
class NamespacePerClassIT {

	private static final Duration AWAIT = Duration.ofSeconds(60);

	private static final Map<String, TestNamespace> namespaces = new ConcurrentHashMap<>();

	private static final Map<String, ConfigurableApplicationContext> contexts = new ConcurrentHashMap<>();

	@Test
	void eachClassGetsItsOwnNamespaceDeletedAfterItsContextClosed(KubernetesTestCluster cluster) throws Exception {
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.configurationParameter(ClassOrderer.DEFAULT_ORDER_PROPERTY_NAME, ClassOrderer.OrderAnnotation.class.getName())
			.selectors(selectClass(AppNamespaceOne.class), selectClass(AppNamespaceTwo.class),
					selectClass(TestOnlyNamespaceOne.class), selectClass(TestOnlyNamespaceTwo.class))
			.execute();

		assertThat(results.allEvents().failed().stream().map((e) -> e.getTestDescriptor().getUniqueId() + ": "
				+ e.getRequiredPayload(TestExecutionResult.class).getThrowable().orElse(null))).isEmpty();
		results.testEvents().assertStatistics((stats) -> stats.started(4).succeeded(4));

		TestNamespace one = namespaces.get("one");
		TestNamespace two = namespaces.get("two");
		assertThat(one.name()).matches("app-namespace-one-[a-z0-9]{5}");
		assertThat(two.name()).matches("app-namespace-two-[a-z0-9]{5}");
		assertThat(contexts.get("one")).as("a context per class").isNotSameAs(contexts.get("two"));
		assertThat(contexts.get("one").isActive()).as("closed after its class").isFalse();
		assertThat(contexts.get("two").isActive()).isFalse();
		CoreV1Api api = new CoreV1Api(cluster.adminClient());
		for (TestNamespace namespace : List.of(one, two)) {
			assertThat(api.readNamespace(namespace.name()).execute().getStatus().getPhase())
				.as("%s deleted after its class (stays Terminating without a namespace controller)", namespace)
				.isEqualTo("Terminating");
			// recorded as the class's last act: written when its context closed, before the namespace went
			assertThat(ClusterEvents.read(cluster, namespace.name()).about("Widget", namespace.name(), "last"))
				.hasNormal("Closing");
		}

		assertThat(namespaces.get("test-one").name()).matches("test-only-namespace-one-[a-z0-9]{5}");
		assertThat(namespaces.get("test-two")).isNotSameAs(namespaces.get("test-one"));
		assertThat(contexts.get("test-one")).as("the test-only namespace keeps the context shared")
			.isSameAs(contexts.get("test-two"));
		assertThat(contexts.get("test-one").isActive()).isTrue();
	}

	/** Records one Event in the namespace and finds it there; then one more that the closing context must write. */
	static void recordsInTheNamespace(EventRecorder recorder, KubernetesTestCluster cluster, String namespace) {
		recorder.about(InvolvedObject.of("Widget", "example.com/v1", namespace, "w-1"))
			.warning("FailedCreate", "Error creating widget w-1: quota exceeded");
		await().atMost(AWAIT)
			.untilAsserted(() -> assertThat(ClusterEvents.read(cluster, namespace).about("Widget", namespace, "w-1"))
				.hasWarning("FailedCreate"));
		recorder.about(InvolvedObject.of("Widget", "example.com/v1", namespace, "last")).normal("Closing", "last one");
	}

	// ------------------------------------------------------------------------------------------------ fixtures

	@SpringBootTest(classes = WidgetApplication.class)
	@KubeEventsTestCluster(namespacePerClass = true)
	abstract static class AppNamespace {

		@Autowired
		TestNamespace namespace;

		@Value("${" + KubeEventsTestCluster.NAMESPACE_PROPERTY + "}")
		String property;

		@Autowired
		EventRecorder recorder;

		@Autowired
		ConfigurableApplicationContext context;

		void test(String key, KubernetesTestCluster cluster) throws Exception {
			namespaces.put(key, this.namespace);
			contexts.put(key, this.context);
			assertThat(this.property).isEqualTo(this.namespace.name());
			assertThat(this.namespace.cluster()).isSameAs(cluster);
			assertThat(new CoreV1Api(cluster.adminClient()).readNamespace(this.namespace.name())
				.execute()
				.getStatus()
				.getPhase()).isEqualTo("Active");
			recordsInTheNamespace(this.recorder, cluster, this.namespace.name());
		}

	}

	@Order(1)
	static class AppNamespaceOne extends AppNamespace {

		@Test
		void theApplicationKnowsTheNamespace(KubernetesTestCluster cluster) throws Exception {
			test("one", cluster);
		}

	}

	@Order(2)
	static class AppNamespaceTwo extends AppNamespace {

		@Test
		void theApplicationKnowsItsOwnNamespace(KubernetesTestCluster cluster) throws Exception {
			test("two", cluster);
		}

	}

	/**
	 * A configuration no other class in this JVM has: a context cached by an earlier class would have been paused and
	 * restarted, which the recorder does not survive yet (issue 12 item 1, {@link ContextPausingIT}).
	 */
	@SpringBootTest(classes = WidgetApplication.class, properties = "it.context-cache-key=namespace-per-class")
	@KubeEventsTestCluster
	@WithTestCluster(namespacePerClass = true)
	abstract static class TestOnlyNamespace {

		@Autowired
		EventRecorder recorder;

		@Autowired
		ConfigurableApplicationContext context;

		void test(String key, KubernetesTestCluster cluster, TestNamespace namespace) {
			namespaces.put(key, namespace);
			contexts.put(key, this.context);
			assertThat(this.context.getEnvironment().containsProperty(KubeEventsTestCluster.NAMESPACE_PROPERTY))
				.isFalse();
			recordsInTheNamespace(this.recorder, cluster, namespace.name());
		}

	}

	@Order(3)
	static class TestOnlyNamespaceOne extends TestOnlyNamespace {

		@Test
		void theTestGetsTheNamespace(KubernetesTestCluster cluster, TestNamespace namespace) {
			test("test-one", cluster, namespace);
		}

	}

	@Order(4)
	static class TestOnlyNamespaceTwo extends TestOnlyNamespace {

		@Test
		void theTestGetsItsOwnNamespace(KubernetesTestCluster cluster, TestNamespace namespace) {
			test("test-two", cluster, namespace);
		}

	}

}
