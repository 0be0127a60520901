package io.github.kubeevents.test.assertj;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

import io.github.kubeevents.EventSource;
import io.github.kubeevents.EventType;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.EventsV1EventSeries;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import org.junit.jupiter.api.Test;

import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
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

	private static ClusterEvents.Entry entry(String name, String type, String reason, int count) {
		return ClusterEvents.entry(new EventsV1Event().metadata(new V1ObjectMeta().name(name))
			.type(type)
			.reason(reason)
			.note("m")
			.regarding(new V1ObjectReference().kind("Pod").namespace("shop").name("web-0"))
			.reportingController("c")
			.eventTime(T0)
			.deprecatedCount(count));
	}

}
