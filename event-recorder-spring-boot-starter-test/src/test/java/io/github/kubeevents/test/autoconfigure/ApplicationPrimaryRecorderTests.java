package io.github.kubeevents.test.autoconfigure;


import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSpec;
import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AutoConfigureFakeEventRecorder} next to an application's own {@code @Primary EventRecorder} bean (issue 12
 * item 5; it failed with {@code NoUniqueBeanDefinitionException: more than one 'primary' bean found}): the fake
 * wins, deterministically. It is what every by-type injection of {@link EventRecorder} gets, including the
 * application's own decorator's delegate; the application's beans stay in the context, no longer primary, and are
 * still injectable by name or qualifier.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApplicationPrimaryRecorderTests {

	private static final InvolvedObject POD = InvolvedObject.of("Pod", "v1", "default", "web-0");

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(KubeEventsAutoConfiguration.class, FakeEventRecorderAutoConfiguration.class))
		.withPropertyValues("KUBECONFIG=", "KUBERNETES_SERVICE_HOST=", "HOME=target/no-home");

	@Test
	void theFakeIsInjectedNextToAnApplicationPrimaryRecorder(CapturedOutput output) {
		this.runner.withUserConfiguration(PrimaryRecorder.class, Service.class).run((context) -> {
			assertThat(context).hasNotFailed();
			FakeEventRecorder fake = context.getBean(FakeEventRecorder.class);
			assertThat(context.getBean(EventRecorder.class)).isSameAs(fake);
			assertThat(context.getBean(Service.class).recorder).isSameAs(fake);
			assertThat(context).getBeanNames(EventRecorder.class)
				.containsExactlyInAnyOrder("fakeEventRecorder", "applicationRecorder");
			assertThat(context.getBeanFactory().getBeanDefinition("applicationRecorder").isPrimary()).isFalse();
			assertThat(context.getBean("applicationRecorder")).isInstanceOf(CountingRecorder.class);

			context.getBean(Service.class).work();

			assertThat(fake).onlyEvent().hasReason("Worked");
			assertThat(((CountingRecorder) context.getBean("applicationRecorder")).calls).isZero();
		});
		assertThat(output).contains("@AutoConfigureFakeEventRecorder: the FakeEventRecorder is injected where an"
				+ " EventRecorder is wanted; bean 'applicationRecorder' is no longer @Primary (inject it by name or"
				+ " qualifier)");
	}

	@Test
	void aPrimaryBeanDefinitionRegisteredAnotherWayLosesPrimaryToo() {
		this.runner.withBean("registered", EventRecorder.class, CountingRecorder::new, (definition) -> definition.setPrimary(true))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(EventRecorder.class)).isInstanceOf(FakeEventRecorder.class);
			});
	}

	@Test
	void anApplicationDecoratorWrapsTheFakeAndStaysInjectableByQualifier() {
		this.runner.withUserConfiguration(PrimaryDecorator.class).run((context) -> {
			assertThat(context).hasNotFailed();
			FakeEventRecorder fake = context.getBean(FakeEventRecorder.class);
			assertThat(context.getBean(EventRecorder.class)).isSameAs(fake);
			Decorator decorator = context.getBean(Decorator.class);
			assertThat(decorator.delegate).isSameAs(fake);

			decorator.about(POD).normal("ViaDecorator", "through the application's decorator");

			assertThat(decorator.calls).isEqualTo(1);
			assertThat(fake).onlyEvent().hasReason("ViaDecorator");
		});
	}

	@Test
	void withoutTheFakeTheApplicationsPrimaryRecorderIsInjected() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withPropertyValues("KUBECONFIG=", "KUBERNETES_SERVICE_HOST=", "HOME=target/no-home")
			.withUserConfiguration(PrimaryRecorder.class)
			.run((context) -> assertThat(context.getBean(EventRecorder.class)).isInstanceOf(CountingRecorder.class));
	}

	/** The same in a {@code @SpringBootTest}. */
	@Nested
	@SpringBootTest(classes = Application.class,
			properties = { "KUBECONFIG=", "KUBERNETES_SERVICE_HOST=", "HOME=target/no-home" })
	@AutoConfigureFakeEventRecorder
	class InASpringBootTest {

		@Autowired
		EventRecorder recorder;

		@Autowired
		Service service;

		@Autowired
		@Qualifier("applicationRecorder")
		EventRecorder applicationRecorder;

		@Test
		void theFakeWins() {
			assertThat(this.recorder).isInstanceOf(FakeEventRecorder.class);
			assertThat(this.applicationRecorder).isInstanceOf(CountingRecorder.class);

			this.service.work();

			assertThat((FakeEventRecorder) this.recorder).onlyEvent().hasReason("Worked");
		}

	}

	// ------------------------------------------------------------------------------------------------ fixtures

	/** An application recorder, e.g. one writing somewhere else; counts its calls. */
	static class CountingRecorder implements EventRecorder {

		int calls;

		@Override
		public void record(EventSpec spec) {
			this.calls++;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryRecorder {

		@Bean
		@Primary
		EventRecorder applicationRecorder() {
			return new CountingRecorder();
		}

	}

	/** Application code that records through whatever recorder is injected. */
	static class Service {

		final EventRecorder recorder;

		Service(EventRecorder recorder) {
			this.recorder = recorder;
		}

		void work() {
			this.recorder.about(POD).normal("Worked", "did the work");
		}

	}

	/** An application decorator of the recorder (e.g. for tracing): counts, then forwards. */
	static class Decorator implements EventRecorder {

		final EventRecorder delegate;

		int calls;

		Decorator(EventRecorder delegate) {
			this.delegate = delegate;
		}

		@Override
		public void record(EventSpec spec) {
			this.calls++;
			this.delegate.record(spec);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryDecorator {

		@Bean
		@Primary
		Decorator decorator(EventRecorder delegate) {
			return new Decorator(delegate);
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

		@Bean
		@Primary
		EventRecorder applicationRecorder() {
			return new CountingRecorder();
		}

		@Bean
		Service service(EventRecorder recorder) {
			return new Service(recorder);
		}


	}

}
