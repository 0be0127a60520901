package io.github.kubeevents.test.connection;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.test.assertj.ClusterEvents;
import io.github.kubeevents.test.autoconfigure.AutoConfigureFakeEventRecorder;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.github.kubeevents.test.example.WidgetApplication;
import io.github.kubeevents.test.example.WidgetService;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.SpringProperties;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The recorder in a real suite, where spring-test 7 pauses cached application contexts (issue 12 item 1): three test
 * classes run in one JVM, in this order, with spring-test's default pausing ({@code spring.test.context.cache.pause}
 * not set, so a cached context that is not in use is paused, {@code Lifecycle.stop()}, when the next class needs
 * another context, and restarted, {@code Lifecycle.start()}, when a class reuses it):
 * <ol>
 *   <li>{@link First}: {@code @SpringBootTest @KubeEventsTestCluster}, records an Event and finds it on the
 *       cluster;</li>
 *   <li>{@link Second}: the same application with {@code @AutoConfigureFakeEventRecorder}, another context, so the
 *       first one is paused;</li>
 *   <li>{@link Third}: exactly the first class's configuration, so spring-test restarts the paused context; it records
 *       an Event and must find it on the cluster.</li>
 * </ol>
 * The classes are fixtures run with {@link EngineTestKit} (ordered by {@link Order}); this test asserts that all
 * three pass, and that the premises held (the third class got the first one's context, which was paused while the
 * second ran), so it cannot pass without exercising the pause. A failure names the failing class and what went
 * wrong, e.g. that the recorder of the restarted context dropped the event as {@code shutdown}.
 */
@WithTestCluster
class ContextPausingIT {

	/** Makes the fixtures' contexts their own, apart from other test classes' cached contexts in this JVM. */
	private static final String SUITE_PROPERTY = "it.context-cache-key=context-pausing";

	private static final Duration AWAIT = Duration.ofSeconds(60);

	private static volatile ConfigurableApplicationContext firstContext;

	private static volatile Boolean firstContextRunningWhileSecondRan;

	private static volatile ConfigurableApplicationContext thirdContext;

	@Test
	void aCachedContextThatWasPausedAndRestartedStillWritesEvents(KubernetesTestCluster cluster) {
		assertThat(SpringProperties.getProperty("spring.test.context.cache.pause"))
			.as("spring-test's default context pausing (nothing may set spring.test.context.cache.pause)")
			.isNull();

		EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
			.configurationParameter(ClassOrderer.DEFAULT_ORDER_PROPERTY_NAME, ClassOrderer.OrderAnnotation.class.getName())
			.selectors(selectClass(Third.class), selectClass(Second.class), selectClass(First.class))
			.execute();

		List<String> failures = results.allEvents()
			.failed()
			.stream()
			.map(ContextPausingIT::describeFailure)
			.toList();
		// all at once: a failed class and a premise that did not hold explain each other
		assertSoftly((softly) -> {
			softly.assertThat(failures).as("failed test classes or methods of the suite").isEmpty();
			softly.assertThat(results.testEvents().succeeded().count()).as("tests that passed").isEqualTo(3);
			softly.assertThat(thirdContext)
				.as("premise: the third class reused the first class's cached context")
				.isSameAs(firstContext);
			softly.assertThat(firstContextRunningWhileSecondRan)
				.as("premise: spring-test paused the first class's context while the second class ran")
				.isFalse();
		});
	}

	/** The failed class or method and its exception with the messages of its causes (no stack traces). */
	private static String describeFailure(Event event) {
		StringBuilder text = new StringBuilder(event.getTestDescriptor().getUniqueId().toString());
		Throwable failure = event.getRequiredPayload(TestExecutionResult.class).getThrowable().orElse(null);
		for (Throwable t = failure; t != null; t = (t.getCause() != t) ? t.getCause() : null) {
			text.append((t == failure) ? ":\n  " : "\n  caused by ").append(t);
		}
		return text.toString();
	}

	/**
	 * Records an Event about a new Widget through the application's service and waits until the cluster stores it.
	 * Fails at once, naming the cause, when the recorder drops it because it was shut down.
	 */
	static void recordsAnEventTheClusterStores(WidgetService widgets, EventBroadcaster broadcaster,
			KubernetesTestCluster cluster, String phase) {
		String name = "pausing-" + phase + "-" + UUID.randomUUID().toString().substring(0, 8);
		long shutdownDropsBefore = broadcaster.stats().dropped(DropReason.SHUTDOWN.tag());

		widgets.create(name, 0);

		await().atMost(AWAIT)
			.failFast("The recorder did not write the Event about Widget default/" + name + ": it dropped it as 'shutdown'."
					+ " spring-test paused this cached application context (Lifecycle.stop()) while another test class ran, and restarted it (Lifecycle.start()) for this one;"
					+ " a recorder that cannot start again after stop() loses every event of the reused context (issue 12"
					+ " item 1; KubeEventsLifecycle logs it at WARN)",
					() -> assertThat(broadcaster.stats().dropped(DropReason.SHUTDOWN.tag()))
						.as(() -> "events dropped as 'shutdown' (recorder state: " + broadcaster.stats().state()
								+ ", drops by reason: " + broadcaster.stats().dropped() + ")")
						.isEqualTo(shutdownDropsBefore))
			.untilAsserted(() -> assertThat(ClusterEvents.read(cluster, "default").about("Widget", "default", name))
				.hasWarning("FailedCreate")
				.eventWithReason("FailedCreate")
				.hasMessage("Error creating widget " + name + ": quota exceeded")
				.hasComponent("widgets"));
	}

	// ------------------------------------------------------------------------------------------------ fixtures

	/** The configuration of the first and third class, identical by construction (so one cached context). */
	@SpringBootTest(classes = WidgetApplication.class, properties = SUITE_PROPERTY)
	@KubeEventsTestCluster
	abstract static class OnTheTestCluster {

		@Autowired
		WidgetService widgets;

		@Autowired
		EventBroadcaster broadcaster;

		@Autowired
		ConfigurableApplicationContext context;

	}

	@Order(1)
	static class First extends OnTheTestCluster {

		@Test
		void recordsAnEventTheClusterStores(KubernetesTestCluster cluster) {
			firstContext = this.context;
			ContextPausingIT.recordsAnEventTheClusterStores(this.widgets, this.broadcaster, cluster, "first");
		}

	}

	@Order(2)
	@SpringBootTest(classes = WidgetApplication.class, properties = SUITE_PROPERTY)
	@AutoConfigureFakeEventRecorder
	static class Second {

		@Autowired
		WidgetService widgets;

		@Autowired
		FakeEventRecorder events;

		@Test
		void recordsIntoTheFake() {
			firstContextRunningWhileSecondRan = (firstContext != null) ? firstContext.isRunning() : null;
			this.widgets.create("pausing-fake", 0);
			assertThat(this.events).hasRecorded(1).onlyEvent().isAbout("Widget", "default", "pausing-fake");
		}

	}

	@Order(3)
	static class Third extends OnTheTestCluster {

		@Test
		void recordsAnEventTheClusterStoresAfterTheContextWasPausedAndRestarted(KubernetesTestCluster cluster) {
			thirdContext = this.context;
			ContextPausingIT.recordsAnEventTheClusterStores(this.widgets, this.broadcaster, cluster, "third");
		}

	}

}
