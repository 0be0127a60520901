package io.github.kubeevents.test.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.FakeEventRecorder;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;

/**
 * Annotation for a test class that replaces the application's {@link EventRecorder} with a
 * {@link FakeEventRecorder} bean and makes the rest of the recorder's pipeline write nowhere: no Kubernetes API
 * server is contacted, whatever the configuration says ({@code kubeevents.sink.mode=kubernetes}, a kubeconfig, an
 * {@code ApiClient} or connection details bean). Inject the fake and assert on it, e.g. with
 * {@link io.github.kubeevents.test.assertj.KubeEventsAssertions}:
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureFakeEventRecorder
 * class WidgetServiceTests {
 *     @Autowired WidgetService widgets;
 *     @Autowired FakeEventRecorder events;
 *
 *     @Test
 *     void reportsAFailedCreate() {
 *         widgets.create("w-1");
 *         assertThat(events).hasWarning("FailedCreate")
 *             .eventWithReason("FailedCreate").isAbout("Widget", "default", "w-1");
 *     }
 * }
 * }</pre>
 *
 * <p>Imports {@link FakeEventRecorderAutoConfiguration} (listed in
 * {@code META-INF/spring/io.github.kubeevents.test.autoconfigure.AutoConfigureFakeEventRecorder.imports}), so it
 * also works in test slices that leave the starter's auto-configuration out (e.g. {@code @WebMvcTest}): there the
 * fake is the only recorder.
 *
 * <p>The fake keeps what it captured until it is cleared; by default that happens after each test method (see
 * {@link #clearAfterEachTest()}), as Spring Boot resets its mock beans, because the application context, and with
 * it the fake, is cached and shared by every test class with the same configuration.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@PropertyMapping(FakeEventRecorderAutoConfiguration.PROPERTY_PREFIX)
public @interface AutoConfigureFakeEventRecorder {

	/**
	 * Whether the {@link FakeEventRecorder} forgets what it captured after each test method. Events recorded while
	 * the application context starts are therefore seen by the first test method that runs with the context only.
	 * Mapped to the property {@code kubeevents.test.fake-recorder.clear-after-each-test}.
	 * @return {@code true} by default
	 */
	boolean clearAfterEachTest() default true;

}
