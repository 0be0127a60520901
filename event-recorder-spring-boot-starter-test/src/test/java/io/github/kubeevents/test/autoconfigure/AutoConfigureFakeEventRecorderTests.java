package io.github.kubeevents.test.autoconfigure;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.status.EffectiveSink;
import io.github.kubeevents.status.KubeEventsStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link AutoConfigureFakeEventRecorder} in a {@code @SpringBootTest} whose configuration asks for a real cluster
 * ({@code kubeevents.sink.mode=kubernetes}, a kubeconfig in {@code $KUBECONFIG}, set as a property, which the
 * starter's detection reads from the Environment): nothing contacts the "cluster", a port that counts connections.
 * The control case starts the same application without the annotation, against a second such port, and sees the
 * recorder connect.
 */
@SpringBootTest(classes = AutoConfigureFakeEventRecorderTests.Application.class,
		properties = { "kubeevents.sink.mode=kubernetes", "kubeevents.sink.api=auto", "KUBERNETES_SERVICE_HOST=",
				"HOME=target/no-home", "KUBECONFIG=target/fake-recorder-tests/kubeconfig" })
@AutoConfigureFakeEventRecorder
class AutoConfigureFakeEventRecorderTests {

	static final CountingServer cluster = CountingServer.start();

	static final Path KUBECONFIG = cluster.writeKubeconfig(Path.of("target/fake-recorder-tests/kubeconfig"));

	private static final InvolvedObject POD = InvolvedObject.of("Pod", "v1", "default", "web-0");

	@Autowired
	EventRecorder recorder;

	@Autowired
	FakeEventRecorder fake;

	@Autowired
	KubeEventsStatus status;

	@Autowired
	EventBroadcaster broadcaster;

	@AfterAll
	static void stopServer() throws IOException {
		cluster.close();
	}

	@Test
	void recordsIntoTheFakeAndNeverContactsTheCluster() {
		assertThat(this.recorder).isSameAs(this.fake);
		this.recorder.about(POD).warning("BackOff", "Back-off restarting failed container");
		assertThat(this.fake).onlyEvent().isWarning().hasReason("BackOff").isAbout("Pod", "default", "web-0");
		assertThat(this.status.sink()).isEqualTo(EffectiveSink.NONE);
		assertThat(this.broadcaster.snapshot(10).sinks()).isEmpty();
		// no sink means no client: nothing connects later either (a sink's discovery request runs at startup)
		assertThat(cluster.connections()).isZero();
	}

	@Test
	void withoutTheAnnotationTheSameApplicationContactsTheCluster() throws IOException {
		try (CountingServer otherCluster = CountingServer.start();
				ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
					.web(WebApplicationType.NONE)
					.properties("kubeevents.sink.mode=kubernetes", "kubeevents.sink.api=auto", "kubeevents.shutdown-timeout=1s",
							"KUBERNETES_SERVICE_HOST=", "HOME=target/no-home",
							"KUBECONFIG=" + otherCluster.writeKubeconfig(Path.of("target/fake-recorder-tests/other"))
								.toAbsolutePath())
					.run()) {
			context.getBean(EventRecorder.class).about(POD).warning("BackOff", "Back-off restarting failed container");
			assertThat(context.getBean(EventRecorder.class)).isNotInstanceOf(FakeEventRecorder.class);
			await().atMost(Duration.ofSeconds(30)).until(otherCluster::connections, (n) -> n > 0);
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
