package io.github.kubeevents.test.cluster;

import java.lang.reflect.Method;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.skippedWithReason;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

/**
 * The extension's decisions that need no cluster: classes that do not apply to their backend are skipped (not
 * failed, also under CI), invalid settings fail the class, method-level capabilities. Runs fixture classes with
 * {@link EngineTestKit}.
 */
class TestClusterExtensionTests {

	@Test
	void classRequiringWhatItsFixedBackendCannotDoIsSkippedWithTheReason() {
		Events containers = run(StopOnK3s.class).containerEvents();

		containers.assertThatEvents()
			.haveExactly(1, event(container(StopOnK3s.class), skippedWithReason("Not applicable: the test requires"
					+ " [STOP_API_SERVER], which the k3s backend (chosen by the test) cannot do")));
		assertThat(StopOnK3s.ran).isFalse();
	}

	@Test
	void aSubclassInheritsTheAnnotationsOfItsParent() {
		Events containers = run(InheritsStopOnK3s.class).containerEvents();

		containers.assertThatEvents()
			.haveExactly(1, event(container(InheritsStopOnK3s.class), skippedWithReason(
					(reason) -> reason.startsWith("Not applicable: the test requires [STOP_API_SERVER]"))));
	}

	@Test
	void invalidEventTtlFailsTheClass() {
		Events containers = run(InvalidTtl.class).containerEvents();

		containers.assertThatEvents()
			.haveExactly(1, event(container(InvalidTtl.class), finishedWithFailure(
					message((m) -> m.endsWith("not a duration: '5 seconds' (expected e.g. 500ms, 5s, 2m, 1h or PT5S)")))));
	}

	@Test
	void methodLevelCapabilitiesAreCheckedAgainstTheSelectedBackend() throws NoSuchMethodException {
		Method method = StopOnK3s.class.getDeclaredMethod("needsTerminatingNamespaces", KubernetesTestCluster.class);

		assertThat(TestClusterRequest.missingFor(method, TestClusterBackend.K3S))
			.containsExactly(Capability.NAMESPACES_STAY_TERMINATING);
		assertThat(TestClusterRequest.missingFor(method, TestClusterBackend.LOCAL)).isEmpty();
		assertThat(TestClusterRequest.missingFor(StopOnK3s.class.getDeclaredMethod("plain", KubernetesTestCluster.class), TestClusterBackend.K3S))
			.isEmpty();
	}

	private static org.junit.platform.testkit.engine.EngineExecutionResults run(Class<?> fixture) {
		return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute();
	}

	// ------------------------------------------------------------------------------------------------ fixtures

	@WithTestCluster(backend = TestClusterBackend.K3S)
	@RequiresCapability(Capability.STOP_API_SERVER)
	static class StopOnK3s {

		static volatile boolean ran;

		@org.junit.jupiter.api.Test
		void plain(KubernetesTestCluster cluster) {
			ran = true;
		}

		@org.junit.jupiter.api.Test
		@RequiresCapability(Capability.NAMESPACES_STAY_TERMINATING)
		void needsTerminatingNamespaces(KubernetesTestCluster cluster) {
			ran = true;
		}

	}

	static class InheritsStopOnK3s extends StopOnK3s {

	}

	@WithTestCluster(eventTtl = "5 seconds")
	static class InvalidTtl {

		@org.junit.jupiter.api.Test
		void never(KubernetesTestCluster cluster) {
		}

	}

}
