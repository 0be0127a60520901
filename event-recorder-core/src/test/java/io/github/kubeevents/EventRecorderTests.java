package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.CopyOnWriteArrayList;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** How the recorder builds events (client-go's makeEvent) and how it treats bad input. */
class EventRecorderTest {

	private static final Instant NOW = Instant.parse("2026-11-30T12:00:00.123456789Z");

	private final List<CoreV1Event> received = new CopyOnWriteArrayList<>();

	private final EventBroadcaster broadcaster = EventBroadcaster.builder().clock(TickingClock.fixed(NOW)).build();

	private final EventRecorder recorder;

	EventRecorderTest() {
		this.broadcaster.subscribe("test", this.received::add);
		this.broadcaster.start();
		this.recorder = this.broadcaster.newRecorder(new EventSource("eventTest", "node-1"));
	}

	@AfterEach
	void shutdown() {
		assertThat(this.broadcaster.shutdown(Duration.ofSeconds(5))).isTrue();
	}

	private static V1Pod pod() {
		return new V1Pod().metadata(new V1ObjectMeta().name("foo").namespace("baz").uid("bar").resourceVersion("10"));
	}

	private CoreV1Event single() {
		await().atMost(Duration.ofSeconds(5)).until(() -> this.received.size() == 1);
		return this.received.get(0);
	}

	@Test
	void buildsTheEventLikeClientGo() {
		this.recorder.eventf(pod(), EventType.NORMAL, "Started", "Started container %s", "c1");
		CoreV1Event event = single();
		assertThat(event.getMetadata().getName()).isEqualTo("foo." + Long.toHexString(Events.unixNanos(NOW)));
		assertThat(event.getMetadata().getNamespace()).isEqualTo("baz");
		assertThat(event.getInvolvedObject()).isEqualTo(new V1ObjectReference().kind("Pod")
			.apiVersion("v1")
			.name("foo")
			.namespace("baz")
			.uid("bar")
			.resourceVersion("10"));
		assertThat(event.getReason()).isEqualTo("Started");
		assertThat(event.getMessage()).isEqualTo("Started container c1");
		assertThat(event.getType()).isEqualTo("Normal");
		assertThat(event.getCount()).isEqualTo(1);
		assertThat(event.getFirstTimestamp()).isEqualTo(OffsetDateTime.of(2026, 11, 30, 12, 0, 0, 0, ZoneOffset.UTC));
		assertThat(event.getLastTimestamp()).isEqualTo(event.getFirstTimestamp());
		assertThat(event.getSource().getComponent()).isEqualTo("eventTest");
		assertThat(event.getSource().getHost()).isEqualTo("node-1");
		assertThat(event.getReportingComponent()).isEqualTo("eventTest");
		assertThat(event.getReportingInstance()).isEqualTo("node-1");
		assertThat(event.getEventTime()).isNull();
		assertThat(event.getMetadata().getAnnotations()).isNull();
	}

	@Test
	void kindAndApiVersionComeFromTheModelClassWhenUnset() {
		this.recorder.event(new V1Deployment().metadata(new V1ObjectMeta().name("web").namespace("ns")),
				EventType.WARNING, "ScalingFailed", "no room");
		CoreV1Event event = single();
		assertThat(event.getInvolvedObject().getKind()).isEqualTo("Deployment");
		assertThat(event.getInvolvedObject().getApiVersion()).isEqualTo("apps/v1");
		assertThat(event.getType()).isEqualTo("Warning");
	}

	@Test
	void kindAndApiVersionOfTheObjectWinWhenSet() {
		this.recorder.event(pod().kind("Custom").apiVersion("example.com/v1"), EventType.NORMAL, "R", "m");
		assertThat(single().getInvolvedObject().getKind()).isEqualTo("Custom");
		assertThat(single().getInvolvedObject().getApiVersion()).isEqualTo("example.com/v1");
	}

	@Test
	void clusterScopedObjectsGoToNamespaceDefault() {
		this.recorder.event(new V1Node().metadata(new V1ObjectMeta().name("node-a")), EventType.NORMAL, "Ready", "ok");
		CoreV1Event event = single();
		assertThat(event.getMetadata().getNamespace()).isEqualTo("default");
		assertThat(event.getInvolvedObject().getNamespace()).isNull();
		assertThat(event.getInvolvedObject().getKind()).isEqualTo("Node");
	}

	@Test
	void referenceIsUsedAsIs() {
		V1ObjectReference ref = new V1ObjectReference().kind("Pod").apiVersion("v1").name("foo").namespace("baz")
			.fieldPath("spec.containers{c}");
		this.recorder.event(ref, "Warning", "BackOff", "back-off");
		assertThat(single().getInvolvedObject()).isEqualTo(ref);
	}

	@Test
	void invalidNamesGetAUuid() {
		this.recorder.event(new V1ObjectReference().kind("ClusterRole").apiVersion("rbac.authorization.k8s.io/v1")
			.name("system:controller"), EventType.NORMAL, "R", "m");
		assertThat(single().getMetadata().getName()).hasSize(36);
	}

	@Test
	void annotationsAreSetOnTheEvent() {
		this.recorder.annotatedEventf(pod(), Map.of("k", "v"), EventType.NORMAL, "R", "%d items", 3);
		CoreV1Event event = single();
		assertThat(event.getMetadata().getAnnotations()).containsExactly(Map.entry("k", "v"));
		assertThat(event.getMessage()).isEqualTo("3 items");
	}

	@Test
	void verbatimMessagesAreNotFormatted() {
		this.recorder.event(pod(), EventType.NORMAL, "R", "100% done %s");
		assertThat(single().getMessage()).isEqualTo("100% done %s");
	}

	@Test
	void timestampsAreUtcWhateverTheDefaultZone() {
		TimeZone previous = TimeZone.getDefault();
		TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kolkata"));
		try {
			this.recorder.event(pod(), EventType.NORMAL, "R", "m");
			assertThat(single().getFirstTimestamp().getOffset()).isEqualTo(ZoneOffset.UTC);
		}
		finally {
			TimeZone.setDefault(previous);
		}
	}

	@Test
	void badInputIsDroppedAndCountedNeverThrown() {
		this.recorder.event((V1Pod) null, EventType.NORMAL, "R", "null object");
		this.recorder.event(new V1Pod().metadata(new V1ObjectMeta().namespace("x")), EventType.NORMAL, "R", "no name");
		this.recorder.event(new V1Pod(), EventType.NORMAL, "R", "no metadata");
		this.recorder.event(pod(), "normal", "R", "lowercase type");
		this.recorder.event(pod(), "Error", "R", "unknown type");
		this.recorder.event(pod(), (EventType) null, "R", "null type");
		this.recorder.event(pod(), EventType.NORMAL, null, "null reason");
		this.recorder.eventf(pod(), EventType.NORMAL, "R", "%d", "not a number");
		this.recorder.event(new V1ObjectReference().kind("Pod"), EventType.NORMAL, "R", "reference without name");
		this.recorder.record("a string", null, "Normal", "R", "m", null);
		this.recorder.event(pod(), EventType.NORMAL, "R", "ok");
		await().atMost(Duration.ofSeconds(5)).until(() -> this.received.size() == 1);
		assertThat(this.received.get(0).getMessage()).isEqualTo("ok");
		assertThat(this.broadcaster.counters().dropped(DropReason.INVALID_INPUT)).isEqualTo(10);
	}

	@Test
	void oversizedMessagesAreDroppedByUtf8Bytes() {
		EventBroadcaster small = EventBroadcaster.builder().maxMessageBytes(10).build();
		EventRecorder recorder = small.newRecorder(EventSource.of("c"));
		List<CoreV1Event> got = new CopyOnWriteArrayList<>();
		small.subscribe("got", got::add);
		small.start();
		recorder.event(pod(), EventType.NORMAL, "R", "ééééé");
		recorder.event(pod(), EventType.NORMAL, "R", "éééééé");
		small.shutdown(Duration.ofSeconds(5));
		assertThat(got).extracting(CoreV1Event::getMessage).containsExactly("ééééé");
		assertThat(small.counters().dropped(DropReason.INVALID_INPUT)).isEqualTo(1);
	}

}
