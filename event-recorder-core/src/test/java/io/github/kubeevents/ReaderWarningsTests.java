package io.github.kubeevents;

import java.time.Duration;

import ch.qos.logback.classic.Level;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The warnings about what readers lose, as a broadcaster's sinks give them: the uid WARN of each API's sink, and the
 * readers' shape's INFO when a first occurrence must be written without {@code eventTime}.
 */
class ReaderWarningsTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Test
	void aCoreV1SinkWarnsOfAnObjectWithoutUidAndTellsOfAFirstOccurrenceWithoutEventTime() {
		ScriptedSink sink = new ScriptedSink();
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		try (LogCapture uid = LogCapture.of(UidlessObjectWarning.class, Level.WARN);
				LogCapture shape = LogCapture.of(ReadersShape.class, Level.INFO)) {
			broadcaster.startRecordingToSink(sink);
			broadcaster.start();
			// an explicit empty host: the readers' shape cannot give the first occurrence an eventTime
			EventRecorder recorder = broadcaster.newRecorder(new EventSource("my-controller", ""));
			recorder.about(InvolvedObject.of("ConfigMap", "v1", "ns", "settings")).normal("Reloaded", "m");
			await().atMost(WAIT).until(() -> sink.succeeded() == 1);
			CoreV1Event created = sink.calls().get(0).event();
			assertThat(created.getEventTime()).isNull();
			assertThat(uid.warnings()).singleElement()
				.asString()
				.startsWith("Events about \"ConfigMap\" objects are written without involvedObject.uid (");
			assertThat(shape.messages(Level.INFO)).singleElement()
				.asString()
				.startsWith("A first occurrence is written without eventTime and action, as client-go writes it,"
						+ " because reportingInstance is empty (the host, kubeevents.host);");
		}
		finally {
			broadcaster.shutdown(WAIT);
		}
	}

	@Test
	void anEventsV1SinkWarnsOfAnObjectWithoutUidNamingItsField() {
		EventsV1SinkSubscriberTests.Script sink = new EventsV1SinkSubscriberTests.Script();
		EventBroadcaster broadcaster = EventBroadcaster.builder().build();
		try (LogCapture uid = LogCapture.of(UidlessObjectWarning.class, Level.WARN)) {
			broadcaster.startRecordingToSink(sink);
			broadcaster.start();
			broadcaster.newRecorder(EventSource.of("my-controller"))
				.about(InvolvedObject.of("ConfigMap", "v1", "ns", "settings"))
				.normal("Reloaded", "m");
			await().atMost(WAIT).until(() -> sink.calls.size() == 1);
			assertThat(uid.warnings()).singleElement()
				.asString()
				.startsWith("Events about \"ConfigMap\" objects are written without regarding.uid (");
		}
		finally {
			broadcaster.shutdown(WAIT);
		}
	}

}
