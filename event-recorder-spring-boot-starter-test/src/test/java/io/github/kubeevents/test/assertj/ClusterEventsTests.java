package io.github.kubeevents.test.assertj;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import org.junit.jupiter.api.Test;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link ClusterEvents}' reading of stored Events and {@link ClusterEventsAssert} (the IT
 * {@code KubeEventsTestClusterIT} reads a real API server).
 */
class ClusterEventsTests {

	private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-30T12:00:00Z");

	@Test
	void readsAnEventsV1EventWithItsSeriesCount() {
		ClusterEvents.Entry entry = ClusterEvents.entry(new EventsV1Event()
			.metadata(new V1ObjectMeta().name("web-0.1").namespace("shop").annotations(Map.of("team", "payments")))
			.type("Warning")
			.reason("BackOff")
			.action("Restarting")
			.note("Back-off restarting failed container")
			.regarding(new V1ObjectReference().kind("Pod").apiVersion("v1").namespace("shop").name("web-0"))
			.related(new V1ObjectReference().kind("Node").apiVersion("v1").name("node-1"))
			.reportingController("kubelet")
			.reportingInstance("node-1")
			.eventTime(T0)
			.series(new EventsV1EventSeries().count(7).lastObservedTime(T0.plusMinutes(5))));
		assertThat(entry.name()).isEqualTo("web-0.1");
		assertThat(entry.count()).isEqualTo(7);
		assertThat(entry.event().source()).isEqualTo(new EventSource("kubelet", "node-1"));
		assertThat(entry.event().timestamp()).isEqualTo(T0.toInstant());
		assertThat(entry.event()).isWarning()
			.hasReason("BackOff")
			.hasAction("Restarting")
			.hasMessage("Back-off restarting failed container")
			.isAbout("Pod", "shop", "web-0")
			.hasRelated("Node", null, "node-1")
			.hasAnnotation("team", "payments");
	}

	@Test
	void readsACoreV1EventWithItsCountAndSource() {
		ClusterEvents.Entry entry = ClusterEvents.entry(new EventsV1Event().metadata(new V1ObjectMeta().name("n.2"))
			.type("Normal")
			.reason("Pulled")
			.regarding(new V1ObjectReference().kind("Pod").namespace("default").name("n"))
			.deprecatedSource(new V1EventSource().component("kubelet").host("node-2"))
			.deprecatedCount(3)
			.deprecatedLastTimestamp(T0));
		assertThat(entry.count()).isEqualTo(3);
		assertThat(entry.event().source()).isEqualTo(new EventSource("kubelet", "node-2"));
		assertThat(entry.event().message()).isEmpty();
		assertThat(entry.event().timestamp()).isEqualTo(T0.toInstant());
	}

	@Test
	void anUnknownTypeIsAnError() {
		assertThatIllegalStateException()
			.isThrownBy(() -> ClusterEvents.entry(new EventsV1Event().metadata(new V1ObjectMeta().name("x.1"))
				.type("Error")
				.reason("Boom")
				.regarding(new V1ObjectReference().name("x"))))
			.withMessage("Event x.1 has type Error, neither Normal nor Warning");
	}

	@Test
	void assertionsCountOccurrencesAndListTheEvents() {
		ClusterEvents events = ClusterEvents.of("shop", List.of(entry("web-0.1", "Warning", "BackOff", 7),
				entry("web-0.2", "Normal", "Pulled", 1), entry("web-1.1", "Warning", "BackOff", 2)));
		assertThatNoException().isThrownBy(() -> assertThat(events).hasWarning("BackOff")
			.hasNormal("Pulled")
			.hasEvent(EventType.NORMAL, "Pulled")
			.doesNotHaveReason("Killing")
			.hasOccurrences("BackOff", 9)
			.hasOccurrences("Killing", 0));
		assertThat(events).eventWithReason("Pulled").isNormal();
		assertThat(events).entries().hasSize(3);
		String listing = String.join(System.lineSeparator(),
				"  web-0.1 (count 7) Warning BackOff about Pod shop/web-0: \"m\"",
				"  web-0.2 (count 1) Normal Pulled about Pod shop/web-0: \"m\"",
				"  web-1.1 (count 2) Warning BackOff about Pod shop/web-0: \"m\"");
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(events).hasOccurrences("BackOff", 8))
			.withMessage("%nExpected 8 occurrences of reason \"BackOff\" in namespace shop but counted 9 in:%n%s",
					listing);
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(events).hasWarning("Pulled"))
			.withMessage("%nExpected a Warning Event with reason \"Pulled\" in namespace shop but it holds:%n%s",
					listing);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(events).doesNotHaveReason("Pulled"))
			.withMessageStartingWith("%nExpected no Event with reason \"Pulled\"".formatted());
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThat(events).eventWithReason("BackOff"))
			.withMessage("%nExpected exactly one Event with reason \"BackOff\" in namespace shop but found 2 in:%n%s",
					listing);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(ClusterEvents.of("empty", List.of())).hasNormal("Pulled"))
			.withMessage(("%nExpected a Normal Event with reason \"Pulled\" in namespace empty but it holds:%n"
					+ "  (none)").formatted());
	}

	@Test
	void aboutKeepsOnlyTheEventsOfOneObject() {
		ClusterEvents events = ClusterEvents.of("shop",
				List.of(entry("web-0.1", "Warning", "BackOff", 7, "Pod", "shop", "web-0"),
						entry("w-1.1", "Warning", "FailedCreate", 1, "Widget", "shop", "w-1"),
						entry("web-1.1", "Warning", "BackOff", 2, "Pod", "shop", "web-1"),
						entry("w-1.2", "Normal", "Created", 1, "Widget", "shop", "w-1"),
						entry("node-1.1", "Normal", "Ready", 1, "Node", null, "node-1")));

		ClusterEvents widget = events.about("Widget", "shop", "w-1");

		assertThat(widget.namespace()).isEqualTo("shop");
		assertThat(widget.entries()).extracting(ClusterEvents.Entry::name).containsExactly("w-1.1", "w-1.2");
		assertThat(events.entries()).as("the snapshot read is unchanged").hasSize(5);
		assertThat(events.about("Pod", "shop", "web-0").entries()).extracting(ClusterEvents.Entry::name)
			.containsExactly("web-0.1");
		assertThat(events.about("Node", null, "node-1").events()).singleElement()
			.satisfies((e) -> assertThat(e.reason()).isEqualTo("Ready"));
		assertThat(events.about("Node", "", "node-1").entries()).as("empty namespace means cluster-scoped").hasSize(1);
		assertThat(events.about("Pod", "other", "web-0").entries()).as("namespace compared").isEmpty();
		assertThat(events.about("ConfigMap", "shop", "web-0").entries()).as("kind compared").isEmpty();
		assertThat(events.about("Pod", "shop", "web-0").about("Pod", "shop", "web-1").entries())
			.as("narrowing twice keeps what both match").isEmpty();
		assertThatNoException().isThrownBy(() -> assertThat(widget).hasWarning("FailedCreate")
			.hasNormal("Created")
			.hasOccurrences("BackOff", 0)
			.doesNotHaveReason("BackOff")
			.eventWithReason("FailedCreate")
			.isAbout("Widget", "shop", "w-1"));
	}

	@Test
	void aboutTakesAnInvolvedObjectOrAClientJavaObject() {
		ClusterEvents events = ClusterEvents.of("shop",
				List.of(entry("web-0.1", "Warning", "BackOff", 7, "Pod", "shop", "web-0"),
						entry("cm.1", "Normal", "Updated", 1, "ConfigMap", "shop", "web-0")));

		assertThat(events.about(InvolvedObject.of("Pod", "v1", "shop", "web-0").withUid("u-1")).entries())
			.extracting(ClusterEvents.Entry::name)
			.containsExactly("web-0.1");
		// a listed object has no kind: it comes from the model class
		assertThat(events.about(new V1ConfigMap().metadata(new V1ObjectMeta().namespace("shop").name("web-0")))
			.entries()).extracting(ClusterEvents.Entry::name).containsExactly("cm.1");
		assertThat(events.about(new V1Pod().kind("Pod").apiVersion("v1")
			.metadata(new V1ObjectMeta().namespace("shop").name("web-0").uid("any")))
			.entries()).extracting(ClusterEvents.Entry::name).containsExactly("web-0.1");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> events.about(InvolvedObject.of(null, null, "shop", "web-0")))
			.withMessageStartingWith("the object has no kind: ");
	}

	@Test
	void failuresOfANarrowedSnapshotNameTheObjectAndTheOthers() {
		ClusterEvents events = ClusterEvents.of("shop",
				List.of(entry("web-0.1", "Warning", "BackOff", 7, "Pod", "shop", "web-0"),
						entry("w-2.1", "Warning", "FailedCreate", 1, "Widget", "shop", "w-2"),
						entry("w-1.1", "Normal", "Created", 1, "Widget", "shop", "w-1"),
						entry("web-0.2", "Normal", "Pulled", 1, "Pod", "shop", "web-0")));

		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(events.about("Widget", "shop", "w-1")).hasWarning("FailedCreate"))
			.withMessage(String.join(System.lineSeparator(), "",
					"Expected a Warning Event with reason \"FailedCreate\" in namespace shop about Widget shop/w-1 but it"
							+ " holds:",
					"  w-1.1 (count 1) Normal Created about Widget shop/w-1: \"m\"",
					"(3 other Events in namespace shop are about: Pod shop/web-0, Widget shop/w-2)"));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(events.about("Widget", "shop", "w-3")).eventWithReason("Created"))
			.withMessage(String.join(System.lineSeparator(), "",
					"Expected exactly one Event with reason \"Created\" in namespace shop about Widget shop/w-3 but found"
							+ " 0 in:",
					"  (none)",
					"(4 other Events in namespace shop are about: Pod shop/web-0, Widget shop/w-1, Widget shop/w-2)"));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(events.about("Pod", "shop", "web-0").about("Pod", "shop", "web-1"))
				.hasNormal("Pulled"))
			.withMessageContaining(" in namespace shop about Pod shop/web-0 and Pod shop/web-1 but it holds:");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThat(ClusterEvents.of("shop",
					List.of(entry("w-1.1", "Normal", "Created", 1, "Widget", "shop", "w-1"),
							entry("w-0.1", "Normal", "Created", 1, "Widget", "shop", "w-0")))
				.about("Widget", "shop", "w-1")).doesNotHaveReason("Created"))
			.withMessageEndingWith("(1 other Event in namespace shop is about: Widget shop/w-0)");
	}

	@Test
	void theNoteOnOtherObjectsNamesTenOfThem() {
		List<ClusterEvents.Entry> entries = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			entries.add(entry("p-" + i + ".1", "Normal", "Pulled", 1, "Pod", "shop", "p-" + (char) ('a' + i)));
		}

		assertThat(ClusterEvents.of("shop", entries).about("Pod", "shop", "mine").othersNote())
			.isEqualTo("12 other Events in namespace shop are about: Pod shop/p-a, Pod shop/p-b, Pod shop/p-c,"
					+ " Pod shop/p-d, Pod shop/p-e, Pod shop/p-f, Pod shop/p-g, Pod shop/p-h, Pod shop/p-i, Pod shop/p-j, ...");
		assertThat(ClusterEvents.of("shop", entries).othersNote()).as("not narrowed").isNull();
	}

	private static ClusterEvents.Entry entry(String name, String type, String reason, int count) {
		return entry(name, type, reason, count, "Pod", "shop", "web-0");
	}

	private static ClusterEvents.Entry entry(String name, String type, String reason, int count, String kind,
			String namespace, String object) {
		return ClusterEvents.entry(new EventsV1Event().metadata(new V1ObjectMeta().name(name))
			.type(type)
			.reason(reason)
			.note("m")
			.regarding(new V1ObjectReference().kind(kind).namespace(namespace).name(object))
			.reportingController("c")
			.eventTime(T0)
			.deprecatedCount(count));
	}

}
