package io.github.kubeevents.test.autoconfigure;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@link AutoConfigureFakeEventRecorder} in a {@code @WebMvcTest} slice, which leaves the starter's
 * auto-configuration out: the fake records with the component the application writes, by the starter's rule
 * ({@code kubeevents.component}, else {@code spring.application.name}, else the default), not the fake's own
 * {@code fake-recorder}. The test resources set {@code spring.application.name=widgets}.
 */
class WebMvcSliceTests {

	private static final InvolvedObject WIDGET = InvolvedObject.of("Widget", "example.com/v1", "default", "w-1");

	static EventSource recordThroughTheController(MockMvc mvc, FakeEventRecorder events) throws Exception {
		mvc.perform(post("/widgets/w-1")).andExpect(status().isOk());
		assertThat(events.recordedEvents()).hasSize(1);
		return events.recordedEvents().get(0).source();
	}

	@Nested
	@WebMvcTest(controllers = WidgetController.class)
	@ContextConfiguration(classes = SliceApplication.class)
	@AutoConfigureFakeEventRecorder
	class WithSpringApplicationName {

		@Test
		void recordsWithTheApplicationName(@Autowired MockMvc mvc, @Autowired FakeEventRecorder events,
				@Autowired Environment environment) throws Exception {
			assertThat(environment.getProperty("spring.application.name")).isEqualTo("widgets");
			assertThat(recordThroughTheController(mvc, events).component()).isEqualTo("widgets");
		}

	}

	@Nested
	@WebMvcTest(controllers = WidgetController.class, properties = "spring.config.name=no-application-properties")
	@ContextConfiguration(classes = SliceApplication.class)
	@AutoConfigureFakeEventRecorder
	class WithoutSpringApplicationName {

		@Test
		void recordsWithTheStartersDefaultComponent(@Autowired MockMvc mvc, @Autowired FakeEventRecorder events,
				@Autowired Environment environment) throws Exception {
			assertThat(environment.getProperty("spring.application.name")).isNull();
			assertThat(recordThroughTheController(mvc, events).component()).isEqualTo("kube-events")
				.isEqualTo(KubeEventsAutoConfiguration.DEFAULT_COMPONENT);
		}

	}

	@Nested
	@WebMvcTest(controllers = WidgetController.class,
			properties = { "kubeevents.component=widget-controller", "kubeevents.host=node-7" })
	@ContextConfiguration(classes = SliceApplication.class)
	@AutoConfigureFakeEventRecorder
	class WithKubeEventsComponent {

		@Test
		void recordsWithTheConfiguredComponentAndHost(@Autowired MockMvc mvc, @Autowired FakeEventRecorder events)
				throws Exception {
			assertThat(recordThroughTheController(mvc, events)).isEqualTo(new EventSource("widget-controller", "node-7"));
		}

	}

	@SpringBootConfiguration
	static class SliceApplication {

		@Bean
		WidgetController widgetController(EventRecorder recorder) {
			return new WidgetController(recorder);
		}

	}

	@RestController
	static class WidgetController {

		private final EventRecorder recorder;

		WidgetController(EventRecorder recorder) {
			this.recorder = recorder;
		}

		@PostMapping("/widgets/{name}")
		void create(@PathVariable String name) {
			this.recorder.about(WIDGET).normal("Created", "Created widget %s", name);
		}

	}

}
