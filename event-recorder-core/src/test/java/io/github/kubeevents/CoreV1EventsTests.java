package io.github.kubeevents;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TimeZone;

import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.CoreV1EventSeries;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core/v1 Event made from a recorded event (client-go's {@code makeEvent}), its timestamps, and the copy the
 * correlator works on.
 */
class CoreV1EventsTests {

	private static final Instant NOW = Instant.parse("2026-11-30T12:00:00.123456789Z");

	private static final EventSource SOURCE = new EventSource("eventTest", "node-1");

	private static final InvolvedObject POD = new InvolvedObject("Pod", "v1", "baz", "foo", "bar", "10", null);

	private static RecordedEvent recorded(InvolvedObject regarding) {
		return new RecordedEvent(regarding, null, EventType.NORMAL, "Started", null, "Started container c1", Map.of(),
				SOURCE, NOW);
	}

	@Test
	void buildsTheEventLikeClientGo() {
		CoreV1Event event = CoreV1Events.of(recorded(POD));
		assertThat(event.getMetadata().getName()).isEqualTo("foo.18ecd0dd41c04d15");
		assertThat(event.getMetadata().getName()).isEqualTo("foo." + Long.toHexString(1796040000123456789L));
		assertThat(event.getMetadata().getNamespace()).isEqualTo("baz");
		assertThat(event.getMetadata().getAnnotations()).isNull();
		assertThat(event.getMetadata().getResourceVersion()).isNull();
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
		assertThat(event.getSource()).isEqualTo(new V1EventSource().component("eventTest").host("node-1"));
		assertThat(event.getReportingComponent()).isEqualTo("eventTest");
		assertThat(event.getReportingInstance()).isEqualTo("node-1");
		assertThat(event.getEventTime()).isNull();
		assertThat(event.getRelated()).isNull();
		assertThat(event.getAction()).isNull();
	}

	@Test
	void clusterScopedObjectsGoToNamespaceDefaultAndKeepAnEmptyReferenceNamespace() {
		CoreV1Event event = CoreV1Events.of(recorded(InvolvedObject.of("Node", "v1", null, "node-a")));
		assertThat(event.getMetadata().getNamespace()).isEqualTo("default");
		assertThat(event.getInvolvedObject().getNamespace()).isNull();
		assertThat(event.getInvolvedObject().getKind()).isEqualTo("Node");
	}

	@Test
	void annotationsRelatedAndActionAreWritten() {
		InvolvedObject node = InvolvedObject.of("Node", "v1", null, "node-1").withUid("n-uid");
		RecordedEvent recorded = new RecordedEvent(POD, node, EventType.WARNING, "FailedScheduling", "Scheduling",
				"no room", Map.of("k", "v"), SOURCE, NOW);
		CoreV1Event event = CoreV1Events.of(recorded);
		assertThat(event.getMetadata().getAnnotations()).containsExactly(Map.entry("k", "v"));
		assertThat(event.getRelated())
			.isEqualTo(new V1ObjectReference().kind("Node").apiVersion("v1").name("node-1").uid("n-uid"));
		assertThat(event.getAction()).isEqualTo("Scheduling");
		assertThat(event.getType()).isEqualTo("Warning");
	}

	@Test
	void invalidNamesGetAUuid() {
		CoreV1Event event = CoreV1Events
			.of(recorded(InvolvedObject.of("ClusterRole", "rbac.authorization.k8s.io/v1", null, "system:controller")));
		assertThat(event.getMetadata().getName())
			.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
	}

	@Test
	void timestampsAreUtcWholeSecondsWhateverTheDefaultZone() {
		TimeZone previous = TimeZone.getDefault();
		TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kolkata"));
		try {
			OffsetDateTime timestamp = CoreV1Events.timestamp(Instant.parse("2026-11-30T12:34:56.789Z"));
			assertThat(timestamp).isEqualTo(OffsetDateTime.of(2026, 11, 30, 12, 34, 56, 0, ZoneOffset.UTC));
			assertThat(timestamp.getOffset()).isEqualTo(ZoneOffset.UTC);
			assertThat(CoreV1Events.of(recorded(POD)).getFirstTimestamp().getOffset()).isEqualTo(ZoneOffset.UTC);
		}
		finally {
			TimeZone.setDefault(previous);
		}
	}

	@Test
	void timestampsBeforeTheEpochTruncateTowardsTheEarlierSecond() {
		assertThat(CoreV1Events.timestamp(Instant.parse("1969-12-31T23:59:59.500Z")))
			.isEqualTo(OffsetDateTime.of(1969, 12, 31, 23, 59, 59, 0, ZoneOffset.UTC));
	}

	/** Every field {@link CoreV1Events#copy(CoreV1Event)} copies, none left at its default. */
	private static CoreV1Event everyCopiedField() {
		OffsetDateTime first = OffsetDateTime.of(2026, 11, 30, 12, 0, 0, 0, ZoneOffset.UTC);
		return new CoreV1Event().apiVersion("v1")
			.kind("Event")
			.metadata(new V1ObjectMeta().name("web-0.18ecd0dd41c04d15")
				.namespace("shop")
				.resourceVersion("4711")
				.uid("e-uid")
				.creationTimestamp(first.plusSeconds(1))
				.annotations(new LinkedHashMap<>(Map.of("a", "1")))
				.labels(new LinkedHashMap<>(Map.of("l", "2"))))
			.involvedObject(new V1ObjectReference().kind("Pod")
				.apiVersion("v1")
				.namespace("shop")
				.name("web-0")
				.uid("p-uid")
				.resourceVersion("10")
				.fieldPath("spec.containers{app}"))
			.related(new V1ObjectReference().kind("Node")
				.apiVersion("v1")
				.name("node-1")
				.uid("n-uid")
				.resourceVersion("3")
				.fieldPath("status"))
			.reason("FailedScheduling")
			.message("no room")
			.source(new V1EventSource().component("scheduler").host("node-0"))
			.firstTimestamp(first)
			.lastTimestamp(first.plusSeconds(30))
			.eventTime(first.plusNanos(123_456_000))
			.count(3)
			.series(new CoreV1EventSeries().count(3).lastObservedTime(first.plusSeconds(30)))
			.type("Warning")
			.action("Scheduling")
			.reportingComponent("default-scheduler")
			.reportingInstance("default-scheduler-node-0");
	}

	@Test
	void copyKeepsEveryFieldTheCorrelatorAndTheSinksReadOrWrite() {
		CoreV1Event original = everyCopiedField();
		CoreV1Event copy = CoreV1Events.copy(original);
		assertThat(copy).isNotSameAs(original).isEqualTo(original);
		assertThat(copy.getApiVersion()).isEqualTo("v1");
		assertThat(copy.getKind()).isEqualTo("Event");
		assertThat(copy.getRelated()).isEqualTo(original.getRelated());
		assertThat(copy.getEventTime()).isEqualTo(OffsetDateTime.of(2026, 11, 30, 12, 0, 0, 123_456_000, ZoneOffset.UTC));
		assertThat(copy.getAction()).isEqualTo("Scheduling");
		assertThat(copy.getReportingComponent()).isEqualTo("default-scheduler");
		assertThat(copy.getReportingInstance()).isEqualTo("default-scheduler-node-0");
	}

	@Test
	void changingTheCopyNeverChangesTheOriginal() {
		CoreV1Event original = everyCopiedField();
		CoreV1Event before = TestEvents.copy(original);
		CoreV1Event copy = CoreV1Events.copy(original);
		copy.getMetadata().name("other").resourceVersion("1").putAnnotationsItem("b", "2").putLabelsItem("m", "3");
		copy.getInvolvedObject().name("web-1").fieldPath(null);
		copy.getRelated().name("node-2");
		copy.getSource().host("node-9");
		copy.count(4).lastTimestamp(null);
		copy.getSeries().count(4);
		assertThat(original).isEqualTo(before);
	}

	@Test
	void copyOfAnEventWithoutMetadataSourceOrReferencesHasNoneEither() {
		CoreV1Event copy = CoreV1Events.copy(new CoreV1Event().reason("Started"));
		assertThat(copy).isEqualTo(new CoreV1Event().reason("Started"));
		assertThat(copy.getMetadata()).isNull();
		assertThat(copy.getSource()).isNull();
		assertThat(copy.getInvolvedObject()).isNull();
		assertThat(copy.getRelated()).isNull();
	}

}
