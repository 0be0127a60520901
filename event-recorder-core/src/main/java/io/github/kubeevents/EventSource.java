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
	 * Validates the component and normalises a {@code null} host to {@code ""}.
	 * @throws IllegalArgumentException when {@code component} is {@code null} or blank
	 */
	public EventSource {
		if (component == null || component.isBlank()) {
			throw new IllegalArgumentException("EventSource component must not be blank");
		}
		host = (host != null) ? host : "";
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
