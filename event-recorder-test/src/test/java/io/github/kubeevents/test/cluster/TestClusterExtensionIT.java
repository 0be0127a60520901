package io.github.kubeevents.test.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

/**
 * The extension with real local clusters: a class with its own settings gets its own cluster, which is closed after
 * the class; a parameter asking for the other backend's class fails clearly; a run inside this one shares this
 * JVM's shared cluster and leaves it open. Runs fixture classes with {@link EngineTestKit}.
 */
@WithTestCluster(backend = TestClusterBackend.LOCAL)
class TestClusterExtensionIT {

	private static final List<KubernetesTestCluster> seen = new CopyOnWriteArrayList<>();

	private static final List<TestNamespace> namespaces = new CopyOnWriteArrayList<>();

	@BeforeEach
	void clear() {
		seen.clear();
		namespaces.clear();
	}

	@Test
	void classWithItsOwnTtlGetsItsOwnClusterClosedAfterTheClass(KubernetesTestCluster shared) {
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(ShortTtl.class))
			.execute();

		results.testEvents().assertStatistics((stats) -> stats.started(3).succeeded(3));
		// the class's cluster is closed when its class container ends: a close() that throws fails the container
		assertThat(results.containerEvents().failed().stream().map(TestClusterExtensionIT::failure))
			.as("failed containers").isEmpty();
		assertThat(seen).hasSize(3).allSatisfy((c) -> assertThat(c).isSameAs(seen.get(0)));
		LocalControlPlane own = (LocalControlPlane) seen.get(0);
		assertThat(own).isNotSameAs(shared);
		assertThat(own.eventTtl()).isEqualTo(Duration.ofSeconds(5));
		Path dir = own.directory();
		assertThat(own.processes()).as("closed after the class").isEmpty();
		assertThat(dir).doesNotExist();
		// the shared cluster of this run is still fine
		assertThat(shared.isApiServerRunning()).isTrue();
	}

	@Test
	void parameterOfTheOtherBackendsTypeFailsWithAnExplanation() {
		Events tests = EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(WantsK3s.class))
			.execute()
			.testEvents();

		tests.assertThatEvents()
			.haveExactly(1, event(test("k3sOnly"), finishedWithFailure(instanceOf(ParameterResolutionException.class),
					message((m) -> m.contains("needs a K3sTestCluster, but the test runs on the local backend")))));
		assertThat(seen).hasSize(1);
		assertThat(((LocalControlPlane) seen.get(0)).processes()).isEmpty();
	}

	/**
	 * A JUnit run inside another (EngineTestKit, as the starter-test's context-pausing suite does) has its own root
	 * store, which closes when it ends; the shared cluster it used belongs to the outer run and must stay open.
	 */
	@Test
	void aRunInsideThisOneSharesTheClusterAndLeavesItOpen(KubernetesTestCluster shared) {
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(UsesTheSharedCluster.class))
			.execute();

		results.testEvents().assertStatistics((stats) -> stats.started(1).succeeded(1));
		assertThat(seen).containsExactly(shared);
		assertThat(shared.isApiServerRunning()).as("shared cluster still running after the inner run").isTrue();
		assertThat(TestClusterExtension.sharedCluster(TestClusterBackend.LOCAL)).isSameAs(shared);
	}

	@Test
	void namespacePerClassIsCreatedInjectedAndDeletedAfterTheClass(KubernetesTestCluster shared) throws ApiException {
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(OwnNamespace.class))
			.execute();

		results.allEvents().assertStatistics((stats) -> stats.failed(0));
		results.testEvents().assertStatistics((stats) -> stats.started(3).succeeded(3));
		assertThat(namespaces).as("constructor 3x, @BeforeAll, 3 tests").hasSize(7).allSatisfy((ns) -> assertThat(ns).isSameAs(namespaces.get(0)));
		TestNamespace namespace = namespaces.get(0);
		assertThat(namespace.name()).matches("own-namespace-[a-z0-9]{5}");
		assertThat(namespace.cluster()).isSameAs(shared);
		V1Namespace afterTheClass = new CoreV1Api(shared.adminClient()).readNamespace(namespace.name()).execute();
		assertThat(afterTheClass.getMetadata().getLabels()).containsEntry(TestNamespace.LABEL, "true");
		assertThat(afterTheClass.getStatus().getPhase()).as("deleted (no controller finalizes it locally)")
			.isEqualTo("Terminating");
	}

	@Test
	void aNamespaceOnAClusterOfItsOwnIsDeletedBeforeTheClusterCloses() {
		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(OwnClusterAndNamespace.class))
			.execute();

		assertThat(results.allEvents().failed().stream().map(TestClusterExtensionIT::failure)).isEmpty();
		results.testEvents().assertStatistics((stats) -> stats.started(1).succeeded(1));
		assertThat(seen).singleElement()
			.satisfies((cluster) -> assertThat(((LocalControlPlane) cluster).processes()).isEmpty());
	}

	@Test
	void aNamespaceParameterWithoutNamespacePerClassIsNotResolved() {
		Events tests = EngineTestKit.engine("junit-jupiter")
			.selectors(selectClass(NoNamespace.class))
			.execute()
			.testEvents();

		tests.assertThatEvents()
			.haveExactly(1, event(test("wantsOne"), finishedWithFailure(instanceOf(ParameterResolutionException.class),
					message((m) -> m.startsWith("No ParameterResolver registered for parameter [" + TestNamespace.class.getName())))));
	}

	private static String failure(Event event) {
		Throwable t = event.getRequiredPayload(TestExecutionResult.class).getThrowable().orElse(null);
		return event.getTestDescriptor().getDisplayName() + ": " + t + ((t != null && t.getCause() != null)
				? " caused by " + t.getCause() : "");
	}

	// ------------------------------------------------------------------------------------------------ fixtures

	@WithTestCluster(backend = TestClusterBackend.LOCAL, eventTtl = "5s")
	static class ShortTtl {

		private final KubernetesTestCluster fromConstructor;

		ShortTtl(KubernetesTestCluster cluster) {
			this.fromConstructor = cluster;
		}

		@Test
		void first(KubernetesTestCluster cluster) throws ApiException {
			seen.add(cluster);
			assertThat(cluster).isSameAs(this.fromConstructor);
			assertThat(new CoreV1Api(cluster.adminClient()).readNamespace("default").execute()).isNotNull();
		}

		@Test
		void second(LocalControlPlane cluster) {
			seen.add(cluster);
			assertThat(cluster.eventTtl()).isEqualTo(Duration.ofSeconds(5));
		}

		@Test
		@RequiresCapability(Capability.STOP_API_SERVER)
		void third(KubernetesTestCluster cluster) {
			seen.add(cluster);
		}

	}

	@WithTestCluster(backend = TestClusterBackend.LOCAL)
	static class UsesTheSharedCluster {

		@Test
		void uses(KubernetesTestCluster cluster) {
			seen.add(cluster);
		}

	}

	@WithTestCluster(namespacePerClass = true)
	static class OwnNamespace {

		OwnNamespace(TestNamespace namespace) {
			namespaces.add(namespace);
		}

		@BeforeAll
		static void beforeAll(TestNamespace namespace) {
			namespaces.add(namespace);
		}

		@Test
		void createsInIt(KubernetesTestCluster cluster, TestNamespace namespace) throws ApiException {
			namespaces.add(namespace);
			assertThat(new CoreV1Api(cluster.adminClient())
				.createNamespacedConfigMap(namespace.name(), new V1ConfigMap().metadata(new V1ObjectMeta().name("cm")))
				.execute()
				.getMetadata()
				.getNamespace()).isEqualTo(namespace.name());
		}

		@Test
		void secondTestSameNamespace(TestNamespace namespace) {
			namespaces.add(namespace);
		}

		@Nested
		class Inner {

			@Test
			void nestedClassesShareIt(TestNamespace namespace) {
				namespaces.add(namespace);
			}

		}

	}

	@WithTestCluster(backend = TestClusterBackend.LOCAL, isolated = true, namespacePerClass = true)
	static class OwnClusterAndNamespace {

		@Test
		void uses(KubernetesTestCluster cluster, TestNamespace namespace) {
			seen.add(cluster);
			assertThat(namespace.cluster()).isSameAs(cluster);
		}

	}

	@WithTestCluster
	static class NoNamespace {

		@Test
		void wantsOne(TestNamespace namespace) {
		}

	}

	@WithTestCluster(backend = TestClusterBackend.LOCAL, isolated = true)
	static class WantsK3s {

		@Test
		void local(KubernetesTestCluster cluster) {
			seen.add(cluster);
		}

		@Test
		void k3sOnly(K3sTestCluster cluster) {
			seen.add(cluster);
		}

	}

}
