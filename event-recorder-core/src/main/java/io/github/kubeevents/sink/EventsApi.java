package io.github.kubeevents.sink;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Which Kubernetes events API a sink writes, or how to choose it.
 *
 * <p>Immutable and thread-safe.
 */
public enum EventsApi {

	/** Ask the API server's discovery once whether events.k8s.io/v1 is served; use it if so, else core/v1. */
	AUTO("auto"),

	/** events.k8s.io/v1 Events with EventSeries (client-go's {@code tools/events}). */
	EVENTS_V1("events.k8s.io/v1"),

	/** core/v1 Events with count PATCHes (client-go's {@code tools/record}). */
	CORE_V1("core/v1");

	private final String value;

	EventsApi(String value) {
		this.value = value;
	}

	/**
	 * The name used in properties, snapshots and metric tags.
	 * @return {@code "auto"}, {@code "events.k8s.io/v1"} or {@code "core/v1"}
	 */
	public String value() {
		return this.value;
	}

	/**
	 * The API for a value, case-insensitively; {@code events.k8s.io}, {@code events-v1} and {@code events_v1} are
	 * accepted for events.k8s.io/v1, {@code core}, {@code core-v1}, {@code core_v1} and {@code record} for core/v1.
	 * @param value the value
	 * @return the API, or {@code null} when unknown
	 */
	public static @Nullable EventsApi fromValue(@Nullable String value) {
		if (value == null) {
			return null;
		}
		return switch (value.trim().toLowerCase(Locale.ROOT)) {
			case "auto" -> AUTO;
			case "events.k8s.io/v1", "events.k8s.io", "events-v1", "events_v1" -> EVENTS_V1;
			case "core/v1", "core", "core-v1", "core_v1", "record" -> CORE_V1;
			default -> null;
		};
	}

}
