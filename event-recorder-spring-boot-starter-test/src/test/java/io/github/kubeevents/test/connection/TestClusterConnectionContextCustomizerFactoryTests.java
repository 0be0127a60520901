package io.github.kubeevents.test.connection;

import java.util.List;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Identity;
import io.github.kubeevents.test.cluster.TestClusterBackend;
import io.github.kubeevents.test.cluster.WithTestCluster;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.ContextCustomizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link TestClusterConnectionContextCustomizerFactory}: which test classes get the connection details,
 * and which share a cached context.
 */
class TestClusterConnectionContextCustomizerFactoryTests {

	private final TestClusterConnectionContextCustomizerFactory factory = new TestClusterConnectionContextCustomizerFactory();

	@Test
	void nothingWithoutTheAnnotation() {
		assertThat(customizer(Plain.class)).isNull();
		assertThat(customizer(OnlyWithTestCluster.class)).isNull();
	}

	@Test
	void classesWithTheSameSettingsShareAContext() {
		ContextCustomizer admin = customizer(Admin.class);
		assertThat(admin).isNotNull().isEqualTo(customizer(AnotherAdmin.class));
		assertThat(admin).hasSameHashCodeAs(customizer(AnotherAdmin.class));
		assertThat(admin).hasToString("KubeEventsTestCluster(backend=auto, identity=ADMIN)");
		assertThat(admin).isNotEqualTo(customizer(Restricted.class));
		assertThat(customizer(Local.class)).hasToString("KubeEventsTestCluster(backend=local, identity=ADMIN)")
			.isNotEqualTo(admin);
	}

	@Test
	void nestedClassesInheritTheAnnotation() {
		assertThat(customizer(Admin.Inner.class)).isEqualTo(customizer(Admin.class));
	}

	@Test
	void aClusterOfItsOwnIsRefusedWithTheReason() {
		assertThatIllegalStateException().isThrownBy(() -> customizer(Isolated.class))
			.withMessageContaining("@WithTestCluster(isolated = true, eventTtl = \"\") gives the class a cluster of its"
					+ " own, which the Spring test context cannot reach");
		assertThatIllegalStateException().isThrownBy(() -> customizer(ShortTtl.class))
			.withMessageContaining("eventTtl = \"5s\"");
	}

	@Test
	void aClassWithANamespaceOfItsOwnHasAContextOfItsOwn() {
		ContextCustomizer own = customizer(OwnNamespace.class);
		assertThat(own).isEqualTo(customizer(OwnNamespace.class))
			.hasSameHashCodeAs(customizer(OwnNamespace.class))
			.isNotEqualTo(customizer(AnotherOwnNamespace.class))
			.isNotEqualTo(customizer(Admin.class));
		assertThat(own).hasToString("KubeEventsTestCluster(backend=auto, identity=ADMIN, namespace of "
				+ OwnNamespace.class.getName() + ")");
	}

	@Test
	void aNamespaceForTheTestOnlyKeepsTheContextShared() {
		assertThat(customizer(TestOnlyNamespace.class)).isEqualTo(customizer(Admin.class));
	}

	@Test
	void aNamespaceAskedForTwiceIsRefusedWithTheDifference() {
		assertThatIllegalStateException().isThrownBy(() -> customizer(TwoNamespaces.class))
			.withMessage(TwoNamespaces.class.getName() + " asks for a namespace of its own twice:"
					+ " @KubeEventsTestCluster(namespacePerClass = true) gives the application one (property"
					+ " kubeevents.test.namespace, a TestNamespace bean, a context of the class's own),"
					+ " @WithTestCluster(namespacePerClass = true) gives the test one as a parameter (the context stays"
					+ " shared). Keep one of them");
	}

	private ContextCustomizer customizer(Class<?> testClass) {
		return this.factory.createContextCustomizer(testClass, List.of());
	}

	static class Plain {

	}

	@WithTestCluster
	static class OnlyWithTestCluster {

	}

	@KubeEventsTestCluster
	static class Admin {

		class Inner {

		}

	}

	@KubeEventsTestCluster(identity = Identity.ADMIN)
	static class AnotherAdmin {

	}

	@KubeEventsTestCluster(identity = Identity.RESTRICTED)
	static class Restricted {

	}

	@KubeEventsTestCluster
	@WithTestCluster(backend = TestClusterBackend.LOCAL)
	static class Local {

	}

	@KubeEventsTestCluster(namespacePerClass = true)
	static class OwnNamespace {

	}

	@KubeEventsTestCluster(namespacePerClass = true)
	static class AnotherOwnNamespace {

	}

	@KubeEventsTestCluster
	@WithTestCluster(namespacePerClass = true)
	static class TestOnlyNamespace {

	}

	@KubeEventsTestCluster(namespacePerClass = true)
	@WithTestCluster(namespacePerClass = true)
	static class TwoNamespaces {

	}

	@KubeEventsTestCluster
	@WithTestCluster(isolated = true)
	static class Isolated {

	}

	@KubeEventsTestCluster
	@WithTestCluster(eventTtl = "5s")
	static class ShortTtl {

	}

}
