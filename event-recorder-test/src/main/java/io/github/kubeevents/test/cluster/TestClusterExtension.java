package io.github.kubeevents.test.cluster;

import java.lang.reflect.Method;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import io.github.kubeevents.test.cluster.BackendSelector.Outcome;
import io.github.kubeevents.test.cluster.BackendSelector.Selection;
import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;

/**
 * JUnit Jupiter extension giving tests a real Kubernetes API server ({@link KubernetesTestCluster}); usually
 * registered through {@link WithTestCluster}, which also configures it ({@code @ExtendWith(TestClusterExtension.class)}
 * alone means the defaults).
 *
 * <p><b>Which backend</b> (decided before anything starts):
 * <ol>
 *   <li>{@link WithTestCluster#backend()} if not {@link TestClusterBackend#AUTO};</li>
 *   <li>else the system property {@value TestClusterBackend#SYSTEM_PROPERTY} ({@code local}, {@code k3s},
 *       {@code auto});</li>
 *   <li>else {@link TestClusterBackend#LOCAL} when {@link EnvtestAssets} finds kube-apiserver and etcd;</li>
 *   <li>else {@link TestClusterBackend#K3S} when {@code org.testcontainers:testcontainers-k3s} is on the classpath
 *       (checked by class name, so Testcontainers stays optional) and a Docker engine answers;</li>
 *   <li>else none: the class is <em>skipped</em> (reported as skipped, with instructions, also printed once on
 *       {@code System.err}), except under {@code CI=true}, where it <em>fails</em> with a
 *       {@link TestClusterUnavailableException}: one message saying what is missing and what to do, without a stack
 *       trace.</li>
 * </ol>
 * {@link RequiresCapability} on the class narrows the choice; on a method it skips that method on a backend that
 * cannot do it.
 *
 * <p><b>Which instance</b>: with the defaults, one shared cluster per backend and test JVM, started on first use and
 * closed when the JUnit run ends (through the root {@link ExtensionContext.Store}); tests must not stop it for good
 * nor close it. A class with a non-default {@link WithTestCluster#eventTtl()} or {@link WithTestCluster#isolated()}
 * gets its own, closed after the class. A cluster that failed to start fails every test that uses it, with the
 * reason (the tail of the process logs for {@link LocalControlPlane}).
 *
 * <p><b>Namespace</b>: with {@link WithTestCluster#namespacePerClass()}, a {@link TestNamespace} of its own on its
 * cluster, created before its first test and deleted after its last (after every {@code @AfterAll}).
 *
 * <p><b>Injection</b>: parameters of type {@link KubernetesTestCluster} (or {@link LocalControlPlane} /
 * {@link K3sTestCluster}, which fail to resolve on the other backend) in constructors, lifecycle and test methods;
 * of type {@link TestNamespace} in classes with {@link WithTestCluster#namespacePerClass()}.
 * Code that runs before parameters are resolved, e.g. Spring's static {@code @DynamicPropertySource} methods (with
 * this extension registered before {@code SpringExtension}), calls {@link #sharedCluster()}.
 *
 * <p>Thread-safe: shared clusters are started under a lock, so parallel test classes get the same instance.
 */
public final class TestClusterExtension implements ExecutionCondition, TestInstancePreConstructCallback,
		BeforeAllCallback, BeforeEachCallback, ParameterResolver {

	/** Creates the extension; JUnit does this. */
	public TestClusterExtension() {
	}

	/**
	 * Disables a class when no backend is available (outside CI) or the test does not apply to the selected backend,
	 * and a method whose {@link RequiresCapability} the selected backend lacks.
	 * @param context the class or method context
	 * @return enabled, or disabled with the reason
	 */
	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		if (context.getTestClass().isEmpty()) {
			return ConditionEvaluationResult.enabled("not a test class");
		}
		TestClusterRequest request = TestClusterRequest.of(context);
		Selection selection = select(request);
		if (!selection.available()) {
			if (selection.outcome() == Outcome.NOT_APPLICABLE) {
				return ConditionEvaluationResult.disabled("Not applicable: " + selection.reason());
			}
			if (Availability.isCi()) {
				return ConditionEvaluationResult.enabled("no Kubernetes test cluster, and CI=true: the tests fail");
			}
			String message = Availability.message(selection.wanted(), selection.reason());
			Availability.announceSkip(message);
			return ConditionEvaluationResult.disabled(message);
		}
		Optional<Method> method = context.getTestMethod();
		if (method.isPresent()) {
			Set<Capability> needed = TestClusterRequest.missingFor(method.get(), selection.backend());
			if (!needed.isEmpty()) {
				return ConditionEvaluationResult.disabled(
						"Not applicable: requires " + needed + ", which the " + selection.backend() + " backend cannot do");
			}
		}
		return ConditionEvaluationResult.enabled("Kubernetes test cluster: " + selection.backend());
	}

	/**
	 * Starts (or finds) the class's cluster before its instance is created.
	 * @param factoryContext unused
	 * @param context the context
	 */
	@Override
	public void preConstructTestInstance(TestInstanceFactoryContext factoryContext, ExtensionContext context) {
		prepare(context);
	}

	/**
	 * Starts (or finds) the class's cluster, and creates its namespace if it asks for one, so a failure shows before
	 * the first test.
	 * @param context the class context
	 */
	@Override
	public void beforeAll(ExtensionContext context) {
		prepare(context);
	}

	/**
	 * Finds the class's cluster and namespace (made in {@link #beforeAll}).
	 * @param context the method context
	 */
	@Override
	public void beforeEach(ExtensionContext context) {
		prepare(context);
	}

	/**
	 * Supports parameters of type {@link KubernetesTestCluster} and its implementations, and of type
	 * {@link TestNamespace} in a class with {@link WithTestCluster#namespacePerClass()}.
	 * @param parameterContext the parameter
	 * @param extensionContext the context
	 * @return whether the parameter is one of those
	 */
	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		Class<?> type = parameterContext.getParameter().getType();
		if (type == TestNamespace.class) {
			return TestClusterRequest.of(extensionContext).namespacePerClass();
		}
		return KubernetesTestCluster.class.isAssignableFrom(type);
	}

	/**
	 * The class's cluster, or its namespace.
	 * @param parameterContext the parameter
	 * @param extensionContext the context
	 * @return the cluster or the namespace
	 * @throws ParameterResolutionException when the parameter asks for another backend's class
	 */
	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		if (parameterContext.getParameter().getType() == TestNamespace.class) {
			TestClusterRequest request = TestClusterRequest.of(extensionContext);
			return TestClusterInstances.namespace(extensionContext, request, cluster(extensionContext));
		}
		KubernetesTestCluster cluster = cluster(extensionContext);
		Class<?> type = parameterContext.getParameter().getType();
		if (!type.isInstance(cluster)) {
			throw new ParameterResolutionException("Parameter " + parameterContext.getParameter() + " needs a "
					+ type.getSimpleName() + ", but the test runs on the " + cluster.backend() + " backend ("
					+ cluster.getClass().getSimpleName() + "); declare a KubernetesTestCluster or fix the backend with"
					+ " @WithTestCluster(backend = ...)");
		}
		return cluster;
	}

	/**
	 * The cluster a test in {@code context} uses, started on first use. Skips (aborts) the calling test when there is
	 * none, or throws under {@code CI=true}.
	 * @param context a class or method context of a test class using this extension
	 * @return the cluster
	 * @throws IllegalStateException when it could not start, or under {@code CI=true} when there is none
	 * ({@link TestClusterUnavailableException})
	 */
	public static KubernetesTestCluster cluster(ExtensionContext context) {
		TestClusterRequest request = TestClusterRequest.of(context);
		return TestClusterInstances.cluster(context, request, available(select(request)));
	}

	/**
	 * The shared cluster with the defaults (backend from {@value TestClusterBackend#SYSTEM_PROPERTY}, else
	 * automatic), started on first use; the same instance the extension injects into classes with the defaults. Skips
	 * (aborts) the calling test when there is none, or throws under {@code CI=true}. Prefer the extension: without it,
	 * nothing but JVM shutdown (a shutdown hook for {@link LocalControlPlane}, Testcontainers' reaper for K3s) stops
	 * the cluster.
	 * @return the cluster
	 * @throws IllegalStateException when it could not start, or under {@code CI=true} when there is none
	 */
	public static KubernetesTestCluster sharedCluster() {
		return sharedCluster(TestClusterBackend.AUTO);
	}

	/**
	 * The shared cluster of {@code backend} with the defaults, started on first use; the same instance the extension
	 * injects into classes with {@code @WithTestCluster(backend = ...)} and otherwise default settings. Skips (aborts)
	 * the calling test when the backend is not available, or throws under {@code CI=true}. See {@link #sharedCluster()}
	 * for who stops it.
	 * @param backend the backend, or {@link TestClusterBackend#AUTO} for {@link #sharedCluster()}'s choice
	 * @return the cluster
	 * @throws IllegalStateException when it could not start, or under {@code CI=true} when there is none
	 */
	public static KubernetesTestCluster sharedCluster(TestClusterBackend backend) {
		Selection selection = available(select(backend, EnumSet.noneOf(Capability.class)));
		return TestClusterInstances.shared(selection);
	}

	// ------------------------------------------------------------------------------------------------ internals

	/** The class's cluster, and its namespace if it asks for one. */
	private static void prepare(ExtensionContext context) {
		KubernetesTestCluster cluster = cluster(context);
		TestClusterRequest request = TestClusterRequest.of(context);
		if (request.namespacePerClass()) {
			TestClusterInstances.namespace(context, request, cluster);
		}
	}

	private static Selection select(TestClusterRequest request) {
		return select(request.backend(), request.required());
	}

	/** The selection on this machine (package-private for tests). */
	static Selection select(TestClusterBackend backend, Set<Capability> required) {
		return BackendSelector.select(backend, required, MachineEnvironment.INSTANCE);
	}

	private static Selection available(Selection selection) {
		if (selection.available()) {
			return selection;
		}
		if (selection.outcome() == Outcome.NOT_APPLICABLE) {
			return Assumptions.abort("Not applicable: " + selection.reason());
		}
		return Availability.unavailable(selection.wanted(), selection.reason());
	}

}
