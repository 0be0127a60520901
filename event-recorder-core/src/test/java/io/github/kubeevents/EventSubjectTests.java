package io.github.kubeevents;

import java.util.List;
import java.util.function.Consumer;

import io.github.kubeevents.introspect.RecorderSnapshot.ObjectRef;
import io.kubernetes.client.openapi.models.CoreV1Event;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An entry keeps the subject instance it holds while the events describe it (so an object's entries share one
 * subject and its strings), and gets a new one as soon as any of the five fields differs.
 */
class EventSubjectTests {

	private static CoreV1Event event() {
		return TestEvents.event("BackOff", "Back-off restarting", TestEvents.ref("Pod", "web-0", "shop"))
			.type("Warning");
	}

	@Test
	void aSubjectIsTheObjectTypeAndReason() {
		EventSubject subject = EventSubject.of(event());
		assertThat(subject).isEqualTo(new EventSubject("Pod", "shop", "web-0", "Warning", "BackOff"));
		assertThat(subject.object()).isEqualTo(new ObjectRef("Pod", "shop", "web-0"));
	}

	@Test
	void anEmptyNamespaceIsNoNamespaceAndAMissingNameShowsAsNull() {
		CoreV1Event event = event();
		event.getInvolvedObject().namespace("").name(null);
		assertThat(EventSubject.of(event)).isEqualTo(new EventSubject("Pod", null, "null", "Warning", "BackOff"));
		EventSubject held = new EventSubject("Pod", null, "null", "Warning", "BackOff");
		assertThat(EventSubject.of(event, held)).isSameAs(held);
	}

	@Test
	void anEntryKeepsTheSubjectItHoldsWhileTheEventDescribesIt() {
		EventSubject held = EventSubject.of(event());
		assertThat(EventSubject.of(event(), held)).isSameAs(held);
		assertThat(EventSubject.of(event(), null)).isEqualTo(held).isNotSameAs(held);
	}

	@Test
	void anyFieldThatDiffersMakesANewSubject() {
		EventSubject held = EventSubject.of(event());
		List<Consumer<CoreV1Event>> changes = List.of((event) -> event.getInvolvedObject().kind("Node"),
				(event) -> event.getInvolvedObject().kind(null), (event) -> event.getInvolvedObject().namespace("other"),
				(event) -> event.getInvolvedObject().namespace(null), (event) -> event.getInvolvedObject().name("web-1"),
				(event) -> event.type("Normal"), (event) -> event.reason("Pulled"), (event) -> event.reason(null));
		for (Consumer<CoreV1Event> change : changes) {
			CoreV1Event event = event();
			change.accept(event);
			EventSubject subject = EventSubject.of(event, held);
			assertThat(subject).isNotEqualTo(held).isEqualTo(EventSubject.of(event));
		}
	}

	@Test
	void anEventWithoutAnObjectHasAnEmptySubjectOfItsTypeAndReason() {
		CoreV1Event event = event().involvedObject(null);
		EventSubject empty = new EventSubject(null, null, "", "Warning", "BackOff");
		assertThat(EventSubject.of(event)).isEqualTo(empty);
		assertThat(EventSubject.of(event, empty)).isSameAs(empty);
		for (EventSubject held : List.of(new EventSubject("Pod", null, "", "Warning", "BackOff"),
				new EventSubject(null, "shop", "", "Warning", "BackOff"), new EventSubject(null, null, "x", "Warning", "BackOff"),
				new EventSubject(null, null, "", "Normal", "BackOff"), new EventSubject(null, null, "", "Warning", "Pulled"))) {
			assertThat(EventSubject.of(event, held)).as("held %s", held).isNotSameAs(held).isEqualTo(empty);
		}
	}

	@Test
	void orGivesTheHeldInstanceWhenItIsEqual() {
		EventSubject subject = new EventSubject("Pod", "shop", "web-0", "Warning", "BackOff");
		EventSubject equal = new EventSubject("Pod", "shop", "web-0", "Warning", "BackOff");
		EventSubject other = new EventSubject("Pod", "shop", "web-1", "Warning", "BackOff");
		assertThat(subject.or(equal)).isSameAs(equal);
		assertThat(subject.or(subject)).isSameAs(subject);
		assertThat(subject.or(other)).isSameAs(subject);
		assertThat(subject.or(null)).isSameAs(subject);
	}

}
