package io.github.kubeevents.examples.josdk;

import java.io.InputStream;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.github.kubeevents.sink.EventsApi;
import io.github.kubeevents.test.cluster.KubernetesTestCluster;
import io.github.kubeevents.test.cluster.WithTestCluster;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The example operator on a real kube-apiserver with JOSDK 5 and fabric8 7.x: the CRD is installed, Greetings are
 * created, and the Events the reconciler recorded through the operator's own client are read back from the server
 * (with the official client, as an independent reader): a repeat of the same event is one Event with count 2, and a
 * failed reconcile is a Warning.
 */
@WithTestCluster
class GreetingJosdkOperatorIT {

	private static final Duration AWAIT = Duration.ofSeconds(90);

	private KubernetesClient client;

	private CoreV1Api admin;

	private String ns;

	private GreetingOperator operator;

	@BeforeEach
	void setUp(KubernetesTestCluster cluster) throws Exception {
		Config config = new ConfigBuilder(Config.empty()).withMasterUrl(cluster.baseUrl())
			.withCaCertData(Base64.getEncoder().encodeToString(cluster.caCertificate()))
			.withOauthToken(cluster.adminToken())
			.build();
		this.client = new KubernetesClientBuilder().withConfig(config).build();
		this.admin = new CoreV1Api(cluster.adminClient());
		try (InputStream crd = getClass().getResourceAsStream("/greetings.example.kubeevents.io-v1.yml")) {
			CustomResourceDefinition definition = this.client.apiextensions().v1().customResourceDefinitions().load(crd).item();
			this.client.resource(definition).serverSideApply();
			this.client.apiextensions().v1().customResourceDefinitions().withName(definition.getMetadata().getName())
				.waitUntilCondition((d) -> d != null && d.getStatus() != null && d.getStatus().getConditions().stream()
					.anyMatch((c) -> "Established".equals(c.getType()) && "True".equals(c.getStatus())), 60, TimeUnit.SECONDS);
		}
		this.ns = "josdk-" + UUID.randomUUID().toString().substring(0, 8);
		this.client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(this.ns).endMetadata().build())
			.create();
		this.operator = new GreetingOperator(this.client, this.ns, EventsApi.CORE_V1, "operator-pod-0");
		this.operator.start();
	}

	@AfterEach
	void tearDown() {
		if (this.operator != null) {
			this.operator.close();
		}
		if (this.client != null) {
			this.client.close();
		}
	}

	private Greeting greeting(String name, boolean fail) {
		Greeting greeting = new Greeting();
		greeting.getMetadata().setName(name);
		greeting.getMetadata().setNamespace(this.ns);
		GreetingSpec spec = new GreetingSpec();
		spec.setName("Ada");
		spec.setFail(fail);
		greeting.setSpec(spec);
		return this.client.resource(greeting).create();
	}

	private List<CoreV1Event> events(String reason) throws Exception {
		return this.admin.listNamespacedEvent(this.ns).fieldSelector("reason=" + reason).execute().getItems();
	}

	@Test
	void aRepeatedReconcileIsOneEventWithCountTwo() throws Exception {
		Greeting created = greeting("hello", false);
		await().atMost(AWAIT).until(() -> events("Greeted").size() == 1);
		// a new generation: JOSDK reconciles again, the reconciler records the same event again
		created.getSpec().setRound(1);
		this.client.resource(created).update();
		await().atMost(AWAIT).until(() -> events("Greeted").get(0).getCount() == 2);

		assertThat(events("Greeted")).singleElement().satisfies((event) -> {
			assertThat(event.getType()).isEqualTo("Normal");
			assertThat(event.getMessage()).isEqualTo("Hello, Ada");
			assertThat(event.getCount()).isEqualTo(2);
			assertThat(event.getInvolvedObject().getKind()).isEqualTo("Greeting");
			assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("example.kubeevents.io/v1");
			assertThat(event.getInvolvedObject().getName()).isEqualTo("hello");
			assertThat(event.getInvolvedObject().getUid()).isEqualTo(created.getMetadata().getUid());
			assertThat(event.getSource().getComponent()).isEqualTo(GreetingOperator.COMPONENT);
			assertThat(event.getSource().getHost()).isEqualTo("operator-pod-0");
		});
		assertThat(this.operator.broadcaster().stats().totalDropped()).isZero();
	}

	@Test
	void aFailedReconcileIsAWarning() throws Exception {
		greeting("broken", true);
		// the first attempt and the 3 retries JOSDK makes (GenericRetry.setMaxAttempts(3)), each a Warning: one
		// Event, count-patched
		await().atMost(AWAIT).until(() -> !events("ReconcileFailed").isEmpty() && events("ReconcileFailed").get(0).getCount() == 4);

		assertThat(events("ReconcileFailed")).singleElement().satisfies((event) -> {
			assertThat(event.getType()).isEqualTo("Warning");
			assertThat(event.getMessage()).isEqualTo("Reconcile failed: greeting 'broken' asks to fail");
			assertThat(event.getInvolvedObject().getName()).isEqualTo("broken");
			assertThat(event.getCount()).isEqualTo(4);
		});
		assertThat(events("Greeted")).isEmpty();
		// no fifth attempt: the retries are used up (the recorder wrote everything it was given)
		await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
			.until(() -> this.operator.broadcaster().stats().accepted() == 4);
		assertThat(events("ReconcileFailed").get(0).getCount()).isEqualTo(4);
		assertThat(this.operator.broadcaster().stats().totalDropped()).isZero();
	}

}
