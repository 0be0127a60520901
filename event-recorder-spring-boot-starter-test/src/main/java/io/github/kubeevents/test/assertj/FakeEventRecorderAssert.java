package io.github.kubeevents.test.assertj;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

import io.github.kubeevents.EventType;
import io.github.kubeevents.FakeEventRecorder;
import io.github.kubeevents.RecordedEvent;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.api.ListAssert;

/**
 * Assertions on the events a {@link FakeEventRecorder} captured, in the order they were recorded. The events are
 * read once, when the assertion object is created. Every failure message lists what was recorded.
 *
 * <p>Counts are of recorder calls: the fake neither aggregates nor spam-filters, so ten identical calls are ten
 * events here (on a cluster they may become one Event with a count or a series).
 *
 * <p>Not thread-safe (like every AssertJ assertion object); the recorder itself may be written concurrently.
 */
public class FakeEventRecorderAssert extends AbstractAssert<FakeEventRecorderAssert, FakeEventRecorder> {

	private final List<RecordedEvent> events;

	/**
	 * Assertions on {@code actual}; use {@link KubeEventsAssertions#assertThat(FakeEventRecorder)}.
	 * @param actual the recorder
	 */
	protected FakeEventRecorderAssert(FakeEventRecorder actual) {
		super(actual, FakeEventRecorderAssert.class);
		isNotNull();
		this.events = actual.recordedEvents();
	}

	/**
	 * Verifies that exactly {@code count} events were recorded.
	 * @param count the expected number of events
	 * @return this
	 */
	public FakeEventRecorderAssert hasRecorded(int count) {
		if (this.events.size() != count) {
			failWithMessage("%nExpected the recorder to have recorded %s but it recorded %s:%n%s", events(count),
					events(this.events.size()), Descriptions.list(this.events));
		}
		return this;
	}

	/**
	 * Verifies that no event was recorded.
	 * @return this
	 */
	public FakeEventRecorderAssert hasNoEvents() {
		if (!this.events.isEmpty()) {
			failWithMessage("%nExpected the recorder to have recorded no events but it recorded %s:%n%s",
					events(this.events.size()), Descriptions.list(this.events));
		}
		return this;
	}

	/**
	 * Verifies that at least one Warning event with {@code reason} was recorded.
	 * @param reason the reason
	 * @return this
	 */
	public FakeEventRecorderAssert hasWarning(String reason) {
		return hasEvent(EventType.WARNING, reason);
	}

	/**
	 * Verifies that at least one Normal event with {@code reason} was recorded.
	 * @param reason the reason
	 * @return this
	 */
	public FakeEventRecorderAssert hasNormal(String reason) {
		return hasEvent(EventType.NORMAL, reason);
	}

	/**
	 * Verifies that at least one event of {@code type} with {@code reason} was recorded.
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @return this
	 */
	public FakeEventRecorderAssert hasEvent(EventType type, String reason) {
		Objects.requireNonNull(type, "type");
		Objects.requireNonNull(reason, "reason");
		if (this.events.stream().noneMatch((e) -> e.type() == type && e.reason().equals(reason))) {
			failWithMessage("%nExpected a %s event with reason \"%s\" but the recorder recorded %s:%n%s", type.value(),
					reason, events(this.events.size()), Descriptions.list(this.events));
		}
		return this;
	}

	/**
	 * Verifies that no event with {@code reason} (of either type) was recorded.
	 * @param reason the reason
	 * @return this
	 */
	public FakeEventRecorderAssert doesNotHaveReason(String reason) {
		Objects.requireNonNull(reason, "reason");
		long found = count(withReason(reason));
		if (found > 0) {
			failWithMessage("%nExpected no event with reason \"%s\" but the recorder recorded %s with it, among:%n%s",
					reason, events(found), Descriptions.list(this.events));
		}
		return this;
	}

	/**
	 * Verifies that exactly {@code count} events with {@code reason} (of either type) were recorded.
	 * @param reason the reason
	 * @param count the expected number
	 * @return this
	 */
	public FakeEventRecorderAssert hasEventCount(String reason, int count) {
		Objects.requireNonNull(reason, "reason");
		long found = count(withReason(reason));
		if (found != count) {
			failWithMessage("%nExpected %s with reason \"%s\" but the recorder recorded %s with it, among:%n%s",
					events(count), reason, events(found), Descriptions.list(this.events));
		}
		return this;
	}

	/**
	 * Verifies the reasons of all recorded events, in order.
	 * @param reasons the expected reasons, one per event
	 * @return this
	 */
	public FakeEventRecorderAssert hasReasonsExactly(String... reasons) {
		List<String> actual = this.events.stream().map(RecordedEvent::reason).toList();
		if (!actual.equals(Arrays.asList(reasons))) {
			failWithActualExpectedAndMessage(actual, Arrays.asList(reasons),
					"%nExpected the reasons %s, in this order, but the recorder recorded:%n%s", Arrays.asList(reasons),
					Descriptions.list(this.events));
		}
		return this;
	}

	/**
	 * Verifies that every call to the recorder could be turned into an event: the fake, like the real recorder,
	 * rejects (and does not capture) calls with a missing object or reason, a bad format string, and so on.
	 * @return this
	 */
	public FakeEventRecorderAssert hasNoInvalidInputs() {
		List<String> invalid = this.actual.invalidInputs();
		if (!invalid.isEmpty()) {
			failWithMessage("%nExpected every recorder call to be valid but %s rejected:%n  %s", (invalid.size() == 1)
					? "1 was" : invalid.size() + " were", String.join(System.lineSeparator() + "  ", invalid));
		}
		return this;
	}

	/**
	 * Assertions on the event at {@code index} (0 is the first recorded).
	 * @param index the index
	 * @return the event's assertions
	 */
	public RecordedEventAssert event(int index) {
		if (index < 0 || index >= this.events.size()) {
			failWithMessage("%nExpected an event at index %s but the recorder recorded %s:%n%s", index,
					events(this.events.size()), Descriptions.list(this.events));
		}
		return new RecordedEventAssert(this.events.get(index));
	}

	/**
	 * Assertions on the only recorded event; fails unless exactly one was recorded.
	 * @return the event's assertions
	 */
	public RecordedEventAssert onlyEvent() {
		hasRecorded(1);
		return new RecordedEventAssert(this.events.get(0));
	}

	/**
	 * Assertions on the last recorded event; fails when none was recorded.
	 * @return the event's assertions
	 */
	public RecordedEventAssert lastEvent() {
		if (this.events.isEmpty()) {
			failWithMessage("%nExpected a last event but the recorder recorded no events");
		}
		return new RecordedEventAssert(this.events.get(this.events.size() - 1));
	}

	/**
	 * Assertions on the one event with {@code reason}; fails unless exactly one has it.
	 * @param reason the reason
	 * @return the event's assertions
	 */
	public RecordedEventAssert eventWithReason(String reason) {
		Objects.requireNonNull(reason, "reason");
		List<RecordedEvent> matching = this.events.stream().filter(withReason(reason)).toList();
		if (matching.size() != 1) {
			failWithMessage("%nExpected exactly one event with reason \"%s\" but the recorder recorded %s with it,"
					+ " among:%n%s", reason, events(matching.size()), Descriptions.list(this.events));
		}
		return new RecordedEventAssert(matching.get(0));
	}

	/**
	 * AssertJ's list assertions on all recorded events, for anything not covered here.
	 * @return list assertions
	 */
	public ListAssert<RecordedEvent> events() {
		return Assertions.assertThat(this.events);
	}

	private long count(Predicate<RecordedEvent> predicate) {
		return this.events.stream().filter(predicate).count();
	}

	private static Predicate<RecordedEvent> withReason(String reason) {
		return (event) -> event.reason().equals(reason);
	}

	private static String events(long count) {
		return (count == 1) ? "1 event" : count + " events";
	}

}
