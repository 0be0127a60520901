package io.github.kubeevents.test.cluster;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import io.github.kubeevents.test.cluster.KubernetesTestCluster.Capability;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * What a test class asks {@link TestClusterExtension} for, read from its annotations: the nearest
 * {@link WithTestCluster} on the class, its superclasses or its enclosing classes (none means the defaults), and the
 * union of the {@link RequiresCapability} of all of them; a method's own {@link RequiresCapability} is checked
 * against the selected backend separately ({@link #missingFor}). Immutable.
 *
 * @param backend the named backend or AUTO
 * @param eventTtl the TTL, {@code null} for the default
 * @param isolated whether the class wants its own cluster
 * @param namespacePerClass whether the class wants its own namespace
 * @param required capabilities required by the class
 * @param declaringClass the class whose annotation applies (owner of a non-shared cluster)
 */
record TestClusterRequest(TestClusterBackend backend, Duration eventTtl, boolean isolated, boolean namespacePerClass,
		Set<Capability> required, Class<?> declaringClass) {

	/**
	 * Whether the class uses the shared cluster of its backend (default TTL, not isolated).
	 * @return {@code true} if shared
	 */
	boolean sharedCluster() {
		return !this.isolated && this.eventTtl == null;
	}

	/**
	 * The request of the test class of {@code context}.
	 * @param context a class or method context
	 * @return the request
	 * @throws IllegalArgumentException when {@link WithTestCluster#eventTtl()} is not a positive duration
	 */
	static TestClusterRequest of(ExtensionContext context) {
		Class<?> testClass = context.getRequiredTestClass();
		WithTestCluster with = null;
		Class<?> declaring = outermost(testClass);
		Set<Capability> required = EnumSet.noneOf(Capability.class);
		for (Class<?> c = testClass; c != null; c = c.getEnclosingClass()) {
			if (with == null) {
				Optional<WithTestCluster> found = AnnotationSupport.findAnnotation(c, WithTestCluster.class);
				if (found.isPresent()) {
					with = found.get();
					declaring = c;
				}
			}
			required.addAll(capabilities(AnnotationSupport.findAnnotation(c, RequiresCapability.class)));
		}
		if (with == null) {
			return new TestClusterRequest(TestClusterBackend.AUTO, null, false, false, required, declaring);
		}
		Duration ttl = with.eventTtl().isBlank() ? null : Durations.parse(with.eventTtl());
		if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
			throw new IllegalArgumentException("@WithTestCluster(eventTtl) must be positive: " + with.eventTtl());
		}
		return new TestClusterRequest(with.backend(), ttl, with.isolated(), with.namespacePerClass(), required,
				declaring);
	}

	/**
	 * What a method's {@link RequiresCapability} asks for that {@code backend} cannot do.
	 * @param method the test method
	 * @param backend the selected backend
	 * @return the missing capabilities, empty if none
	 */
	static Set<Capability> missingFor(Method method, TestClusterBackend backend) {
		Set<Capability> needed = capabilities(AnnotationSupport.findAnnotation(method, RequiresCapability.class));
		needed.removeAll(backend.capabilities());
		return needed;
	}

	private static Class<?> outermost(Class<?> testClass) {
		Class<?> c = testClass;
		while (c.getEnclosingClass() != null) {
			c = c.getEnclosingClass();
		}
		return c;
	}

	private static Set<Capability> capabilities(Optional<RequiresCapability> annotation) {
		Set<Capability> set = EnumSet.noneOf(Capability.class);
		annotation.ifPresent((a) -> set.addAll(Arrays.asList(a.value())));
		return set;
	}

}
