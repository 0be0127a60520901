package io.github.kubeevents.test.assertj;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

import io.github.kubeevents.EventType;
import io.github.kubeevents.RecordedEvent;
import org.assertj.core.api.AbstractAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.api.ListAssert;

/**
 * Assertions on the Events a namespace holds ({@link ClusterEvents}). Unlike {@link FakeEventRecorderAssert},
 * which counts recorder calls, this sees what the API server stored: repeats of an event are one Event object with
 * a count (core/v1) or a series (events.k8s.io/v1), and the spam filter may have dropped some. Every failure
 * message lists the Events with their counts. The snapshot does not change: to wait for an asynchronous write, read
 * again, e.g. inside Awaitility's {@code untilAsserted}.
 *
 * <p>Not thread-safe (like every AssertJ assertion object).
 */
public class ClusterEventsAssert extends AbstractAssert<ClusterEventsAssert, ClusterEvents> {

	/**
	 * Assertions on {@code actual}; use {@link KubeEventsAssertions#assertThat(ClusterEvents)}.
	 * @param actual the Events
	 */
	protected ClusterEventsAssert(ClusterEvents actual) {
		super(actual, ClusterEventsAssert.class);
		isNotNull();
	}

	/**
	 * Verifies that at least one Warning Event with {@code reason} is stored.
	 * @param reason the reason
	 * @return this
	 */
	public ClusterEventsAssert hasWarning(String reason) {
		return hasEvent(EventType.WARNING, reason);
	}

	/**
	 * Verifies that at least one Normal Event with {@code reason} is stored.
	 * @param reason the reason
	 * @return this
	 */
	public ClusterEventsAssert hasNormal(String reason) {
		return hasEvent(EventType.NORMAL, reason);
	}

	/**
	 * Verifies that at least one Event of {@code type} with {@code reason} is stored.
	 * @param type Normal or Warning
	 * @param reason the reason
	 * @return this
	 */
	public ClusterEventsAssert hasEvent(EventType type, String reason) {
		Objects.requireNonNull(reason, "reason");
		if (this.actual.events().stream().noneMatch((e) -> e.type() == type && e.reason().equals(reason))) {
			failWithMessage("%nExpected a %s Event with reason \"%s\" in %s but it holds:%n%s", type.value(),
					reason, this.actual.scope(), list());
		}
		return this;
	}

	/**
	 * Verifies that no Event with {@code reason} is stored.
	 * @param reason the reason
	 * @return this
	 */
	public ClusterEventsAssert doesNotHaveReason(String reason) {
		Objects.requireNonNull(reason, "reason");
		if (this.actual.events().stream().anyMatch((e) -> e.reason().equals(reason))) {
			failWithMessage("%nExpected no Event with reason \"%s\" in %s but it holds:%n%s", reason,
					this.actual.scope(), list());
		}
		return this;
	}

	/**
	 * Verifies how often events with {@code reason} occurred: the sum of the counts of the Events with it.
	 * @param reason the reason
	 * @param occurrences the expected sum
	 * @return this
	 */
	public ClusterEventsAssert hasOccurrences(String reason, int occurrences) {
		Objects.requireNonNull(reason, "reason");
		int found = this.actual.entries()
			.stream()
			.filter((e) -> e.event().reason().equals(reason))
			.mapToInt(ClusterEvents.Entry::count)
			.sum();
		if (found != occurrences) {
			failWithMessage("%nExpected %s occurrences of reason \"%s\" in %s but counted %s in:%n%s",
					occurrences, reason, this.actual.scope(), found, list());
		}
		return this;
	}

	/**
	 * Assertions on the one Event with {@code reason}; fails unless exactly one Event object has it.
	 * @param reason the reason
	 * @return the Event's assertions
	 */
	public RecordedEventAssert eventWithReason(String reason) {
		Objects.requireNonNull(reason, "reason");
		List<RecordedEvent> matching = this.actual.events().stream().filter((e) -> e.reason().equals(reason)).toList();
		if (matching.size() != 1) {
			failWithMessage("%nExpected exactly one Event with reason \"%s\" in %s but found %s in:%n%s",
					reason, this.actual.scope(), matching.size(), list());
		}
		return new RecordedEventAssert(matching.get(0));
	}

	/**
	 * AssertJ's list assertions on the stored Events (with names and counts).
	 * @return list assertions
	 */
	public ListAssert<ClusterEvents.Entry> entries() {
		return Assertions.assertThat(this.actual.entries());
	}

	private String list() {
		String listing = this.actual.entries().isEmpty() ? "  (none)" : this.actual.entries()
			.stream()
			.map((e) -> "  " + e.name() + " (count " + e.count() + ") " + Descriptions.describe(e.event()))
			.collect(Collectors.joining(System.lineSeparator()));
		String others = this.actual.othersNote();
		return (others != null) ? listing + System.lineSeparator() + "(" + others + ")" : listing;
	}

}
