package io.github.kubeevents;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;

import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * events.k8s.io/v1 Events from recorded events (client-go's {@code tools/events} {@code makeEvent}), checked
 * against the API server's validation of that API (spec §6.3) before anything is sent, so a write is not refused
 * and lost:
 * <ul>
 * <li>{@code reportingController} (the source's component) must be a qualified name, e.g.
 * {@code example.com/my-controller} or {@code my-controller};</li>
 * <li>{@code reportingInstance} is {@code <component>-<host>} (client-go's form; the component alone when there is
 * no host), cut to 128 UTF-8 bytes;</li>
 * <li>{@code action} (the reason when none was given) and {@code reason} must be at most 128 UTF-8 bytes (the
 * server counts bytes);</li>
 * <li>a {@code note} over 1024 UTF-8 bytes is cut at a character boundary and ends with
 * {@value #TRUNCATION_MARKER}, rather than being refused;</li>
 * <li>no deprecated field is set; {@code eventTime} has microsecond precision.</li>
 * </ul>
 *
 * The bytes are those the server stores: a recorded event's text has no unpaired surrogate (each became U+FFFD, 3
 * bytes; see {@link WireText}), so every client sends what was counted.
 *
 * <p>Stateless and thread-safe.
 */
final class EventsV1Events {

	/** The API server's limit on {@code note}, in UTF-8 bytes. */
	static final int NOTE_MAX_BYTES = 1024;

	/** The limit on {@code reportingInstance}, {@code action} and {@code reason}, in UTF-8 bytes. */
	static final int FIELD_MAX_LENGTH = 128;

	/** What ends a note that was cut to {@link #NOTE_MAX_BYTES}. */
	static final String TRUNCATION_MARKER = " ... [truncated by kube-events]";

	private EventsV1Events() {
	}

	/** A checked event, or why it cannot be sent. */
	record Result(@Nullable EventsV1Event event, @Nullable String problem, boolean truncated) {
	}

	static Result of(RecordedEvent recorded, String note) {
		String controller = recorded.source().component();
		if (!isQualifiedName(controller)) {
			return new Result(null, "reportingController '" + controller + "' (the component) is not a qualified name"
					+ " like 'example.com/my-controller' or 'my-controller' (events.k8s.io/v1 requires one)", false);
		}
		String action = (recorded.action() != null) ? recorded.action() : recorded.reason();
		String problem = fieldProblem("action", action);
		if (problem == null) {
			problem = fieldProblem("reason", recorded.reason());
		}
		if (problem != null) {
			return new Result(null, problem, false);
		}
		String host = recorded.source().host();
		String instance = host.isEmpty() ? controller : controller + "-" + host;
		instance = WireText.prefix(instance, FIELD_MAX_LENGTH);
		String cutNote = truncate(note);
		EventsV1Event event = new EventsV1Event().metadata(new V1ObjectMeta().name(EventNames.generate(recorded))
			.namespace(recorded.eventNamespace())
			.annotations(recorded.annotations().isEmpty() ? null : new LinkedHashMap<>(recorded.annotations())))
			.eventTime(microTime(recorded.timestamp()))
			.reportingController(controller)
			.reportingInstance(instance)
			.action(action)
			.reason(recorded.reason())
			.regarding(recorded.regarding().toV1ObjectReference())
			.related((recorded.related() != null) ? recorded.related().toV1ObjectReference() : null)
			.note(cutNote)
			.type(recorded.type().value());
		return new Result(event, null, cutNote != note);
	}

	/**
	 * Why a required field of at most {@link #FIELD_MAX_LENGTH} bytes is refused ({@code reportingInstance},
	 * {@code action}, {@code reason}): the server counts bytes (Go's {@code len}), not characters.
	 * @return the problem, or {@code null} when the value has 1 to 128 UTF-8 bytes
	 */
	static @Nullable String fieldProblem(String field, @Nullable String value) {
		if (value == null || value.isEmpty()) {
			return field + " is empty";
		}
		int bytes = WireText.utf8Length(value);
		return (bytes > FIELD_MAX_LENGTH) ? field + " is " + bytes + " UTF-8 bytes, more than " + FIELD_MAX_LENGTH
				: null;
	}

	/** UTC with microsecond precision, as {@code MicroTime}; allocates no time-zone rules. */
	static OffsetDateTime microTime(Instant time) {
		int micros = time.getNano() / 1000;
		return OffsetDateTime.of(LocalDateTime.ofEpochSecond(time.getEpochSecond(), micros * 1000, ZoneOffset.UTC),
				ZoneOffset.UTC);
	}

	/** The note itself when it fits, else a prefix at a character boundary plus {@link #TRUNCATION_MARKER}. */
	static String truncate(String note) {
		if (!WireText.exceeds(note, NOTE_MAX_BYTES)) {
			return note;
		}
		return WireText.prefix(note, NOTE_MAX_BYTES - TRUNCATION_MARKER.length()) + TRUNCATION_MARKER;
	}

	/**
	 * Whether {@code value} is a Kubernetes qualified name: an optional DNS-1123 subdomain prefix and {@code /},
	 * then 1 to 63 characters of alphanumerics, {@code -}, {@code _} and {@code .}, starting and ending with an
	 * alphanumeric.
	 */
	static boolean isQualifiedName(@Nullable String value) {
		if (value == null || value.isEmpty()) {
			return false;
		}
		int slash = value.indexOf('/');
		String name = value;
		if (slash >= 0) {
			if (!EventNames.isDns1123Subdomain(value.substring(0, slash))) {
				return false;
			}
			name = value.substring(slash + 1);
		}
		if (name.isEmpty() || name.length() > 63) {
			return false;
		}
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
			boolean edge = (i == 0 || i == name.length() - 1);
			if (!alphanumeric && (edge || (c != '-' && c != '_' && c != '.'))) {
				return false;
			}
		}
		return true;
	}

}
