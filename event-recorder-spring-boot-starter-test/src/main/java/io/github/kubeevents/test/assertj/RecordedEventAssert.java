package io.github.kubeevents.test.assertj;

import java.util.Objects;

import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;
import io.github.kubeevents.RecordedEvent;
import org.assertj.core.api.AbstractAssert;
import org.jspecify.annotations.Nullable;

/**
 * Assertions on one {@link RecordedEvent}. Failure messages show the whole event.
 *
 * <p>Not thread-safe (like every AssertJ assertion object).
 */
public class RecordedEventAssert extends AbstractAssert<RecordedEventAssert, RecordedEvent> {

	/**
	 * Assertions on {@code actual}; use {@link KubeEventsAssertions#assertThat(RecordedEvent)}.
	 * @param actual the event
	 */
	protected RecordedEventAssert(RecordedEvent actual) {
		super(actual, RecordedEventAssert.class);
	}

	/**
	 * Verifies that the event is a Warning.
	 * @return this
	 */
	public RecordedEventAssert isWarning() {
		return hasType(EventType.WARNING);
	}

	/**
	 * Verifies that the event is Normal.
	 * @return this
	 */
	public RecordedEventAssert isNormal() {
		return hasType(EventType.NORMAL);
	}

	/**
	 * Verifies the event's type.
	 * @param type Normal or Warning
	 * @return this
	 */
	public RecordedEventAssert hasType(EventType type) {
		isNotNull();
		if (this.actual.type() != type) {
			failWithMessage("%nExpected a %s event but was:%n  %s", type.value(), Descriptions.describe(this.actual));
		}
		return this;
	}

	/**
	 * Verifies the event's reason.
	 * @param reason the expected reason
	 * @return this
	 */
	public RecordedEventAssert hasReason(String reason) {
		isNotNull();
		if (!this.actual.reason().equals(reason)) {
			failWithActualExpectedAndMessage(this.actual.reason(), reason,
					"%nExpected reason \"%s\" but was \"%s\" in:%n  %s", reason, this.actual.reason(),
					Descriptions.describe(this.actual));
		}
		return this;
	}

	/**
	 * Verifies the event's message (events.k8s.io/v1 {@code note}) exactly.
	 * @param message the expected message, after formatting
	 * @return this
	 */
	public RecordedEventAssert hasMessage(String message) {
		isNotNull();
		if (!this.actual.message().equals(message)) {
			failWithActualExpectedAndMessage(this.actual.message(), message,
					"%nExpected message \"%s\" but was \"%s\" in:%n  %s", message, this.actual.message(),
					Descriptions.describe(this.actual));
		}
		return this;
	}

	/**
	 * Verifies that the event's message contains {@code text}.
	 * @param text the expected part
	 * @return this
	 */
	public RecordedEventAssert hasMessageContaining(String text) {
		isNotNull();
		Objects.requireNonNull(text, "text");
		if (!this.actual.message().contains(text)) {
			failWithMessage("%nExpected the message to contain \"%s\" but it was \"%s\" in:%n  %s", text,
					this.actual.message(), Descriptions.describe(this.actual));
		}
		return this;
	}

	/**
	 * Verifies the object the event is about (its kind, namespace and name; uid, resourceVersion and fieldPath are
	 * not compared).
	 * @param kind e.g. {@code Pod}
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param name the name
	 * @return this
	 */
	public RecordedEventAssert isAbout(String kind, @Nullable String namespace, String name) {
		isNotNull();
		if (!matches(this.actual.regarding(), kind, namespace, name)) {
			failWithMessage("%nExpected the event to be about %s but it is about %s:%n  %s",
					Descriptions.object(kind, namespace, name), Descriptions.object(this.actual.regarding()),
					Descriptions.describe(this.actual));
		}
		return this;
	}

	/**
	 * Verifies the object the event is about, every field of the reference.
	 * @param regarding the expected reference
	 * @return this
	 */
	public RecordedEventAssert isAbout(InvolvedObject regarding) {
		isNotNull();
		if (!this.actual.regarding().equals(regarding)) {
			failWithActualExpectedAndMessage(this.actual.regarding(), regarding,
					"%nExpected the event to be about%n  %s%nbut it is about%n  %s", regarding,
					this.actual.regarding());
		}
		return this;
	}

	/**
	 * Verifies the event's action (events.k8s.io/v1 {@code action}; core/v1 {@code action}).
	 * @param action the expected action
	 * @return this
	 */
	public RecordedEventAssert hasAction(String action) {
		isNotNull();
		if (!action.equals(this.actual.action())) {
			failWithActualExpectedAndMessage(this.actual.action(), action,
					"%nExpected action \"%s\" but was %s in:%n  %s", action, quoted(this.actual.action()),
					Descriptions.describe(this.actual));
		}
		return this;
	}

	/**
	 * Verifies that the event has a related object with this kind, namespace and name.
	 * @param kind e.g. {@code Node}
	 * @param namespace the namespace, {@code null} for a cluster-scoped object
	 * @param name the name
	 * @return this
	 */
	public RecordedEventAssert hasRelated(String kind, @Nullable String namespace, String name) {
		isNotNull();
		if (this.actual.related() == null || !matches(this.actual.related(), kind, namespace, name)) {
			failWithMessage("%nExpected the related object %s but it is %s:%n  %s",
					Descriptions.object(kind, namespace, name), Descriptions.object(this.actual.related()),
					Descriptions.describe(this.actual));
		}
		return this;
	}

	/**
	 * Verifies that the event has no related object.
	 * @return this
	 */
	public RecordedEventAssert hasNoRelated() {
		isNotNull();
		if (this.actual.related() != null) {
			failWithMessage("%nExpected no related object but it is %s:%n  %s",
					Descriptions.object(this.actual.related()), Descriptions.describe(this.actual));
		}
		return this;
	}

	/**
	 * Verifies one annotation of the Event's metadata.
	 * @param key the annotation key
	 * @param value its expected value
	 * @return this
	 */
	public RecordedEventAssert hasAnnotation(String key, String value) {
		isNotNull();
		String actualValue = this.actual.annotations().get(key);
		if (!value.equals(actualValue)) {
			failWithMessage("%nExpected annotation %s=\"%s\" but the annotations are %s in:%n  %s", key, value,
					Descriptions.annotations(this.actual.annotations()), Descriptions.describe(this.actual));
		}
		return this;
	}

	/**
	 * Verifies the reporting component ({@code source.component}, {@code reportingController}), by default
	 * {@code spring.application.name}.
	 * @param component the expected component
	 * @return this
	 */
	public RecordedEventAssert hasComponent(String component) {
		isNotNull();
		if (!this.actual.source().component().equals(component)) {
			failWithActualExpectedAndMessage(this.actual.source().component(), component,
					"%nExpected component \"%s\" but was \"%s\" in:%n  %s", component,
					this.actual.source().component(), Descriptions.describe(this.actual));
		}
		return this;
	}

	private static boolean matches(InvolvedObject object, String kind, @Nullable String namespace, String name) {
		return Objects.equals(object.kind(), kind) && Objects.equals(object.namespace(), emptyToNull(namespace))
				&& object.name().equals(name);
	}

	private static @Nullable String emptyToNull(@Nullable String value) {
		return (value == null || value.isEmpty()) ? null : value;
	}

	private static String quoted(@Nullable String value) {
		return (value != null) ? "\"" + value + "\"" : "none";
	}

}
