package io.github.kubeevents.test.connection;

import java.time.Duration;
import java.util.List;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.LocalControlPlane;
import io.github.kubeevents.test.example.WidgetApplication;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import static org.awaitility.Awaitility.await;

/**
 * The JVM of a {@code spring-boot:test-run} that {@link DevRunShutdownIT} starts: Spring Boot's dev-time pattern
 * ({@code SpringApplication.from(main).with(TestClusterDevConfiguration.class)}) on a local control plane, three
 * occurrences of one events.k8s.io/v1 Event (the server has the series at 2, the third waits in the series cache
 * for the final write), then {@code System.exit(0)}, which runs the JVM's shutdown hooks as Ctrl-C does. Prints
 * {@code CONTROL-PLANE <etcd pid> <apiserver pid> <directory>}, {@code RECORDED}, and, when the context destroys
 * the probe (after the recorder's lifecycle stopped, before the cluster and the broadcaster, which the probe depends
 * on), {@code DROPPED-AT-STOP <shutdown drops>} and {@code SERIES-BEFORE-THE-CLUSTER-STOPPED <count>} as read from
 * the API server.
 */
public final class DevRunShutdownChild {

	/** The property naming the Pod the events are about. */
	static final String POD_PROPERTY = "probe.pod";

	private DevRunShutdownChild() {
	}

	/**
	 * Runs until the exit.
	 * @param args the application's arguments, with {@code --probe.pod=<the Pod's name>}
	 */
	public static void main(String[] args) {
		ConfigurableApplicationContext context = SpringApplication.from(WidgetApplication::main)
			.with(TestClusterDevConfiguration.class, Probe.class)
			.run(args)
			.getApplicationContext();
		String pod = context.getEnvironment().getRequiredProperty(POD_PROPERTY);
		LocalControlPlane cp = (LocalControlPlane) context.getBean(KubernetesTestCluster.class);
		List<ProcessHandle> processes = cp.processes();
		print("CONTROL-PLANE " + processes.get(0).pid() + " " + processes.get(1).pid() + " " + cp.directory());
		EventRecorder recorder = context.getBean(EventRecorder.class);
		InvolvedObject regarding = InvolvedObject.of("Pod", "v1", "default", pod).withUid("uid-" + pod);
		for (int i = 0; i < 3; i++) {
			recorder.event(regarding, EventType.WARNING, "Unhealthy", "Readiness probe failed");
		}
		EventsV1Api events = new EventsV1Api(cp.adminClient());
		await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> seriesCount(events, pod) == 2);
		print("RECORDED");
		System.exit(0);
	}

	static int seriesCount(EventsV1Api events, String pod) throws Exception {
		List<EventsV1Event> stored = events.listNamespacedEvent("default")
			.execute()
			.getItems()
			.stream()
			.filter((event) -> pod.equals(event.getRegarding().getName()))
			.toList();
		return (stored.size() == 1 && stored.get(0).getSeries() != null) ? stored.get(0).getSeries().getCount() : 0;
	}

	private static void print(String line) {
		System.out.println(line);
		System.out.flush();
	}

	/** Reads the Event from the API server when the context destroys it, just before the cluster. */
	@TestConfiguration(proxyBeanMethods = false)
	static class Probe {

		@Bean
		DisposableBean kubeEventsSeriesProbe(KubernetesTestCluster cluster, EventBroadcaster broadcaster,
				Environment environment) {
			String pod = environment.getRequiredProperty(POD_PROPERTY);
			return () -> {
				print("DROPPED-AT-STOP " + broadcaster.stats().dropped(DropReason.SHUTDOWN.tag()));
				String count;
				try {
					count = String.valueOf(seriesCount(new EventsV1Api(cluster.adminClient()), pod));
				}
				catch (Exception ex) {
					count = "unreadable (" + ex + ")";
				}
				print("SERIES-BEFORE-THE-CLUSTER-STOPPED " + count);
			};
		}

	}

}
