package io.github.kubeevents.test.assertj;

import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.RecordedEvent;

/**
 * Entry point of the AssertJ assertions on recorded events. Import statically next to AssertJ's own
 * {@code assertThat}; the overloads do not clash:
 * <pre>{@code
 * import static io.github.kubeevents.test.assertj.KubeEventsAssertions.assertThat;
 *
 * assertThat(fakeRecorder).hasRecorded(2).hasWarning("FailedCreate").doesNotHaveReason("Created");
 * assertThat(fakeRecorder).eventWithReason("FailedCreate")
 *     .isWarning().isAbout("Widget", "default", "w-1").hasMessageContaining("quota");
 * }</pre>
 *
 * <p>Stateless and thread-safe; each assertion object is for one thread.
 */
public final class KubeEventsAssertions {

	private KubeEventsAssertions() {
	}

	/**
	 * Assertions on what a {@link FakeEventRecorder} captured, taken when this method is called (events recorded
	 * later are not seen; call it again).
	 * @param actual the recorder
	 * @return the assertion object
	 */
	public static FakeEventRecorderAssert assertThat(FakeEventRecorder actual) {
		return new FakeEventRecorderAssert(actual);
	}

	/**
	 * Assertions on the Events a namespace of a real cluster holds, e.g.
	 * {@code assertThat(ClusterEvents.read(cluster, "default"))}.
	 * @param actual the Events, read by {@link ClusterEvents#read}
	 * @return the assertion object
	 */
	public static ClusterEventsAssert assertThat(ClusterEvents actual) {
		return new ClusterEventsAssert(actual);
	}

	/**
	 * Assertions on one recorded event.
	 * @param actual the event
	 * @return the assertion object
	 */
	public static RecordedEventAssert assertThat(RecordedEvent actual) {
		return new RecordedEventAssert(actual);
	}

}
