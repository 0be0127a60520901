package io.github.kubeevents.test.cluster;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import io.github.kubeevents.test.cluster.BackendSelector.Selection;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The clusters {@link TestClusterExtension} has started and when they are closed: one shared cluster per backend and
 * JVM, started on first use under a lock and closed when the root {@link ExtensionContext.Store} of the first JUnit
 * run that used it closes (the end of that run; a run started inside it, e.g. with {@code EngineTestKit}, shares the
 * clusters and leaves them open); a class with its own settings gets its own cluster in the store of its class context,
 * closed after the class. A cluster that failed to start is remembered with the failure, which every later use
 * rethrows. A class asking for a namespace of its own gets a {@link TestNamespace} in the store of the class context
 * that declares the request, deleted after that class. Thread-safe.
 */
final class TestClusterInstances {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(TestClusterExtension.class);

	private static final Object LOCK = new Object();

	private static final Map<TestClusterBackend, Holder> shared = new EnumMap<>(TestClusterBackend.class);

	/** Whether a run's root store holds the {@link SharedCloser}; guarded by {@link #LOCK}. */
	private static boolean closerRegistered;

	private TestClusterInstances() {
	}

	/** A started cluster, or why it did not start; closed by JUnit when its store closes. */
	private static final class Holder implements AutoCloseable {

		private final KubernetesTestCluster cluster;

		private final RuntimeException failure;

		private Holder(KubernetesTestCluster cluster, RuntimeException failure) {
			this.cluster = cluster;
			this.failure = failure;
		}

		KubernetesTestCluster get() {
			if (this.cluster == null) {
				throw new IllegalStateException(this.failure.getMessage(), this.failure);
			}
			return this.cluster;
		}

		@Override
		public void close() {
			if (this.cluster != null) {
				this.cluster.close();
			}
		}

	}

	/** Closes the shared clusters when the root extension context closes (end of the JUnit run). */
	private static final class SharedCloser implements AutoCloseable {

		@Override
		public void close() {
			synchronized (LOCK) {
				shared.values().forEach(Holder::close);
				shared.clear();
				closerRegistered = false;
			}
		}

	}

	/**
	 * The cluster for a test class's request, started on first use.
	 * @param context a class or method context of the test class
	 * @param request what the class asks for
	 * @param selection the available backend for it
	 * @return the cluster
	 * @throws IllegalStateException when it could not start
	 */
	static KubernetesTestCluster cluster(ExtensionContext context, TestClusterRequest request, Selection selection) {
		if (request.sharedCluster()) {
			// only runs that use a shared cluster close them, and only the first of them: a run inside another
			// (EngineTestKit) has its own root store, which closes at its end while the outer run goes on
			synchronized (LOCK) {
				if (!closerRegistered) {
					context.getRoot().getStore(NAMESPACE).computeIfAbsent(SharedCloser.class, (key) -> new SharedCloser(),
							SharedCloser.class);
					closerRegistered = true;
				}
			}
			return shared(selection);
		}
		Duration ttl = (request.eventTtl() != null) ? request.eventTtl() : LocalControlPlane.DEFAULT_EVENT_TTL;
		ExtensionContext owner = classContext(context, request.declaringClass());
		String key = "cluster:" + request.declaringClass().getName();
		return owner.getStore(NAMESPACE).computeIfAbsent(key, (k) -> start(selection, ttl), Holder.class).get();
	}

	/**
	 * The namespace of a test class that asked for one ({@link WithTestCluster#namespacePerClass()}), created on first
	 * use on the class's cluster and deleted when the class that declares the request ends (nested classes share
	 * it).
	 * @param context a class or method context of the test class
	 * @param request what the class asks for (with {@code namespacePerClass})
	 * @param cluster the class's cluster
	 * @return the namespace
	 * @throws IllegalStateException when it cannot be created
	 */
	static TestNamespace namespace(ExtensionContext context, TestClusterRequest request, KubernetesTestCluster cluster) {
		ExtensionContext owner = classContext(context, request.declaringClass());
		String key = "namespace:" + request.declaringClass().getName();
		return owner.getStore(NAMESPACE)
			.computeIfAbsent(key, (k) -> TestNamespace.create(cluster, request.declaringClass().getSimpleName()),
					TestNamespace.class);
	}

	/**
	 * The shared cluster of the selected backend, started on first use (without registering its closing).
	 * @param selection an available selection
	 * @return the cluster
	 * @throws IllegalStateException when it could not start
	 */
	static KubernetesTestCluster shared(Selection selection) {
		Holder holder;
		synchronized (LOCK) {
			holder = shared.computeIfAbsent(selection.backend(),
					(backend) -> start(selection, LocalControlPlane.DEFAULT_EVENT_TTL));
		}
		return holder.get();
	}

	private static Holder start(Selection selection, Duration eventTtl) {
		try {
			return new Holder(startCluster(selection, eventTtl), null);
		}
		catch (RuntimeException ex) {
			return new Holder(null, ex);
		}
	}

	/**
	 * Starts a new cluster of the selected backend, owned by the caller.
	 * @param selection an available selection
	 * @param eventTtl the API server's {@code --event-ttl}
	 * @return the running cluster
	 * @throws IllegalStateException when it does not start
	 */
	static KubernetesTestCluster startCluster(Selection selection, Duration eventTtl) {
		return switch (selection.backend()) {
			case LOCAL -> LocalControlPlane.builder().assetsDirectory(selection.assets()).eventTtl(eventTtl).start();
			// only reached when Testcontainers is on the classpath: the K3s classes are not loaded before
			case K3S -> K3sTestCluster.builder().eventTtl(eventTtl).start();
			case AUTO -> throw new IllegalStateException("AUTO is not a backend");
		};
	}

	private static ExtensionContext classContext(ExtensionContext context, Class<?> testClass) {
		for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
			if (c.get().getTestMethod().isEmpty() && c.get().getTestClass().filter(testClass::equals).isPresent()) {
				return c.get();
			}
		}
		return context;
	}

}
