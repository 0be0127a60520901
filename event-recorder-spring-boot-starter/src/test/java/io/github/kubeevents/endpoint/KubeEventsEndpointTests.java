package io.github.kubeevents.endpoint;

import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;

import io.github.kubeevents.EventBroadcaster;
import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.status.KubeEventsStatus;
import io.github.kubeevents.status.SinkMode;
import io.github.kubeevents.autoconfigure.TestStatuses;
import io.github.kubeevents.introspect.RecorderSnapshot.CorrelatorSnapshot;
import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.github.kubeevents.testsupport.InMemoryEventSink;
import io.github.kubeevents.testsupport.TestClusters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link KubeEventsEndpoint}.
 */
class KubeEventsEndpointTests {

	private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

	private final InMemoryEventSink sink = new InMemoryEventSink();

	private final EventBroadcaster broadcaster = EventBroadcaster.builder()
		.clock(Clock.fixed(NOW, ZoneOffset.UTC))
		.build();

	private final KubeEventsStatus status = TestStatuses.writing(SinkMode.AUTO, this.sink, "EventSink bean", null,
			false);

	@BeforeEach
	void recordThreeEvents() {
		this.broadcaster.startRecordingToSink(this.sink);
		this.broadcaster.start();
		EventRecorder recorder = this.broadcaster.newRecorder(new EventSource("orders", "pod-1"));
		recorder.event(TestClusters.pod("web-1"), EventType.NORMAL, "Started", "token=s3cr3t");
		recorder.event(TestClusters.pod("web-2"), EventType.WARNING, "BackOff", "Back-off restarting");
		recorder.event(TestClusters.node("node-1"), EventType.WARNING, "NodeNotReady", "Node node-1 is not ready");
		await().until(() -> this.sink.created().size() == 3);
	}

	@AfterEach
	void shutdown() {
		this.broadcaster.shutdown(Duration.ofSeconds(5));
	}

	private KubeEventsEndpoint endpoint(int defaultLimit, Show show, String... roles) {
		return new KubeEventsEndpoint(this.broadcaster, this.status, new EventSource("orders", "pod-1"), defaultLimit,
				show, List.of(roles));
	}

	private static SecurityContext user(String... roles) {
		Principal principal = () -> "alice";
		Set<String> granted = Set.of(roles);
		return new SecurityContext() {

			@Override
			public Principal getPrincipal() {
				return principal;
			}

			@Override
			public boolean isUserInRole(String role) {
				return granted.contains(role);
			}

		};
	}

	private static List<String> messages(KubeEventsEndpoint.KubeEventsDescriptor descriptor) {
		return descriptor.recorder()
			.sinks()
			.get(0)
			.correlator()
			.observedEvents()
			.stream()
			.map(CorrelatorSnapshot.ObservedEvent::message)
			.toList();
	}

	@Test
	void descriptorsAreOperationResponseBodies() {
		assertThat(endpoint(100, Show.NEVER).kubeEvents(SecurityContext.NONE, null))
			.isInstanceOf(OperationResponseBody.class);
		assertThat(endpoint(100, Show.NEVER).object(SecurityContext.NONE, new String[] { "default", "web-1" }))
			.isInstanceOf(OperationResponseBody.class);
	}

	@Test
	void describesSourceSinkAndSnapshot() {
		KubeEventsEndpoint.KubeEventsDescriptor descriptor = endpoint(100, Show.NEVER).kubeEvents(SecurityContext.NONE,
				null);
		assertThat(descriptor.component()).isEqualTo("orders");
		assertThat(descriptor.host()).isEqualTo("pod-1");
		assertThat(descriptor.sink())
			.isEqualTo(new KubeEventsEndpoint.SinkDescriptor("auto", "kubernetes", "EventSink bean", null, false, null));
		assertThat(descriptor.recorder().takenAt()).isEqualTo(NOW);
		assertThat(descriptor.recorder().state()).isEqualTo("running");
		assertThat(descriptor.recorder().accepted()).isEqualTo(3);
		assertThat(descriptor.recorder().sinks()).singleElement()
			.satisfies((sink) -> assertThat(sink.stats().created()).isEqualTo(3));
	}

	@Test
	void defaultLimitBoundsEachListButNotTheSizes() {
		CorrelatorSnapshot correlator = endpoint(1, Show.NEVER).kubeEvents(SecurityContext.NONE, null)
			.recorder()
			.sinks()
			.get(0)
			.correlator();
		assertThat(correlator.aggregatorSize()).isEqualTo(3);
		assertThat(correlator.observedSize()).isEqualTo(3);
		assertThat(correlator.spamBucketsSize()).isEqualTo(3);
		assertThat(correlator.aggregateRecords()).hasSize(1);
		assertThat(correlator.observedEvents()).hasSize(1);
		assertThat(correlator.spamBuckets()).hasSize(1);
	}

	@Test
	void limitOverridesTheDefault() {
		KubeEventsEndpoint endpoint = endpoint(1, Show.NEVER);
		assertThat(messages(endpoint.kubeEvents(SecurityContext.NONE, 2))).hasSize(2);
		assertThat(messages(endpoint.kubeEvents(SecurityContext.NONE, 0))).isEmpty();
		assertThat(messages(endpoint.kubeEvents(SecurityContext.NONE, 50))).hasSize(3);
	}

	@Test
	void negativeLimitIsABadRequest() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> endpoint(100, Show.NEVER).kubeEvents(SecurityContext.NONE, -1))
			.withMessage("limit must be zero or positive, was -1")
			.extracting(InvalidEndpointRequestException::getReason)
			.isEqualTo("Invalid limit");
	}

	@Test
	void negativeDefaultLimitIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> endpoint(-1, Show.NEVER))
			.withMessage("defaultLimit must be zero or positive, was -1");
	}

	@Test
	void messagesAreHiddenByDefault() {
		assertThat(messages(endpoint(100, Show.NEVER).kubeEvents(SecurityContext.NONE, null)))
			.containsOnly(KubeEventsEndpoint.HIDDEN)
			.hasSize(3);
		assertThat(messages(endpoint(100, Show.NEVER).kubeEvents(user("admin"), null)))
			.containsOnly(KubeEventsEndpoint.HIDDEN);
	}

	@Test
	void messagesAreShownWhenAlwaysAllowed() {
		assertThat(messages(endpoint(100, Show.ALWAYS).kubeEvents(SecurityContext.NONE, null)))
			.containsExactlyInAnyOrder("token=s3cr3t", "Back-off restarting", "Node node-1 is not ready");
	}

	@Test
	void messagesAreShownToAuthorizedUsersOnly() {
		KubeEventsEndpoint endpoint = endpoint(100, Show.WHEN_AUTHORIZED, "ops");
		assertThat(messages(endpoint.kubeEvents(SecurityContext.NONE, null))).containsOnly(KubeEventsEndpoint.HIDDEN);
		assertThat(messages(endpoint.kubeEvents(user("dev"), null))).containsOnly(KubeEventsEndpoint.HIDDEN);
		assertThat(messages(endpoint.kubeEvents(user("ops"), null))).contains("token=s3cr3t");
	}

	@Test
	void messagesAreShownToAnyAuthenticatedUserWithoutRoles() {
		KubeEventsEndpoint endpoint = endpoint(100, Show.WHEN_AUTHORIZED);
		assertThat(messages(endpoint.kubeEvents(SecurityContext.NONE, null))).containsOnly(KubeEventsEndpoint.HIDDEN);
		assertThat(messages(endpoint.kubeEvents(user(), null))).contains("token=s3cr3t");
	}

	@Test
	void describesOneNamespacedObject() {
		ObjectDescriptor descriptor = endpoint(1, Show.NEVER).object(SecurityContext.NONE,
				new String[] { "default", "web-1" });
		assertThat(descriptor).isNotNull();
		assertThat(descriptor.object()).isEqualTo(new ObjectRef(null, "default", "web-1"));
		assertThat(descriptor.sinks()).singleElement().satisfies((sink) -> {
			assertThat(sink.name()).isEqualTo("sink");
			assertThat(sink.api()).isEqualTo("core/v1");
			assertThat(sink.aggregateRecords()).singleElement()
				.satisfies((record) -> assertThat(record.object()).isEqualTo(new ObjectRef("Pod", "default", "web-1")));
			assertThat(sink.observedEvents()).singleElement().satisfies((event) -> {
				assertThat(event.reason()).isEqualTo("Started");
				assertThat(event.message()).isEqualTo(KubeEventsEndpoint.HIDDEN);
			});
			assertThat(sink.spamBuckets()).hasSize(1);
			assertThat(sink.series()).isEmpty();
		});
	}

	@Test
	void describesOneClusterScopedObject() {
		ObjectDescriptor descriptor = endpoint(100, Show.ALWAYS).object(SecurityContext.NONE, new String[] { "node-1" });
		assertThat(descriptor).isNotNull();
		assertThat(descriptor.object()).isEqualTo(new ObjectRef(null, null, "node-1"));
		assertThat(descriptor.sinks()).singleElement()
			.satisfies((sink) -> assertThat(sink.observedEvents()).singleElement().satisfies((event) -> {
				assertThat(event.object()).isEqualTo(new ObjectRef("Node", null, "node-1"));
				assertThat(event.message()).isEqualTo("Node node-1 is not ready");
			}));
	}

	@Test
	void unknownObjectIsNotFound() {
		KubeEventsEndpoint endpoint = endpoint(100, Show.NEVER);
		assertThat(endpoint.object(SecurityContext.NONE, new String[] { "default", "web-9" })).isNull();
		assertThat(endpoint.object(SecurityContext.NONE, new String[] { "web-1" })).as("a pod is not cluster-scoped")
			.isNull();
		assertThat(endpoint.object(SecurityContext.NONE, new String[] { "kube-system", "node-1" })).isNull();
	}

	@Test
	void moreThanTwoPathSegmentsIsABadRequest() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> endpoint(100, Show.NEVER).object(SecurityContext.NONE, new String[] { "a", "b", "c" }))
			.withMessage("expected /{namespace}/{name} or /{name}, got a/b/c");
	}

}
