package io.github.kubeevents.sink;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Which fields a core/v1 write carries besides client-go's: what the readers of Events (kubectl, the OpenTelemetry
 * collector's {@code k8seventsreceiver}, Grafana Alloy, event exporters, events.k8s.io/v1 readers such as Headlamp)
 * need to show the right count and last-seen time. The correlator's decisions (aggregation, count, spam filter,
 * series timing) are client-go's in both shapes; only the request bodies differ.
 *
 * <p>Immutable and thread-safe.
 */
public enum EventShape {

	/**
	 * client-go's fields plus what the readers need (the default). On core/v1:
	 * <ul>
	 * <li>a first occurrence also carries {@code eventTime} (the occurrence, microseconds) and {@code action} (the
	 * given one, else the reason), so a reader of the events.k8s.io/v1 view finds its time; only when the Event
	 * passes the API server's validation of Events with {@code eventTime} (a qualified component name, a reporting
	 * instance of 1 to 128 characters, reason and action of at most 128, a message of at most 1024 UTF-8 bytes),
	 * otherwise it is written as client-go writes it;</li>
	 * <li>a repeat's PATCH also sets {@code series {count, lastObservedTime}} (the occurrence, microseconds) and
	 * removes {@code eventTime}, so core/v1 readers keep reading {@code count} and {@code lastTimestamp}, and
	 * events.k8s.io/v1 readers find the same count and time in the series;</li>
	 * <li>a create of a count above 1 (an Event the server no longer had) carries the series too, without
	 * {@code eventTime}.</li>
	 * </ul>
	 * With {@link EventsApi#AUTO} it prefers core/v1 where RBAC allows its create and patch in every namespace. On
	 * events.k8s.io/v1 it writes what {@link #CLIENT_GO} writes (that API refuses the core/v1 fields).
	 */
	READERS("readers"),

	/** Exactly client-go's request bodies ({@code tools/record} on core/v1, {@code tools/events} on events.k8s.io/v1). */
	CLIENT_GO("client-go");

	private final String value;

	EventShape(String value) {
		this.value = value;
	}

	/**
	 * The name used in properties and snapshots.
	 * @return {@code "readers"} or {@code "client-go"}
	 */
	public String value() {
		return this.value;
	}

	/**
	 * The shape for a value, case-insensitively ({@code client_go} and {@code clientgo} are accepted too).
	 * @param value the value
	 * @return the shape, or {@code null} when unknown
	 */
	public static @Nullable EventShape fromValue(@Nullable String value) {
		if (value == null) {
			return null;
		}
		return switch (value.trim().toLowerCase(Locale.ROOT)) {
			case "readers" -> READERS;
			case "client-go", "client_go", "clientgo" -> CLIENT_GO;
			default -> null;
		};
	}

}
