package io.github.kubeevents;

import ch.qos.logback.classic.Level;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The WARN of an Event about an object without a uid: once per kind, naming the readers that then miss it. */
class UidlessObjectWarningTests {

	@Test
	void anObjectWithoutUidIsWarnedOncePerKind() {
		UidlessObjectWarning warning = new UidlessObjectWarning("involvedObject.uid");
		try (LogCapture log = LogCapture.of(UidlessObjectWarning.class, Level.WARN)) {
			warning.check(TestEvents.recorded("Synced", "m", InvolvedObject.of("ConfigMap", "v1", "ns", "a")));
			warning.check(TestEvents.recorded("Synced", "m", InvolvedObject.of("ConfigMap", "v1", "ns", "b")));
			warning.check(TestEvents.recorded("Synced", "m", InvolvedObject.of("Pod", "v1", "ns", "p").withUid("")));
			warning.check(TestEvents.recorded("Synced", "m", InvolvedObject.of("Node", "v1", null, "n").withUid("u1")));
			assertThat(log.warnings()).containsExactly(
					"Events about \"ConfigMap\" objects are written without involvedObject.uid (object=\"ns/a\""
							+ " kind=\"ConfigMap\" type=\"Normal\" reason=\"Synced\"): Freelens and OpenLens object"
							+ " pages, Datadog's event aggregation and the OpenTelemetry receiver's k8s.object.uid key"
							+ " on it, so they cannot find these Events. Record the object itself, or give the"
							+ " InvolvedObject its uid (InvolvedObject.withUid). Logged once per kind.",
					"Events about \"Pod\" objects are written without involvedObject.uid (object=\"ns/p\" kind=\"Pod\""
							+ " type=\"Normal\" reason=\"Synced\"): Freelens and OpenLens object pages, Datadog's event"
							+ " aggregation and the OpenTelemetry receiver's k8s.object.uid key on it, so they cannot"
							+ " find these Events. Record the object itself, or give the InvolvedObject its uid"
							+ " (InvolvedObject.withUid). Logged once per kind.");
		}
	}

}
