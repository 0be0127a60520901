package io.github.kubeevents.test.autoconfigure;

import io.github.kubeevents.FakeEventRecorder;

import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestExecutionListener;

/**
 * Clears every {@link FakeEventRecorder} bean after each test method of a test class annotated with
 * {@link AutoConfigureFakeEventRecorder} (unless its {@code clearAfterEachTest} is {@code false}). Registered in
 * {@code META-INF/spring.factories}; does nothing for other test classes, and never loads a context that is not
 * loaded yet.
 *
 * <p>Stateless and thread-safe.
 */
public class FakeEventRecorderTestExecutionListener implements TestExecutionListener, Ordered {

	/** The order: just before Spring Boot's mock-resetting listener ({@code LOWEST_PRECEDENCE - 100}). */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 101;

	/** Creates the listener; Spring's test framework does this. */
	public FakeEventRecorderTestExecutionListener() {
	}

	/**
	 * {@link #ORDER}.
	 * @return the order
	 */
	@Override
	public int getOrder() {
		return ORDER;
	}

	/**
	 * Clears the fakes when the test's context maps {@code clearAfterEachTest} to {@code true}.
	 * @param testContext the test context
	 */
	@Override
	public void afterTestMethod(TestContext testContext) {
		if (!testContext.hasApplicationContext()) {
			return;
		}
		ApplicationContext context = testContext.getApplicationContext();
		if (Boolean.parseBoolean(
				context.getEnvironment().getProperty(FakeEventRecorderAutoConfiguration.CLEAR_AFTER_EACH_TEST_PROPERTY))) {
			context.getBeanProvider(FakeEventRecorder.class).forEach(FakeEventRecorder::clear);
		}
	}

}
