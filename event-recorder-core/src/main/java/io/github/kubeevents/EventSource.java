package io.github.kubeevents;

/**
 * Who reports an event: {@code source.component} / {@code source.host} of a core/v1 Event. The recorder also
 * copies them into {@code reportingComponent} / {@code reportingInstance}, as client-go does since 1.28.
 *
 * <p>Immutable and thread-safe.
 *
 * @param component the reporting component, e.g. the controller's name; required, not blank
 * @param host the reporting host or instance, e.g. the pod name; {@code null} is stored as {@code ""}
 */
public record EventSource(String component, String host) {

	/**
	 * Validates the component and normalises a {@code null} host to {@code ""}; an unpaired surrogate in either is
	 * replaced with U+FFFD, as in a {@link RecordedEvent}'s text.
	 * @throws IllegalArgumentException when {@code component} is {@code null} or blank
	 */
	public EventSource {
		if (component == null || component.isBlank()) {
			throw new IllegalArgumentException("EventSource component must not be blank");
		}
		component = WireText.wellFormed(component);
		host = (host != null) ? WireText.wellFormed(host) : "";
	}

	/**
	 * A source without a host.
	 * @param component the reporting component
	 * @return the source
	 */
	public static EventSource of(String component) {
		return new EventSource(component, "");
	}

}
