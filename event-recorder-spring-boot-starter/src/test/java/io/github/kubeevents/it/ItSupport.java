package io.github.kubeevents.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.github.kubeevents.DropReason;
import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.autoconfigure.KubeEventsAutoConfiguration;
import io.github.kubeevents.autoconfigure.health.KubeEventsHealthContributorAutoConfiguration;
import io.github.kubeevents.health.KubeEventsHealthIndicator;
import io.github.kubeevents.introspect.RecorderSnapshot;
import io.github.kubeevents.introspect.RecorderStats;
import io.kubernetes.client.openapi.ApiClient;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.awaitility.core.ConditionFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.StandardEnvironment;

import static org.awaitility.Awaitility.await;

/**
 * Helpers shared by the integration tests: the starter wired the way an application wires it, namespaces,
 * Event listing, recorder snapshots and a controllable clock.
 */
final class ItSupport {

	/** Generous bound for anything asynchronous (a 2-core CI machine running etcd + kube-apiserver + the JVM). */
	static final Duration AWAIT = Duration.ofSeconds(60);

	static final String COMPONENT = "it-recorder";

	static final String HOST = "it-host-1";

	/** Matches a name-based (version 3) UUID as {@link UUID#toString()} prints it: an invalid event name's. */
	static final String UUID_REGEX = "[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";

	private ItSupport() {
	}

	/**
	 * The starter's auto-configuration with {@code client} as the application's {@link ApiClient} bean, a fixed
	 * component and host, the core/v1 API (these scenarios are client-go's {@code tools/record}; override with
	 * {@code kubeevents.sink.api=...}), and the structured event log switched off (it is not under test here).
	 * @param client the user client bean
	 * @param properties extra {@code kubeevents.*} properties
	 * @return the runner
	 */
	static ApplicationContextRunner starter(ApiClient client, String... properties) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withBean(ApiClient.class, () -> client)
			.withPropertyValues("kubeevents.component=" + COMPONENT, "kubeevents.host=" + HOST,
					"kubeevents.log-events=false", "kubeevents.sink.api=core/v1")
			.withPropertyValues(properties);
	}

	/**
	 * {@link #starter} as a process off a pod runs it: no host configured and no system environment, so neither
	 * {@code POD_NAME} nor {@code HOSTNAME}; the host is then the machine's host name ({@link #machineHostName()}).
	 * @param client the user client bean
	 * @param properties extra {@code kubeevents.*} properties
	 * @return the runner
	 */
	static ApplicationContextRunner starterOffAPod(ApiClient client, String... properties) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(KubeEventsAutoConfiguration.class))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME))
			.withBean(ApiClient.class, () -> client)
			.withPropertyValues("kubeevents.component=" + COMPONENT, "kubeevents.log-events=false",
					"kubeevents.sink.api=core/v1")
			.withPropertyValues(properties);
	}

	/** The machine's host name as the kernel has it (what client-go's {@code os.Hostname()} returns on Linux). */
	static String machineHostName() throws IOException {
		String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
		if (name.isEmpty()) {
			throw new AssertionError("these tests run on Linux, with a host name");
		}
		return name;
	}

	/**
	 * {@link #starter} with the starter's health indicator ({@code kubeevents}) auto-configured too, as an application
	 * with {@code spring-boot-health} has it; read it with {@link #health(ApplicationContext)}.
	 * @param client the user client bean
	 * @param properties extra {@code kubeevents.*} and {@code management.health.kubeevents.*} properties
	 * @return the runner
	 */
	static ApplicationContextRunner starterWithHealth(ApiClient client, String... properties) {
		return starter(client, properties)
			.withConfiguration(AutoConfigurations.of(KubeEventsHealthContributorAutoConfiguration.class));
	}

	/** The {@code kubeevents} health with its details, as the health endpoint shows it to an authorized user. */
	static Health health(ApplicationContext context) {
		return context.getBean(KubeEventsHealthIndicator.class).health(true);
	}

	static ConditionFactory awaiting() {
		return await().atMost(AWAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100));
	}

	/** Creates {@code it-<random>} with the admin client. */
	/** A test's cluster, its admin's core/v1 API and a namespace of the test's own. */
	record Fixture(KubernetesTestCluster cluster, CoreV1Api admin, String ns) {

		static Fixture of(KubernetesTestCluster cluster) throws ApiException {
			CoreV1Api admin = new CoreV1Api(cluster.adminClient());
			return new Fixture(cluster, admin, createNamespace(admin));
		}

	}

	static String createNamespace(CoreV1Api admin) throws ApiException {
		String name = "it-" + UUID.randomUUID().toString().substring(0, 8);
		admin.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(name))).execute();
		return name;
	}

	static List<CoreV1Event> events(CoreV1Api admin, String namespace) throws ApiException {
		return admin.listNamespacedEvent(namespace).execute().getItems();
	}

	static List<CoreV1Event> events(CoreV1Api admin, String namespace, String fieldSelector) throws ApiException {
		return admin.listNamespacedEvent(namespace).fieldSelector(fieldSelector).execute().getItems();
	}

	static RecorderSnapshot snapshot(ApplicationContext context) {
		return context.getBean(EventBroadcaster.class).snapshot(100);
	}

	static RecorderStats.Writes sinkStats(ApplicationContext context) {
		List<RecorderSnapshot.SinkSnapshot> sinks = snapshot(context).sinks();
		if (sinks.size() != 1) {
			throw new AssertionError("expected exactly one sink, got " + sinks);
		}
		return sinks.get(0).stats();
	}

	static long dropped(ApplicationContext context, DropReason reason) {
		return snapshot(context).dropped().get(reason.tag());
	}

	/**
	 * Every drop reason with count 0, except those given.
	 * @param nonZero alternating tag and count, e.g. {@code "spam_filtered", 7L}
	 * @return the complete expected map
	 */
	static Map<String, Long> drops(Object... nonZero) {
		Map<String, Long> expected = new LinkedHashMap<>();
		Arrays.stream(DropReason.values()).forEach((reason) -> expected.put(reason.tag(), 0L));
		for (int i = 0; i < nonZero.length; i += 2) {
			String tag = (String) nonZero[i];
			if (!expected.containsKey(tag)) {
				throw new IllegalArgumentException("unknown drop reason " + tag);
			}
			expected.put(tag, ((Number) nonZero[i + 1]).longValue());
		}
		return expected;
	}

}
