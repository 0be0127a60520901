package io.github.kubeevents.test.connection;

import io.github.kubeevents.test.cluster.TestNamespace;

import org.springframework.core.Ordered;
import org.springframework.test.annotation.DirtiesContext.HierarchyMode;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.TestExecutionListener;

/**
 * Closes the application context of a test class with {@link KubeEventsTestCluster#namespacePerClass()} after the
 * class, as {@code @DirtiesContext} would: no other class can use it (it is the class's own), and closing it stops
 * the recorder, which writes what it holds, and then deletes the class's {@link TestNamespace}. Registered in
 * {@code META-INF/spring.factories}; does nothing for other classes.
 *
 * <p>Ordered first, so that in {@code afterTestClass}, which runs the listeners in reverse order, it comes last,
 * after every listener that may still use the context.
 *
 * <p>Stateless and thread-safe.
 */
class TestNamespaceContextCloser implements TestExecutionListener, Ordered {

	TestNamespaceContextCloser() {
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public void afterTestClass(TestContext testContext) {
		KubeEventsTestCluster annotation = TestContextAnnotationUtils.findMergedAnnotation(testContext.getTestClass(),
				KubeEventsTestCluster.class);
		if (annotation != null && annotation.namespacePerClass() && testContext.hasApplicationContext()) {
			testContext.markApplicationContextDirty(HierarchyMode.EXHAUSTIVE);
		}
	}

}
